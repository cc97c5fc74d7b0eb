// A reply rendered as it streams. Text is shown as it arrives; when a block is complete (blocks.ts),
// the plain text shown for it is erased and the block is drawn rendered in its place. Only that tail
// is ever redrawn: what was rendered stays. So that the tail can be erased exactly, it is drawn with
// our own line breaks one column short of the edge (the terminal never wraps it), at most as many
// rows as the screen has (past that it waits, unseen, for its block to end: rows that scrolled off
// could not be erased). The final screen depends on the text alone, not on how it was cut.
//
// This file, blocks.ts and lines.ts are light (the CLI bundle holds them): the first bytes of a reply
// are shown while the painter of blocks (render.ts with markdown-it, src/vendor/markdown.ts) is still
// loading, and the highlighter (src/vendor/highlight.ts) is loaded only when a fence comes; blocks
// completed meanwhile wait in the tail, plain, and are drawn once the painter is `ready` for them.
//
// What is held is bounded (HELD_CHARS): past it, the rest of the reply is written as it came.
import { BlockSplitter, type Block } from './blocks.js';
import { codePointWidth } from '../width.js';
import type { Reflow } from './reflow.js';

export interface TailLayout {
  /** columns and rows of the terminal, read at each use (a terminal resized mid-reply) */
  width: number;
  rows: number;
  /** our own control sequences as markers (terminal-safe.ts `ours`) */
  mark: (sequence: string) => string;
  /**
   * What the terminal re-wraps when it is narrowed: every row ('all': tmux, VTE, iTerm2, kitty), the
   * rows above the cursor's only ('ended': xterm.js, VS Code's terminal; the default), or none
   * (xterm, urxvt, st, the Linux console)
   */
  reflow?: Reflow;
}

/** Draws a complete block: its lines, painted, without line ends (render.ts). */
export interface BlockPainter {
  render(block: Block): string[];
  /**
   * false while the block needs what has not loaded yet (the
   * highlighter, for a fence): it waits, and every block after it
   */
  canRender?(block: Block): boolean;
}

const TAB = 8;

/**
 * The most of a reply held undrawn, in characters: the block still growing (a paragraph is drawn once
 * it ends), and blocks waiting for the painter to load. Past it (one paragraph of megabytes, a line
 * that never ends, a painter that never loads) the reply is not held to be drawn whole: the tail is
 * erased, what was held is written as it came, and so is the rest of the reply, unrendered. A block
 * that long fills many screens anyway (a table of 500 long rows is ~50 KiB), and drawing it is what
 * costs: a 256 KiB paragraph took ~1.3 s and ~70 MB more memory, 1 MiB ~3 s and ~170 MB (markdown-it
 * and the wrapping, on 2 busy cores).
 */
export const HELD_CHARS = 256 * 1024;

/** The plain text shown for blocks not drawn yet, and how to take it off the screen again. */
class Tail {
  /**
   * The rows the tail has ended so far (it spans one row more: the current one): their columns, and
   * whether the terminal's width changed while the row was the cursor's
   */
  private ended: Array<{ cols: number; resized: boolean }> = [];
  private col = 0;
  /** the terminal's width when the current row began */
  private rowWidth = 0;
  private drawn = false;
  get shown(): boolean {
    return this.drawn && !this.hidden;
  }
  private full = false;
  hidden = false;

  constructor(private readonly o: TailLayout) {}

  /**
   * The screen rows the tail takes at the terminal's width now: a terminal narrowed since it was drawn
   * re-wraps the rows (as TailLayout.reflow says), a wider one keeps them. Where unsure, fewer: erasing
   * a row too many would take rendered text above the tail off the screen (one too few leaves a stale
   * row, the lesser harm).
   */
  private screenRows(): number {
    const width = Math.max(1, this.o.width);
    const reflow = this.o.reflow ?? 'ended';
    // the cursor's row too, where the terminal re-wraps it (a row resized while current can be wider)
    let rows = reflow === 'all' ? Math.max(1, Math.ceil(this.col / width)) : 1;
    for (const row of this.ended) {
      const rewrapped = reflow === 'all' || (reflow === 'ended' && !row.resized);
      rows += rewrapped ? Math.max(1, Math.ceil(row.cols / width)) : 1;
    }
    return rows;
  }

  private newline(): boolean {
    // one row to spare: the tail never fills the screen, so none of it can scroll away
    if (this.screenRows() + 2 > Math.max(2, this.o.rows)) {
      this.full = true;
      return false;
    }
    this.ended.push({ cols: this.col, resized: this.rowWidth !== this.o.width });
    this.col = 0;
    this.rowWidth = this.o.width;
    return true;
  }

  show(text: string): string {
    let out = '';
    if (!this.drawn) this.rowWidth = this.o.width; // the tail's first row begins
    const edge = Math.max(1, this.o.width - 1);
    let i = 0;
    while (i < text.length && !this.full) {
      const c = text.charCodeAt(i);
      if (c >= 0x20 && c < 0x7f) {
        // a run of printable ASCII, a column each: as much of it as fits on the row, at once
        let j = i + 1;
        while (j < text.length && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) < 0x7f) j++;
        while (i < j) {
          if (this.col >= edge) {
            if (!this.newline()) break;
            out += '\n';
          }
          const take = Math.min(edge - this.col, j - i);
          out += text.slice(i, i + take);
          this.col += take;
          i += take;
        }
        continue;
      }
      if (c === 0x0a) {
        if (this.newline()) out += '\n';
        i++;
        continue;
      }
      const ch = String.fromCodePoint(text.codePointAt(i)!);
      i += ch.length;
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

  /**
   * Back to the first column of the tail's first row, its rows erased one by one from the bottom up
   * (not "erase below": at the top of a screen that is a clear screen, which tmux copies into the
   * scrollback).
   */
  erase(): string {
    if (!this.drawn) return '';
    const up = this.screenRows() - 1;
    this.ended = [];
    this.col = 0;
    this.drawn = false;
    this.full = false;
    return this.o.mark(`\r\x1b[2K${'\x1b[1A\x1b[2K'.repeat(up)}`);
  }
}

export class MarkdownStream {
  private split = new BlockSplitter();
  private readonly tail: Tail;
  private partial = '';
  /** complete blocks the painter cannot draw yet, in order, and the lines shown for them since the first */
  private waiting: Block[] = [];
  private undrawn: string[] = [];
  /** characters held undrawn (about: counted as they come, recounted when blocks are drawn) */
  private held = 0;
  /** past HELD_CHARS: text is written as it comes; the last character written (to end its line) */
  private raw: { last: string } | undefined;

  constructor(
    layout: TailLayout,
    private painter?: BlockPainter,
  ) {
    this.tail = new Tail(layout);
  }

  /** The block the painter waits on (a fence, for the highlighter), when it is there but cannot draw it. */
  get stalled(): Block | undefined {
    return this.painter && !this.raw ? this.waiting.find((b) => !this.drawable(b)) : undefined;
  }

  private get blocked(): boolean {
    return !this.painter || this.waiting.length > 0;
  }

  private drawable(block: Block): boolean {
    return this.painter !== undefined && (this.painter.canRender?.(block) ?? true);
  }

  /**
   * The painter has loaded, or what it lacked has: the blocks that waited are drawn if it can draw
   * them all (after the tool line, if one holds the screen: the next piece does it then).
   */
  ready(painter: BlockPainter): string {
    this.painter = painter;
    if (this.raw) return '';
    if (this.waiting.length === 0) this.undrawn = [];
    if (this.tail.hidden || !this.unblock()) return '';
    const rest = this.pendingText();
    this.held = rest.length;
    return this.tail.erase() + this.draw(this.waiting.splice(0)) + this.tail.show(rest);
  }

  /** Whether every waiting block can now be drawn (then the next drawing takes them all). */
  private unblock(): boolean {
    if (this.waiting.length === 0 || !this.waiting.every((b) => this.drawable(b))) return false;
    this.undrawn = [];
    return true;
  }

  /** A piece of the reply (made terminal-safe already): what to write for it. */
  push(text: string): string {
    if (this.raw) return this.rawText(text);
    const reveal = this.tail.hidden;
    this.tail.hidden = false;
    const done: Block[] = this.unblock() ? this.waiting.splice(0) : [];
    let from = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
      const line = this.partial + text.slice(from, nl);
      this.partial = '';
      from = nl + 1;
      for (const b of this.split.line(line)) {
        if (!this.blocked && this.drawable(b)) done.push(b);
        else this.waiting.push(b);
      }
      // a line's own text belongs to the last block it completes: from the first waiting one on, shown plain
      if (this.blocked) this.undrawn.push(`${line}\n`);
    }
    this.partial += text.slice(from);
    const rest = () => (this.blocked ? this.undrawn.join('') + this.partial : this.pendingText());
    let out: string;
    if (done.length === 0) {
      this.held += text.length;
      out = this.tail.show(reveal ? rest() : text);
    } else {
      const shown = rest();
      this.held = shown.length;
      out = this.tail.erase() + this.draw(done) + this.tail.show(shown);
    }
    return this.held > HELD_CHARS ? out + this.unrendered(rest()) : out;
  }

  /** Too much held: the tail erased, `held` (the text not drawn) written as it came, and from now on every piece. */
  private unrendered(held: string): string {
    this.raw = { last: '\n' };
    this.split = new BlockSplitter();
    this.waiting = [];
    this.undrawn = [];
    this.partial = '';
    this.held = 0;
    return this.tail.erase() + this.rawText(held);
  }

  private rawText(text: string): string {
    if (text !== '') this.raw!.last = text[text.length - 1]!;
    return text;
  }

  /** Written unrendered: a line left open is ended (before a tool line, at the end of the reply). */
  private endRawLine(): string {
    const open = this.raw!.last !== '\n';
    this.raw!.last = '\n';
    return open ? '\n' : '';
  }

  /** Whether plain text of the tail is on the screen (a redraw erases its rows, a ^C echoed on them with them). */
  get tailShown(): boolean {
    return this.tail.shown;
  }

  /**
   * Takes the tail off the screen (something else is about to write there: a tool line); the next piece brings it back.
   */
  hide(): string {
    if (this.raw) return this.endRawLine();
    this.tail.hidden = true;
    return this.tail.erase();
  }

  /**
   * The text is over: its last blocks complete (to wait like the
   * others if the painter cannot draw them yet: see `stalled`).
   */
  finish(): void {
    if (this.raw) return;
    const last = this.partial === '' ? [] : this.split.line(this.partial);
    if (this.partial !== '') this.undrawn.push(this.partial);
    this.partial = '';
    for (const b of [...last, ...this.split.end()]) this.waiting.push(b);
  }

  /**
   * The end of the reply (finish() called, the painter able to draw
   * everything): all drawn, the cursor at the start of a line.
   */
  end(): string {
    if (this.raw) return this.endRawLine();
    this.finish();
    return this.tail.erase() + this.draw(this.waiting.splice(0));
  }

  private pendingText(): string {
    return (
      this.split
        .pending()
        .map((l) => `${l}\n`)
        .join('') + this.partial
    );
  }

  private draw(blocks: Block[]): string {
    if (!this.painter) throw new Error('the Markdown painter is not loaded');
    let out = '';
    for (const b of blocks) for (const line of this.painter.render(b)) out += `${line}\n`;
    return out;
  }
}
