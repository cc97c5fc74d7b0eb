// The block splitter behind streamed Markdown (src/ui/markdown/blocks.ts): which blocks a reply is
// made of, and, line by line, when each one is handed over (as soon as it is known to be complete)
// and which source lines are still waiting.
import { describe, expect, it } from 'vitest';
import { BlockSplitter, type Block } from '../../src/ui/markdown/blocks.js';
import { delimiterRow, tableCells } from '../../src/ui/markdown/lines.js';

function blocks(text: string): Block[] {
  const s = new BlockSplitter();
  const out: Block[] = [];
  for (const line of text.split('\n')) out.push(...s.line(line));
  out.push(...s.end());
  return out;
}

/** For each line fed: the kinds of the blocks it completed. */
function handedOver(text: string): string[][] {
  const s = new BlockSplitter();
  return [...text.split('\n').map((line) => s.line(line).map((b) => b.kind)), s.end().map((b) => b.kind)];
}

describe('blocks of a reply', () => {
  it('paragraphs (lines joined), blank lines between blocks (runs as one, none at the start or end)', () => {
    expect(blocks('\n\nfirst line\nsecond line\n\n\n\nnext\n\n')).toEqual([
      { kind: 'paragraph', lines: ['first line', 'second line'], indent: 0 },
      { kind: 'blank' },
      { kind: 'paragraph', lines: ['next'], indent: 0 },
    ]);
  });

  it('headings: ATX with a closing run removed, setext under a paragraph; --- alone is a rule', () => {
    expect(blocks('# One #\n###### Six\n####### seven\nTitle\n=====\nSub\n---\n\n---\n#hashtag')).toEqual([
      { kind: 'heading', level: 1, text: 'One', indent: 0 },
      { kind: 'heading', level: 6, text: 'Six', indent: 0 },
      // seven # are text, and "Title" continues that paragraph
      { kind: 'heading', level: 1, text: '####### seven Title', indent: 0 },
      { kind: 'heading', level: 2, text: 'Sub', indent: 0 },
      { kind: 'blank' },
      { kind: 'rule', indent: 0 },
      { kind: 'paragraph', lines: ['#hashtag'], indent: 0 },
    ]);
  });

  it(
    'fences: each line of code on its own; a longer or other fence ' +
      'inside stays code; an unclosed one closes at the end',
    () => {
      expect(blocks('```py\nx = 1\n\n```js\n~~~\n```\n~~~~\ncode\n~~~')).toEqual([
        { kind: 'fence', edge: 'open', marker: '```', lang: 'py', indent: 0 },
        { kind: 'code', text: 'x = 1', indent: 0 },
        { kind: 'code', text: '', indent: 0 },
        { kind: 'code', text: '```js', indent: 0 },
        { kind: 'code', text: '~~~', indent: 0 },
        { kind: 'fence', edge: 'close', marker: '```', lang: '', indent: 0 },
        { kind: 'fence', edge: 'open', marker: '~~~~', lang: '', indent: 0 },
        { kind: 'code', text: 'code', indent: 0 },
        { kind: 'code', text: '~~~', indent: 0 },
        { kind: 'fence', edge: 'close', marker: '~~~~', lang: '', indent: 0 },
      ]);
    },
  );

  it('lists: items with their lazy lines, nesting by indentation, a numbered list, "- - x" as two levels', () => {
    expect(blocks('- one\ncontinued\n  - nested\n    - deeper\n- two\n1. first\n10. tenth\n- - x')).toEqual([
      { kind: 'item', marker: '-', ordered: false, depth: 0, lines: ['one', 'continued'], indent: 0 },
      { kind: 'item', marker: '-', ordered: false, depth: 1, lines: ['nested'], indent: 2 },
      { kind: 'item', marker: '-', ordered: false, depth: 2, lines: ['deeper'], indent: 4 },
      { kind: 'item', marker: '-', ordered: false, depth: 0, lines: ['two'], indent: 0 },
      { kind: 'item', marker: '1.', ordered: true, depth: 0, lines: ['first'], indent: 0 },
      { kind: 'item', marker: '10.', ordered: true, depth: 0, lines: ['tenth'], indent: 0 },
      { kind: 'item', marker: '-', ordered: false, depth: 1, lines: ['x'], indent: 2 },
    ]);
  });

  it('a paragraph under an item after a blank line belongs to it when indented, and ends the list when not', () => {
    expect(blocks('1. step\n\n   more about it\n   ```sh\n   ls\n   ```\n\nafter')).toEqual([
      { kind: 'item', marker: '1.', ordered: true, depth: 0, lines: ['step'], indent: 0 },
      { kind: 'blank' },
      { kind: 'paragraph', lines: ['more about it'], indent: 3 },
      { kind: 'fence', edge: 'open', marker: '```', lang: 'sh', indent: 3 },
      { kind: 'code', text: 'ls', indent: 3 },
      { kind: 'fence', edge: 'close', marker: '```', lang: '', indent: 3 },
      { kind: 'blank' },
      { kind: 'paragraph', lines: ['after'], indent: 0 },
    ]);
  });

  it('a numbered line not starting at 1 does not interrupt a paragraph (CommonMark), "- - -" is a rule', () => {
    expect(blocks('The year was\n1999. It\n- - -')).toEqual([
      { kind: 'paragraph', lines: ['The year was', '1999. It'], indent: 0 },
      { kind: 'rule', indent: 0 },
    ]);
  });

  it('quotes: one block per paragraph, levels counted, lazy lines kept, a bare > is a blank quoted line', () => {
    expect(blocks('> a\nlazy\n>\n> > deep\n> b')).toEqual([
      { kind: 'quote', depth: 1, lines: ['a', 'lazy'], indent: 0 },
      { kind: 'quote', depth: 1, lines: [], indent: 0 },
      { kind: 'quote', depth: 2, lines: ['deep'], indent: 0 },
      { kind: 'quote', depth: 1, lines: ['b'], indent: 0 },
    ]);
  });

  it(
    'tables: a header row over a delimiter row, rows while lines ' +
      'have a pipe; the lines above the header stay a paragraph',
    () => {
      expect(blocks('Levels:\n| a | b |\n|---|--:|\n| 1 | 2 |\n3 | 4\nafter')).toEqual([
        { kind: 'paragraph', lines: ['Levels:'], indent: 0 },
        { kind: 'table', lines: ['| a | b |', '|---|--:|', '| 1 | 2 |', '3 | 4'], indent: 0 },
        { kind: 'paragraph', lines: ['after'], indent: 0 },
      ]);
      // cells counted unlike the header's: no table
      expect(blocks('a | b\n---')).toEqual([{ kind: 'heading', level: 2, text: 'a | b', indent: 0 }]);
    },
  );

  it('table cells: outer pipes optional, \\| a pipe inside a cell; the delimiter row gives the alignments', () => {
    expect(tableCells('| a | b \\| c |  |')).toEqual(['a', 'b | c', '']);
    expect(tableCells('x|y')).toEqual(['x', 'y']);
    expect(delimiterRow('|:--|:-:|--:|---|')).toEqual(['left', 'center', 'right', undefined]);
    expect(delimiterRow('| a |')).toBeUndefined();
    expect(delimiterRow('|:|')).toBeUndefined();
  });

  it('indented code after a blank line; inside a paragraph, an indented line is a lazy one', () => {
    expect(blocks('para\n    not code\n\n    code')).toEqual([
      { kind: 'paragraph', lines: ['para', 'not code'], indent: 0 },
      { kind: 'blank' },
      { kind: 'code', text: 'code', indent: 4 },
    ]);
  });
});

describe('each block is handed over as soon as it is complete', () => {
  it(
    'a heading and each line of code at their own line end; a paragraph, ' +
      'an item, a quote or a table at the first line not theirs',
    () => {
      expect(handedOver('# Title\npara\n\n- a\n- b\n```\nx\n```\n| h |\n|---|\n| 1 |\n> q\nlazy\n\ntext')).toEqual([
        ['heading'],
        [],
        ['paragraph'],
        [],
        ['blank', 'item'],
        ['item', 'fence'],
        ['code'],
        ['fence'],
        [],
        [],
        [],
        ['table'],
        [],
        ['quote'],
        [],
        ['blank', 'paragraph'],
      ]);
    },
  );

  it('pending(): the source lines not handed over yet (blank lines and the growing block)', () => {
    const s = new BlockSplitter();
    s.line('para');
    expect(s.pending()).toEqual(['para']);
    s.line('');
    expect(s.pending()).toEqual(['']);
    s.line('- item');
    expect(s.pending()).toEqual(['', '- item']);
    s.line('  more');
    expect(s.pending()).toEqual(['', '- item', '  more']);
    s.line('# Heading');
    expect(s.pending()).toEqual([]);
    s.line('a | b');
    s.line('--|--');
    expect(s.pending()).toEqual(['a | b', '--|--']);
  });
});
