// A GFM table laid out for the terminal: columns as wide as their widest cell, or, when the table is
// wider than the terminal, the widest columns narrowed and their cells wrapped on words; aligned as
// the delimiter row says. A table too wide for even that (too many columns) is shown as records,
// one "Header: value" line per cell. Every step is linear in the table's text.
import { delimiterRow, tableCells, type Align } from './lines.js';
import { textWidth } from '../width.js';
import { append, lineWidth, withSgr, type Line, type Span } from './spans.js';
import { SGR } from './theme.js';
import { wrap } from './wrap.js';

const SEPARATOR = ' │ ';
const SEPARATOR_WIDTH = 3;
/** [ours] a column narrower than this wraps too much to read: the table is shown as records instead */
const MIN_COLUMN = 4;
const MAX_COLUMNS = 40;

/**
 * Column widths that fit `room`. Each column has a floor (its longest word: a figure is never cut) and
 * a want (its widest line); past the floors, what is left goes to the columns in the order of their
 * wants, each taking at most an equal share of what remains. `undefined`: not even the floors fit.
 */
export function fitColumns(floor: readonly number[], want: readonly number[], room: number): number[] | undefined {
  let left = room - floor.reduce((a, b) => a + b, 0);
  if (left < 0) return undefined;
  const out = [...floor];
  const order = want.map((_, i) => i).sort((a, b) => want[a]! - floor[a]! - (want[b]! - floor[b]!));
  order.forEach((col, k) => {
    const add = Math.min(want[col]! - floor[col]!, Math.floor(left / (order.length - k)));
    out[col]! += add;
    left -= add;
  });
  return out;
}

/**
 * Widths for the columns: as wide as their cells where that fits;
 * else the header wraps before a figure does; else words wrap.
 */
function columnWidths(rows: Span[][][], room: number): number[] | undefined {
  const cols = rows[0]!.length;
  const widest = Array.from({ length: cols }, (_, i) => rows.reduce((w, r) => Math.max(w, cellWidth(r[i]!)), 1));
  if (widest.reduce((a, b) => a + b, 0) <= room) return widest;
  const words = Array.from({ length: cols }, (_, i) => rows.reduce((w, r) => Math.max(w, longestWord(r[i]!)), 1));
  // the data as wide as it is, the header cut at its spaces
  const data = Array.from({ length: cols }, (_, i) =>
    Math.max(
      longestWord(rows[0]![i]!),
      rows.slice(1).reduce((w, r) => Math.max(w, cellWidth(r[i]!)), 1),
    ),
  );
  return fitColumns(data, widest, room) ?? fitColumns(words, data, room);
}

function pad(line: Line, width: number, align: Align): Line {
  const gap = width - lineWidth(line);
  if (gap <= 0) return line;
  const left = align === 'right' ? gap : align === 'center' ? gap >> 1 : 0;
  const out: Line = [];
  append(out, { text: ' '.repeat(left) });
  for (const s of line) append(out, s);
  append(out, { text: ' '.repeat(gap - left) });
  return out;
}

export function renderTable(lines: readonly string[], width: number, inline: (text: string) => Span[]): Line[] {
  const header = tableCells(lines[0]!);
  const aligns = delimiterRow(lines[1]!) ?? [];
  const cols = header.length;
  // a table of hundreds of columns is no table to read: its rows as they are, wrapped
  if (cols > MAX_COLUMNS) return lines.flatMap((l) => wrap([{ text: l }], width));
  // GFM: a row has the header's number of cells, cut or filled up
  const rows = [header, ...lines.slice(2).map((l) => tableCells(l))].map((cells) =>
    Array.from({ length: cols }, (_, i) => inline(cells[i] ?? '')),
  );
  rows[0] = rows[0]!.map((cell) => withSgr(cell, SGR.tableHeader));
  const room = width - SEPARATOR_WIDTH * (cols - 1);
  const widths = room < cols * MIN_COLUMN ? undefined : columnWidths(rows, room);
  if (!widths) return records(rows, width);
  const out: Line[] = [];
  rows.forEach((row, r) => {
    const cells = row.map((cell, i) => wrap(cell, widths[i]!));
    const height = Math.max(...cells.map((c) => c.length));
    for (let k = 0; k < height; k++) {
      const line: Line = [];
      cells.forEach((cell, i) => {
        if (i > 0) append(line, { text: SEPARATOR, sgr: SGR.frame });
        for (const s of pad(cell[k] ?? [], widths[i]!, aligns[i])) append(line, s);
      });
      out.push(trimEnd(line));
    }
    if (r === 0) out.push([{ text: widths.map((w) => '─'.repeat(w)).join('─┼─'), sgr: SGR.frame }]);
  });
  return out;
}

/** A cell's width on one line (its hard breaks kept). */
const cellWidth = (cell: Span[]): number =>
  wrap(cell, Number.MAX_SAFE_INTEGER).reduce((w, l) => Math.max(w, lineWidth(l)), 0);

/** The widest word of a cell: narrower than that, the cell's words are cut. */
const longestWord = (cell: Span[]): number =>
  cell.reduce((w, s) => s.text.split(/[ \t\n]+/).reduce((m, word) => Math.max(m, textWidth(word)), w), 0);

/** A row ends with its last character: trailing spaces (an empty last cell's, a separator's) are not drawn. */
function trimEnd(line: Line): Line {
  for (let last = line[line.length - 1]; last; last = line[line.length - 1]) {
    const text = last.text.trimEnd();
    if (text !== '') {
      last.text = text;
      break;
    }
    line.pop();
  }
  return line;
}

/** Each row as "Header: value" lines, rows apart by a blank line. */
function records(rows: Span[][][], width: number): Line[] {
  const [header, ...body] = rows;
  const out: Line[] = [];
  if (body.length === 0)
    return wrap(
      header!.flatMap((cell, i) => (i > 0 ? [{ text: ' │ ', sgr: SGR.frame }, ...cell] : cell)),
      width,
    );
  body.forEach((row, r) => {
    if (r > 0) out.push([]);
    row.forEach((cell, i) => {
      for (const line of wrap([...header![i]!, { text: ': ' }, ...cell], width)) out.push(line);
    });
  });
  return out;
}
