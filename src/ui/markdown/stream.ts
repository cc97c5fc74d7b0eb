// A reply rendered as it streams. Text is shown as it arrives; when a block is complete (blocks.ts),
// the plain text shown for it is erased and the block is drawn rendered in its place. Only that tail
// is ever redrawn: what was rendered stays. So that the tail can be erased exactly, it is drawn with
// our own line breaks one column short of the edge (the terminal never wraps it), at most as many
// rows as the screen has (past that it waits, unseen, for its block to end: rows that scrolled off
// could not be erased). The final screen depends on the text alone, not on how it was cut.
import type { MarkdownIt } from 'markdown-it';
import { BlockSplitter, type Block } from './blocks.js';
import { BlockRenderer, type Layout } from './render.js';
import { codePointWidth } from './spans.js';

export interface StreamLayout extends Layout {
  /** rows of the terminal */
  rows: number;
}

const TAB = 8;

/** The plain text shown for blocks not complete yet, and how to take it off the screen again. */
class Tail {
  /** line breaks drawn so far (the tail spans one row more) */
  private breaks = 0;
  private col = 0;
  private drawn = false;
  private full = false;
  hidden = false;

  constructor(
    private readonly width: number,
    private readonly rows: number,
    private readonly mark: (sequence: string) => string,
  ) {}

  private newline(): boolean {
    // one row to spare: the tail never fills the screen, so none of it can scroll away
    if (this.breaks + 3 > this.rows) {
      this.full = true;
      return false;
    }
    this.breaks++;
    this.col = 0;
    return true;
  }

  show(text: string): string {
    let out = '';
    const edge = Math.max(1, this.width - 1);
    for (const ch of text) {
      if (this.full) break;
      if (ch === '\n') {
        if (this.newline()) out += '\n';
        continue;
      }
      const piece = ch === '\t' ? ' '.repeat(TAB - (this.col % TAB)) : ch;
      const w = ch === '\t' ? piece.length : codePointWidth(ch);
      if (this.col + w > edge) {
        if (!this.newline()) break;
        out += '\n';
      }
      out += piece;
      this.col += w;
    }
    if (out !== '') this.drawn = true;
    return out;
  }

  /** Back to the first column of the tail's first row, everything below erased. */
  erase(): string {
    if (!this.drawn) return '';
    const up = this.breaks;
    this.breaks = 0;
    this.col = 0;
    this.drawn = false;
    this.full = false;
    return this.mark(`\r${up > 0 ? `\x1b[${up}A` : ''}\x1b[J`);
  }
}

export class MarkdownStream {
  private readonly split = new BlockSplitter();
  private readonly renderer: BlockRenderer;
  private readonly tail: Tail;
  private partial = '';

  constructor(layout: StreamLayout, md: MarkdownIt) {
    this.renderer = new BlockRenderer(layout, md);
    this.tail = new Tail(layout.width, Math.max(2, layout.rows), layout.mark);
  }

  /** A piece of the reply (made terminal-safe already): what to write for it. */
  push(text: string): string {
    const reveal = this.tail.hidden;
    this.tail.hidden = false;
    const done: Block[] = [];
    let from = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
      const line = this.partial + text.slice(from, nl);
      this.partial = '';
      for (const b of this.split.line(line)) done.push(b);
      from = nl + 1;
    }
    this.partial += text.slice(from);
    if (done.length === 0) return this.tail.show(reveal ? this.pendingText() : text);
    return this.tail.erase() + this.draw(done) + this.tail.show(this.pendingText());
  }

  /** Takes the tail off the screen (something else is about to write there: a tool line); the next piece brings it back. */
  hide(): string {
    this.tail.hidden = true;
    return this.tail.erase();
  }

  /** The end of the reply: everything rendered, the cursor at the start of a line. */
  end(): string {
    const done = this.partial === '' ? [] : this.split.line(this.partial);
    this.partial = '';
    for (const b of this.split.end()) done.push(b);
    return this.tail.erase() + this.draw(done);
  }

  private pendingText(): string {
    return this.split.pending().map((l) => `${l}\n`).join('') + this.partial;
  }

  private draw(blocks: Block[]): string {
    let out = '';
    for (const b of blocks) for (const line of this.renderer.render(b)) out += `${line}\n`;
    return out;
  }
}
