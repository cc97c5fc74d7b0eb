// How records look: tables and key/value blocks for people (colour on a TTY), plain tab-separated
// rows for pipes, relative times on a TTY and ISO times elsewhere.
import { createRequire } from 'node:module';
import type { Printer } from './printer.js';
import { terminalSafe, unmark } from './terminal-safe.js';

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

/** Rows for people (a boxed-free table on a TTY) or for pipes (tab-separated, no header). */
export function printTable(printer: Printer, head: string[], rows: string[][]): void {
  if (!printer.stdoutIsTTY) {
    for (const row of rows) printer.data(row.join('\t'));
    return;
  }
  const Table = require('cli-table3') as typeof import('cli-table3');
  // each cell made safe first (text from the service), with our colours as real escapes, so the
  // table measures its columns right; the laid-out table is then written as it is
  const safe = (cell: string) => unmark(terminalSafe(cell));
  const table = new Table({
    head: head.map((h) => safe(printer.out.bold(h))),
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 2 },
    chars: {
      top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
      left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '',
    },
  });
  table.push(...rows.map((row) => row.map(safe)));
  printer.writeSafe(table.toString().split('\n').map((l) => l.trimEnd()).join('\n') + '\n');
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

/** Aligned `label  value` lines on a TTY; `label<TAB>value` for pipes. */
export function printFields(printer: Printer, fields: Array<[string, string | undefined | null]>): void {
  const shown = fields.filter(([, v]) => v !== undefined && v !== null) as Array<[string, string]>;
  if (!printer.stdoutIsTTY) {
    for (const [k, v] of shown) printer.data(`${k.toLowerCase().replace(/\s+/g, '_')}\t${v}`);
    return;
  }
  const width = Math.max(...shown.map(([k]) => k.length)) + 1;
  for (const [k, v] of shown) printer.data(`${printer.out.dim((k + ':').padEnd(width))}  ${v}`);
}

/** White space folded to single spaces (a value shown on one line). */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** At most `max` characters (not UTF-16 units), ending in `…` when cut. */
export function clipText(text: string, max: number): string {
  if (max <= 0) return '';
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
