// Styled text as the renderer lays it out: runs of text, each with its SGR parameters and, inside a
// link, its target. Widths are measured on the text alone; escapes are added only when a finished
// line is painted, and then only as markers (terminal-safe.ts `ours`, passed in as `mark`), with the
// text made safe once more: whatever markdown-it decoded (`&#13;` is a CR) never reaches a terminal.
import { terminalSafe } from '../terminal-safe.js';
import { textWidth } from '../width.js';

export interface Span {
  text: string;
  /** SGR parameters (`1;35`), none for plain text */
  sgr?: string;
  /** the link this text belongs to (a terminal hyperlink where supported) */
  href?: string;
}

export type Line = Span[];

export interface Paint {
  /** colours and emphasis (off with NO_COLOR, --no-color, a pipe) */
  colour: boolean;
  /** OSC 8 hyperlinks; `text (url)` otherwise */
  hyperlinks: boolean;
  /** our own control sequences as markers, so that only they may become controls (terminal-safe.ts `ours`) */
  mark: (sequence: string) => string;
}

export const lineWidth = (line: Line): number => line.reduce((w, s) => w + textWidth(s.text), 0);

/** Adds SGR parameters to spans (a heading's colour around its inline styles). */
export function withSgr(spans: Span[], sgr: string): Span[] {
  return spans.map((s) => ({ ...s, sgr: s.sgr ? `${sgr};${s.sgr}` : sgr }));
}

/** Appends a span, merged into the last one when they look the same. */
export function append(line: Line, span: Span): void {
  if (span.text === '') return;
  const last = line[line.length - 1];
  if (last && last.sgr === span.sgr && last.href === span.href) last.text += span.text;
  else line.push({ ...span });
}

/** An address a hyperlink may carry: web or mail, printable ASCII only (nothing that could end the sequence). */
export function linkable(href: string | undefined): href is string {
  return href !== undefined && href.length <= 2048 && /^(https?:\/\/|mailto:)[\x21-\x7e]+$/i.test(href);
}

/** One line as it goes to the terminal: text made safe, our escapes as markers. */

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

export function paint(line: Line, p: Paint): string {
  let out = '';
  for (const s of line) {
    const text = CONTROL.test(s.text) ? terminalSafe(s.text) : s.text;
    const link = p.hyperlinks && linkable(s.href);
    const sgr = p.colour && s.sgr ? s.sgr : undefined;
    if (link) out += p.mark(`\x1b]8;;${s.href}\x1b\\`);
    if (sgr) out += p.mark(`\x1b[${sgr}m`);
    out += text;
    if (sgr) out += p.mark('\x1b[0m');
    if (link) out += p.mark('\x1b]8;;\x1b\\');
  }
  return out;
}
