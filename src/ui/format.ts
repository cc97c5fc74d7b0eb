// How records look: tables and key/value blocks for people (colour on a TTY), plain tab-separated
// rows for pipes, relative times on a TTY and ISO times elsewhere.
import { createRequire } from 'node:module';
import type { Printer } from './printer.js';
import { BIDI, caret, terminalSafe, unmark } from './terminal-safe.js';
import { codePointWidth, textWidth } from './width.js';

const require = createRequire(import.meta.url);

export function relativeTime(iso: string | undefined, now = Date.now()): string {
  if (!iso) return '';
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  const secs = Math.round((now - then) / 1000);
  const abs = Math.abs(secs);
  const units: Array<[number, string]> = [
    [60, 'second'],
    [60, 'minute'],
    [24, 'hour'],
    [30, 'day'],
    [12, 'month'],
    [Infinity, 'year'],
  ];
  let value = abs;
  for (const [size, unit] of units) {
    if (value < size) {
      if (unit === 'second' && value < 10) return secs >= 0 ? 'just now' : 'in a moment';
      const n = Math.floor(value);
      const word = `${n} ${unit}${n === 1 ? '' : 's'}`;
      return secs >= 0 ? `${word} ago` : `in ${word}`;
    }
    value /= size;
  }
  return iso;
}

/** A time for this output: relative on a terminal, ISO for scripts. */
export function timeFor(printer: Printer, iso: string | undefined): string {
  return printer.stdoutIsTTY ? relativeTime(iso) : (iso ?? '');
}

export function statusWord(printer: Printer, status: string): string {
  const c = printer.out;
  if (status === 'running') return c.green(status);
  if (status === 'paused') return c.yellow(status);
  if (status === 'destroyed') return c.red(status);
  return status;
}

export function yesNo(printer: Printer, value: boolean, yes = 'yes', no = 'no'): string {
  return value ? printer.out.green(yes) : printer.out.red(no);
}

const SGR = /\u001b\[[0-9;]*m/g;

/**
 * No terminal is wider (usableColumns stops at 2000): text is measured and laid out no further
 * than this, so a value of any size from the service costs a bounded prefix, never the whole.
 */
export const WIDEST = 4096;

/** At most the first `max` UTF-16 units of `text`, never half a surrogate pair. */
export function prefixOf(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/** Columns a text takes on a terminal (our colours, as escapes or markers, take none), at most WIDEST. */
export function visibleWidth(text: string): number {
  // colours make a prefix longer than what it shows: room for them, still bounded
  return textWidth(unmark(prefixOf(text, 4 * WIDEST)).replace(SGR, ''), WIDEST);
}

export const MIN_SHRUNK = 8;

/**
 * Widths that fit `room`: the widest column that may shrink gives up columns first, never below a
 * few characters; columns in `fixed` (ids, statuses) keep their width.
 */
export function fitWidths(
  widths: number[],
  room: number,
  fixed: readonly number[] = [],
  last: readonly number[] = [],
): number[] {
  const out = [...widths];
  let over = out.reduce((a, w) => a + w, 0) - room;
  // the `last` columns shrink only once the others are as narrow as they go
  for (const spared of [[...fixed, ...last], fixed]) {
    while (over > 0) {
      let widest = -1;
      for (let i = 0; i < out.length; i++)
        if (!spared.includes(i) && out[i]! > MIN_SHRUNK && (widest < 0 || out[i]! > out[widest]!)) widest = i;
      if (widest < 0) break;
      const second = Math.max(MIN_SHRUNK, ...out.filter((w, i) => i !== widest && !spared.includes(i)));
      const cut = Math.min(over, out[widest]! - second || 1, out[widest]! - MIN_SHRUNK);
      out[widest]! -= cut;
      over -= cut;
    }
  }
  return out;
}

export interface TableOptions {
  /** columns never cut (ids, statuses, times): the others shrink, with `…`, to fit the terminal */
  fixed?: readonly number[];
  /** columns cut only after every other one is as narrow as it goes (a model id: its end is its version) */
  last?: readonly number[];
  /** columns never cut, not even as a last resort (amounts: a cut number is a wrong number) */
  whole?: readonly number[];
  /** columns left out, in this order (least useful first), while the row cannot fit the terminal otherwise */
  drop?: readonly number[];
}

/** Where the columns in `list` are among those `shown` (a column left out is in no list). */
function positions(shown: readonly number[], list: readonly number[] = []): number[] {
  return list.flatMap((c) => (shown.includes(c) ? [shown.indexOf(c)] : []));
}

/** Widths of the `shown` columns that fit `room`; `keepFixed` false: the fixed ones may be cut too, not the whole. */
function fitShown(natural: number[], shown: number[], room: number, options: TableOptions, keepFixed = true): number[] {
  const whole = options.whole ?? [];
  const fixed = positions(shown, keepFixed ? [...(options.fixed ?? []), ...whole] : whole);
  return fitWidths(
    shown.map((c) => natural[c]!),
    room,
    fixed,
    positions(shown, options.last),
  );
}

const sum = (widths: number[]) => widths.reduce((a, w) => a + w, 0);

/** The columns shown: those in `drop` left out in order until the fitted row is no wider than `room`. */
function shownColumns(natural: number[], room: number, options: TableOptions): number[] {
  let shown = natural.map((_, i) => i);
  for (const column of options.drop ?? []) {
    if (sum(fitShown(natural, shown, room, options)) <= room) break;
    shown = shown.filter((c) => c !== column);
  }
  return shown;
}

/**
 * Text from the service made one cell of one line for a terminal: safe (terminalSafe), with a tab or
 * a line break shown too (^I, ^J), so it cannot start a line or a column of its own.
 */
export function cellSafe(text: string): string {
  return terminalSafe(text).replace(/[\t\n]/g, (c) => caret(c.charCodeAt(0)));
}

const TSV_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
// a backslash (the escape's own), every C0, DEL and C1 control, the line separators some readers split
// lines at (U+2028, U+2029) and the direction changes
const TSV_SPECIAL = new RegExp(`[\\\\\u0000-\u001f\u007f-\u009f\u2028\u2029${BIDI}]`, 'g');

/**
 * One value of a piped tab-separated row: a tab, a line break, a CR or a backslash escaped as `\t`,
 * `\n`, `\r`, `\\`; any other control character as `\xHH` (`\uHHHH` above U+00FF). A value from the
 * service can then never add a column or a row.
 */
export function tsvSafe(value: string): string {
  return value.replace(TSV_SPECIAL, (c) => {
    const code = c.charCodeAt(0);
    const hex = (digits: number) => code.toString(16).padStart(digits, '0');
    return TSV_ESCAPES[c] ?? (code <= 0xff ? `\\x${hex(2)}` : `\\u${hex(4)}`);
  });
}

/** A piped row: its values made safe (tsvSafe) and joined with tabs. Every tab-separated row is written so. */
export function tsvRow(values: readonly string[]): string {
  return values.map(tsvSafe).join('\t');
}

/** Rows for people (a table that fits the terminal) or for pipes (tsvRow: no header, whole values, escaped). */
export function printTable(printer: Printer, head: string[], rows: string[][], options: TableOptions = {}): void {
  if (!printer.stdoutIsTTY) {
    for (const row of rows) printer.data(tsvRow(row));
    return;
  }
  const Table = require('cli-table3') as typeof import('cli-table3');
  // each cell made safe first (text from the service), with our colours as real escapes, so the
  // table measures its columns right; the laid-out table is then written as it is
  const safe = (cell: string) => unmark(cellSafe(prefixOf(cell, WIDEST)));
  const heads = head.map((h) => safe(printer.out.bold(h)));
  const cells = rows.map((row) => row.map(safe));
  const PAD = 2;
  const natural = heads.map((h, i) => Math.max(visibleWidth(h), ...cells.map((r) => visibleWidth(r[i] ?? ''))) + PAD);
  // the last column's padding is trimmed from each line: it takes no room
  const room = printer.columns - 1 + PAD;
  // a narrow terminal: the least useful columns are left out rather than the lines wrapped
  const shown = shownColumns(natural, room, options);
  let colWidths = fitShown(natural, shown, room, options);
  // still too wide with nothing more to leave out: the fixed columns are cut too, rather than wrapped
  if (sum(colWidths) > room) colWidths = fitShown(natural, shown, room, options, false);
  const table = new Table({
    head: shown.map((c) => heads[c]!),
    colWidths,
    truncate: '…',
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': PAD },
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: '',
    },
  });
  table.push(...cells.map((row) => shown.map((c) => row[c] ?? '')));
  printer.writeSafe(
    table
      .toString()
      .split('\n')
      .map((l) => l.trimEnd())
      .join('\n') + '\n',
  );
  const left = head.filter((_, c) => !shown.includes(c));
  // a column left out is said, so that nothing shown does not pass for nothing there
  if (left.length) dimNote(printer, `left out for width: ${left.join(', ')}; --json or a wider terminal shows them`);
}

/** A dim note for a terminal, wrapped on words to its width (never wider, never cut). */
export function dimNote(printer: Printer, text: string): void {
  for (const line of wrapWords(text, Math.max(1, printer.columns - 1))) printer.data(printer.out.dim(line));
}

/** A field the service did not send: `–` for people, an empty value for scripts (never "none"). */
export function unknown(printer: Printer): string {
  return printer.stdoutIsTTY ? printer.out.dim('–') : '';
}

/** A value the service may have left out (undefined or null): itself, or shown as unknown. */
export function orUnknown(printer: Printer, value: string | null | undefined): string {
  return value === undefined || value === null ? unknown(printer) : value;
}

/** A bot as the service reported it: `@name`, none (null: no bot), or unknown (not sent). */
export function botField(printer: Printer, username: string | null | undefined): string {
  if (username === undefined) return unknown(printer);
  return username === null || username === '' ? 'none' : `@${username}`;
}

/** Words of `text` in lines of at most `width` columns (a word longer than that gets a line of its own). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    let used = 0;
    // one word at a time (no array of them all), each counted no further than the width
    for (const [word] of paragraph.matchAll(/\S+/g)) {
      const size = textWidth(prefixOf(word, 2 * width + 2), width + 1);
      if (line && used + 1 + size > width) {
        lines.push(line);
        line = word;
        used = size;
      } else {
        line = line ? `${line} ${word}` : word;
        used += (used ? 1 : 0) + size;
      }
    }
    lines.push(line);
  }
  return lines;
}

/** Aligned `label  value` lines on a TTY, a long value wrapped on words under itself; `label<TAB>value` for pipes. */
export function printFields(printer: Printer, fields: Array<[string, string | undefined | null]>): void {
  const shown = fields.filter(([, v]) => v !== undefined && v !== null) as Array<[string, string]>;
  if (!printer.stdoutIsTTY) {
    for (const [k, v] of shown) printer.data(tsvRow([k.toLowerCase().replace(/\s+/g, '_'), v]));
    return;
  }
  const width = Math.max(...shown.map(([k]) => k.length)) + 1;
  const room = printer.columns - width - 2 - 1;
  for (const [k, v] of shown) {
    // plain text (a description) is wrapped with a hanging indent; styled values are short already
    const lines = !v.includes('\uE000') && visibleWidth(v) > room && room >= 20 ? wrapWords(v, room) : [v];
    printer.data(`${printer.out.dim((k + ':').padEnd(width))}  ${lines.join(`\n${' '.repeat(width + 2)}`)}`);
  }
}

/** White space folded to single spaces (a value shown on one line). */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** At most `max` columns of `text` (a character is never cut in two), ending in `…` when cut. */
export function clipText(text: string, max: number): string {
  if (max <= 0) return '';
  // `max` columns take at most twice as many UTF-16 units, bar zero-width ones: only that much is looked at
  const head = prefixOf(text, 2 * max + 2);
  if (head === text && textWidth(text) <= max) return text;
  let out = '';
  let used = 0;
  for (const ch of head) {
    used += codePointWidth(ch);
    if (used > max - 1) break;
    out += ch;
  }
  return `${out}…`;
}
