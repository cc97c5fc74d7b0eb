// One block (blocks.ts) drawn as terminal lines at a given width: paragraphs wrapped on words,
// headings with their # marks, list items with a bullet or their number and a hanging indent, quotes
// behind a bar, tables laid out (table.ts), code coloured line by line (code.ts) between its fences.
// A whole document is the same blocks drawn one after another (renderMarkdown).
import type { MarkdownIt } from 'markdown-it';
import { BlockSplitter, drawnMarkerWidth, type Block } from './blocks.js';
import { inlineSpans } from './inline.js';
import { expandTabs } from './lines.js';
import { paint, withSgr, type Line, type Paint, type Span } from './spans.js';
import { renderTable } from './table.js';
import { headingSgr, SGR } from './theme.js';
import { wrap } from './wrap.js';

export interface Layout extends Paint {
  /** columns of the terminal */
  width: number;
}

/** [ours] nesting never leaves less than this many columns for the text */
const MIN_TEXT = 20;
const QUOTE_BAR = '│ ';
const MAX_QUOTE_BARS = 8;
const BULLETS = ['•', '◦', '▪'];

/** Colours the lines of one fenced block (code.ts), given its language. */
export type Highlighter = (lang: string) => { line(text: string): Span[] };

/**
 * Whether drawing the block takes the highlighter: a fence, or a quote with one inside, at any depth
 * or indent (a fence in a list in a quote too: any line with a fence's marker counts).
 */
const needsHighlighter = (block: Block): boolean =>
  (block.kind === 'fence' && block.edge === 'open') ||
  (block.kind === 'quote' && block.lines.some((l) => /```|~~~/.test(l)));

/**
 * [ours] code coloured in one reply, all blocks together: past it,
 * code is shown uncoloured (highlighting costs ~35 µs a character)
 */
const REPLY_CODE_MAX = 32 * 1024;

export class BlockRenderer {
  private code: ReturnType<Highlighter> | undefined;
  private codeSeen = 0;

  constructor(
    private readonly o: Layout,
    private readonly md: MarkdownIt,
    private highlighter?: Highlighter,
  ) {}

  /** The highlighter has loaded (its own bundle): fences can be drawn. */
  useHighlighter(highlighter: Highlighter): void {
    this.highlighter = highlighter;
  }

  /** False for a fence while the highlighter has not loaded: it waits (stream.ts). */
  canRender(block: Block): boolean {
    return this.highlighter !== undefined || !needsHighlighter(block);
  }

  /** The block's lines, painted (our escapes as markers), without line ends. */
  render(block: Block): string[] {
    if (block.kind === 'blank') return [''];
    if (block.kind === 'quote') return this.quote(block);
    const indent = this.indentOf(block.indent);
    return this.lines(block, indent).map((line) => (line.length > 0 ? ' '.repeat(indent) + paint(line, this.o) : ''));
  }

  private indentOf(indent: number): number {
    return Math.max(0, Math.min(indent, this.o.width - this.minText()));
  }

  /** Columns the text keeps, however deep it is nested: 20, or half a narrow terminal. */
  private minText(): number {
    return Math.min(MIN_TEXT, this.o.width >> 1);
  }

  private inline(text: string): Span[] {
    return inlineSpans(this.md, text, this.o);
  }

  private lines(block: Exclude<Block, { kind: 'blank' | 'quote' }>, indent: number): Line[] {
    const room = Math.max(1, this.o.width - indent);
    switch (block.kind) {
      case 'paragraph':
        return wrap(this.inline(block.lines.join('\n')), room);
      case 'heading':
        return wrap(
          [
            { text: `${'#'.repeat(block.level)} `, sgr: SGR.frame },
            ...withSgr(this.inline(block.text), headingSgr(block.level)),
          ],
          room,
        );
      case 'rule':
        return [[{ text: '─'.repeat(room), sgr: SGR.frame }]];
      case 'item':
        return this.item(block, room);
      case 'table':
        return renderTable(block.lines, room, (text) => this.inline(text));
      case 'fence':
        // a fence the stream did not hold back for the highlighter (none should be) is shown uncoloured
        this.code =
          block.edge === 'open' && this.highlighter && this.codeSeen < REPLY_CODE_MAX
            ? this.highlighter(block.lang)
            : undefined;
        return [[{ text: block.edge === 'open' ? `${block.marker}${block.lang}` : block.marker, sgr: SGR.frame }]];
      case 'code':
        // inside a fence, coloured; indented code, as it is
        if (this.code) this.codeSeen += block.text.length + 1;
        return [
          this.code && this.codeSeen <= REPLY_CODE_MAX
            ? this.code.line(block.text)
            : [{ text: expandTabs(block.text) }],
        ];
    }
  }

  /** `• text` with the text's later lines under its first word; `[ ]`/`[x]` as a box. */
  private item(block: Extract<Block, { kind: 'item' }>, room: number): Line[] {
    let text = block.lines.join('\n');
    let marker = block.ordered ? block.marker : BULLETS[block.depth % BULLETS.length]!;
    const task = /^\[([ xX])\][ \t]/.exec(text);
    if (task) {
      text = text.slice(task[0].length);
      if (!block.ordered) marker = task[1] === ' ' ? '☐' : '☑';
      else marker += task[1] === ' ' ? ' ☐' : ' ☑';
    }
    const hang = Math.min(
      drawnMarkerWidth(block.marker, block.ordered) + (task && block.ordered ? 2 : 0),
      Math.max(0, room - 1),
    );
    const lines = wrap(this.inline(text), Math.max(1, room - hang));
    return lines.map((line, i) => [{ text: i === 0 ? `${marker} `.padEnd(hang) : ' '.repeat(hang) }, ...line]);
  }

  /** The quote's text drawn as a document of its own, narrower, behind one bar per level. */
  private quote(block: Extract<Block, { kind: 'quote' }>): string[] {
    // bars, then indent, give way so that the text keeps its columns and no line is wider than the terminal
    const spare = Math.max(0, this.o.width - this.minText());
    const bars = Math.max(1, Math.min(block.depth, MAX_QUOTE_BARS, Math.floor(spare / QUOTE_BAR.length)));
    const indent = Math.max(0, Math.min(this.indentOf(block.indent), spare - bars * QUOTE_BAR.length));
    const prefix = ' '.repeat(indent) + paint([{ text: QUOTE_BAR.repeat(bars).trimEnd(), sgr: SGR.frame }], this.o);
    const inner = renderMarkdown(
      block.lines.join('\n'),
      { ...this.o, width: Math.max(1, this.o.width - indent - bars * QUOTE_BAR.length) },
      this.md,
      this.highlighter,
      true,
    );
    if (inner.length === 0) return [prefix];
    return inner.map((line) => (line === '' ? prefix : `${prefix} ${line}`));
  }
}

/**
 * A whole document's lines (soul.md, memory.md): exactly what a stream of it ends up showing. A
 * document with a fence needs the highlighter.
 */
export function renderMarkdown(
  text: string,
  layout: Layout,
  md: MarkdownIt,
  highlighter?: Highlighter,
  nested = false,
): string[] {
  const split = new BlockSplitter(nested);
  const renderer = new BlockRenderer(layout, md, highlighter);
  const out: string[] = [];
  const take = (blocks: Block[]) => {
    for (const b of blocks) for (const line of renderer.render(b)) out.push(line);
  };
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const line of lines) take(split.line(line));
  take(split.end());
  return out;
}
