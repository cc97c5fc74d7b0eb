// Hostile or broken Markdown renders without throwing and in linear time (the times are in
// bench/markdown.js; here, only that each finishes): unclosed fences, lists and quotes 10,000 levels
// deep, a 1 MB table row, long words, emphasis and bracket bombs; whole and streamed in pieces.
// Whatever comes in, nothing but our own escapes leaves as a control character.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { md, layout, streamOutputs } from '../helpers/markdown.js';
import { highlighter } from '../../src/ui/markdown/code.js';
import { renderMarkdown } from '../../src/ui/markdown/render.js';
import { terminalSafe } from '../../src/ui/terminal-safe.js';

const MB = 1024 * 1024;
/** most inputs are a quarter of a megabyte (bench/markdown.js times them up to 1 MB, to show the growth is linear) */
const QUARTER = MB / 4;

const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

const HOSTILE: Array<[string, () => string]> = [
  ['an unclosed fence of 30,000 lines', () => '```python\n' + 'x = """\n'.repeat(30_000)],
  ['a list 10,000 levels deep on one line', () => '- '.repeat(10_000) + 'x\n'],
  [
    'a list 2,000 levels deep by indentation',
    () => Array.from({ length: 2_000 }, (_, i) => `${' '.repeat(2 * i)}- level ${i}`).join('\n'),
  ],
  ['a numbered list 10,000 levels deep', () => '1. '.repeat(10_000) + 'x'],
  ['quotes 10,000 levels deep', () => '> '.repeat(10_000) + 'x\n' + '>'.repeat(10_000) + ' y'],
  ['a 1 MB table row', () => `| a | b |\n|---|---|\n| ${'word '.repeat(MB / 5)} | x |\n`],
  ['a table row of 500,000 cells', () => `| a | b |\n|---|---|\n${'|'.repeat(MB / 2)}\n`],
  ['a header of 60,000 columns', () => `${'| a '.repeat(60_000)}|\n${'|-'.repeat(60_000)}|\n| 1 |\n`],
  ['a 1 MB word', () => 'x'.repeat(MB)],
  ['a word of wide characters', () => '東'.repeat(QUARTER)],
  ['emphasis markers', () => '*_'.repeat(QUARTER / 4) + ' **a' + '*'.repeat(QUARTER / 2)],
  ['nested brackets', () => '['.repeat(QUARTER / 2) + 'a' + ']('.repeat(QUARTER / 4)],
  ['backticks', () => '`'.repeat(QUARTER / 2) + ' ``a` ' + '``'.repeat(QUARTER / 4)],
  ['entities', () => '&#13;&#27;&amp;&#x9b;'.repeat(QUARTER / 32)],
  ['a million blank lines', () => '\n'.repeat(MB)],
  ['a long heading with a long closing run', () => '# ' + 'a '.repeat(QUARTER / 4) + '#'.repeat(QUARTER / 2)],
  ['setext and rules', () => 'x\n===\n- - -\n***\n'.repeat(QUARTER / 16)],
  ['control characters everywhere', () => '\u001b[2J\u0007\r\u009b|`*[\n'.repeat(QUARTER / 16)],
];

function check(output: string): void {
  // before our markers are undone, no control character at all but the line break
  expect(output).not.toMatch(CONTROL);
}

describe('hostile Markdown renders and finishes', () => {
  it.each(HOSTILE)('%s: whole', (_name, make) => {
    const text = terminalSafe(make());
    check(renderMarkdown(text, layout(80), md, highlighter).join('\n'));
  });

  it.each(HOSTILE)('%s: streamed in 16 KiB pieces', (_name, make) => {
    const text = terminalSafe(make());
    const pieces: string[] = [];
    for (let i = 0; i < text.length; i += 16384) pieces.push(text.slice(i, i + 16384));
    const out = streamOutputs(pieces, 80, { rows: 24, colour: true, hyperlinks: true });
    check(out.join(''));
  });
});

describe('any text at all', () => {
  const alphabet = fc.constantFrom(...'#*_`~[]()<>|-:=+>!\\&;\n\n \t1.xy東\u0301\u001b\u0007\r\u009b'.split(''));
  it('renders without throwing, streamed or whole, and only our escapes are controls', () => {
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 400 }),
        fc.integer({ min: 10, max: 120 }),
        fc.integer({ min: 1, max: 50 }),
        (chars, width, rows) => {
          const text = terminalSafe(chars.join(''));
          check(renderMarkdown(text, layout(width, { colour: true, hyperlinks: true }), md, highlighter).join('\n'));
          const pieces = text.match(/[\s\S]{1,7}/g) ?? [];
          check(streamOutputs(pieces, width, { rows, colour: true }).join(''));
        },
      ),
      { numRuns: 300 },
    );
  });
});
