// A full-screen frame drawn on the terminal: each line at its row, clipped to the width so that nothing
// wraps and nothing scrolls, only the rows that changed written again, in one write. A line may hold
// text from the service (made safe here, terminal-safe.ts) and the printer's colours (kept).
import { toTerminal } from '../terminal-safe.js';
import { codePointWidth } from '../width.js';

export interface FrameOutput {
  write(chunk: string): unknown;
}

export interface Size {
  columns: number;
  rows: number;
}

const TAB_STOP = 8;
const RESET = '\x1b[0m';
/** one of our own escape sequences (the printer's colours): kept whole, drawn as nothing */
const CSI = /^\x1b\[[0-?]*[ -/]*[@-~]/;

/**
 * `text` as a terminal may draw it in `columns`: made safe, then cut where the next character would
 * not fit (a wide one is never cut in half: the column it would leave is left empty), an escape
 * sequence never cut; a tab as spaces to its stop, a line break as a space. The colours are reset at
 * the end, so that none runs on into the rest of the row.
 */
export function clipLine(text: string, columns: number): { text: string; width: number } {
  const safe = toTerminal(text);
  let out = '';
  let width = 0;
  let styled = false;
  for (let i = 0; i < safe.length;) {
    const ch = String.fromCodePoint(safe.codePointAt(i)!);
    if (ch === '\x1b') {
      const seq = CSI.exec(safe.slice(i, i + 64))?.[0];
      if (seq) {
        out += seq;
        styled = true;
      }
      i += seq ? seq.length : 1; // any other ESC of ours (none is made) is dropped
      continue;
    }
    i += ch.length;
    if (ch === '\t') {
      const spaces = Math.min(TAB_STOP - (width % TAB_STOP), columns - width);
      out += ' '.repeat(spaces);
      width += spaces;
      continue;
    }
    const shown = ch === '\n' ? ' ' : ch;
    // what is left of our own control characters (the CR of a spinner's line) moves the cursor: dropped
    if (shown < ' ' || shown === '\x7f') continue;
    const w = codePointWidth(shown);
    if (width + w > columns) break;
    out += shown;
    width += w;
  }
  return { text: styled ? out + RESET : out, width };
}

/** The cursor to `row` (0-based), column 1. */
const at = (row: number) => `\x1b[${row + 1};1H`;
const ERASE_LINE = '\x1b[K';
const ERASE_BELOW = '\x1b[J';

/** Writes frames to `out`: only what differs from the frame before, nothing when nothing does. */
export class FrameWriter {
  /** the rows as written, for the size they were written at; undefined: the screen is unknown */
  private shown: string[] | undefined;
  private size: Size | undefined;

  constructor(private readonly out: FrameOutput) {}

  /** The next frame is drawn whole (the screen was cleared, or given to something else and back). */
  invalidate(): void {
    this.shown = undefined;
  }

  /**
   * Draws `lines` (one per row, from the top) for a terminal of `size`: the lines past its last row are
   * not drawn, the rows past the last line are erased. True when something was written.
   */
  draw(lines: readonly string[], size: Size): boolean {
    const columns = Math.max(1, Math.floor(size.columns));
    const rows = Math.max(1, Math.floor(size.rows));
    if (this.size?.columns !== columns || this.size.rows !== rows) this.shown = undefined;
    this.size = { columns, rows };
    const before = this.shown;
    const rendered = lines.slice(0, rows).map((line) => {
      const clipped = clipLine(line, columns);
      // a row drawn to its last column is not erased after: the cursor stays on that column, and
      // erasing there would take the last character away
      return clipped.width < columns ? clipped.text + ERASE_LINE : clipped.text;
    });
    let frame = '';
    rendered.forEach((row, i) => {
      if (before?.[i] !== row) frame += at(i) + row;
    });
    if (rendered.length < rows && (before === undefined || before.length > rendered.length)) {
      frame += at(rendered.length) + ERASE_BELOW;
    }
    this.shown = rendered;
    if (frame === '') return false;
    this.out.write(frame);
    return true;
  }
}
