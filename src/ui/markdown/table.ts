// A GFM table laid out for the terminal: columns as wide as their widest cell, or, when the table is
// wider than the terminal, the widest columns narrowed and their cells wrapped on words; aligned as
// the delimiter row says. A table too wide for even that (too many columns) is shown as records,
// one "Header: value" line per cell. Every step is linear in the table's text.
import { delimiterRow, tableCells, type Align } from './lines.js';
import { append, lineWidth, withSgr, type Line, type Span } from './spans.js';
import { SGR } from './theme.js';
import { wrap } from './wrap.js';

const SEPARATOR = ' │ ';
const SEPARATOR_WIDTH = 3;
/** [ours] a column narrower than this wraps too much to read: the table is shown as records instead */
const MIN_COLUMN = 4;
const MAX_COLUMNS = 40;

/** Column widths that fit `room`: narrow columns keep their width, the rest share what is left. */
export function fitColumns(natural: readonly number[], room: number): number[] {
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= room) return [...natural];
  const order = natural.map((w, i) => i).sort((a, b) => natural[a]! - natural[b]!);
  const out = [...natural];
  let left = room;
  order.forEach((col, k) => {
    const share = Math.floor(left / (order.length - k));
    out[col] = Math.min(natural[col]!, share);
    left -= out[col]!;
  });
  return out;
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
  const rows = [header, ...lines.slice(2).map((l) => tableCells(l))].map((cells) => Array.from({ length: cols }, (_, i) => inline(cells[i] ?? '')));
  rows[0] = rows[0]!.map((cell) => withSgr(cell, SGR.tableHeader));
  const room = width - SEPARATOR_WIDTH * (cols - 1);
  if (room < cols * MIN_COLUMN) return records(rows, width);
  const natural = Array.from({ length: cols }, (_, i) => rows.reduce((w, r) => Math.max(w, widest(r[i]!)), 1));
  const widths = fitColumns(natural, room);
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
const widest = (cell: Span[]): number => wrap(cell, Number.MAX_SAFE_INTEGER).reduce((w, l) => Math.max(w, lineWidth(l)), 0);

/** The trailing spaces of a row's last cell are not drawn. */
function trimEnd(line: Line): Line {
  const last = line[line.length - 1];
  if (last && !last.sgr && !last.href) {
    const text = last.text.trimEnd();
    if (text === '') line.pop();
    else last.text = text;
  }
  return line;
}

/** Each row as "Header: value" lines, rows apart by a blank line. */
function records(rows: Span[][][], width: number): Line[] {
  const [header, ...body] = rows;
  const out: Line[] = [];
  if (body.length === 0) return wrap(header!.flatMap((cell, i) => (i > 0 ? [{ text: ' │ ', sgr: SGR.frame }, ...cell] : cell)), width);
  body.forEach((row, r) => {
    if (r > 0) out.push([]);
    row.forEach((cell, i) => {
      for (const line of wrap([...header![i]!, { text: ': ' }, ...cell], width)) out.push(line);
    });
  });
  return out;
}
