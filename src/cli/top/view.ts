// The fleet view as lines for a terminal of a given width: a header with the totals and when each
// figure was read, a row per agent (the selected one marked), and what is stale and why. Columns are
// left out on a narrow terminal (columns.ts says in what order); every text from the service is made
// terminal-safe, and colours come from the printer's (plain under NO_COLOR).
import type { ChalkInstance } from 'chalk';
import { cellSafe, clipText, visibleWidth } from '../../ui/format.js';
import { unmark } from '../../ui/terminal-safe.js';
import { usd } from '../commands/shared/money-view.js';
import { COLUMNS, DROP_ORDER, signedUsd, statusColour, type Cell, type Column } from './columns.js';
import type { Snapshot } from './feed.js';

export interface ViewInput {
  snapshot: Snapshot;
  width: number;
  /** the lines the view may take: the agents' rows are windowed round the selection to fit */
  height?: number;
  selected: number;
  now: number;
  /** the service requests a minute top may send */
  budget: number;
  colour: ChalkInstance;
}

/** Columns a text takes, the printer's colours (markers until written) taking none. */
const cols = (text: string) => visibleWidth(unmark(text));

const MARK = 2;
const GAP = 2;
/** the name keeps this much before any column is left out (it tells the agents apart) */
const NAME_MIN = 12;
const NAME_LAST = 4;
const WIDEST_TEXT = 24;

/** "now", "12s ago", "3m ago" */
export function ago(at: number | null, now: number): string {
  if (at === null) return 'not read';
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s === 0) return 'now';
  return s < 120 ? `${s}s ago` : `${Math.round(s / 60)}m ago`;
}

/** As many of `parts` as fit in `width`, in order, the first always (clipped if it must be). */
export function fitParts(parts: string[], width: number, sep = '   '): string {
  let line = clipText(parts[0] ?? '', width);
  for (const part of parts.slice(1)) {
    const next = `${line}${sep}${part}`;
    if (cols(next) <= width) line = next;
  }
  return line;
}

/**
 * The parts that fit in `width`, chosen lowest `rank` first and shown in their own order; none is cut
 * (a figure cut is a wrong figure): what does not fit is left out whole.
 */
export function fitRanked(parts: string[], rank: number[], width: number, sep = '   '): string {
  const chosen = new Set<number>();
  const lineOf = (set: Set<number>) => parts.filter((_, i) => set.has(i)).join(sep);
  for (const i of [...parts.keys()].sort((a, b) => rank[a]! - rank[b]!)) {
    if (cols(lineOf(new Set(chosen).add(i))) <= width) chosen.add(i);
  }
  return lineOf(chosen);
}

function headerLines(v: ViewInput): string[] {
  const { snapshot: s, now, colour: c } = v;
  const t = s.totals;
  const mark = t.complete ? '' : '*';
  // a sum of nothing read is no figure (a zero would pass for an empty fleet); of some, say how many
  const total = (n: number, shown: string) =>
    n === 0 ? '—' : `${shown}${mark}${n < t.agents ? ` (${n} of ${t.agents})` : ''}`;
  const title = 'superagent top';
  const totals = [
    title,
    `${t.agents} agent${t.agents === 1 ? '' : 's'}, ${t.running} running`,
    `value ${total(t.read.value, usd(t.value))}`,
    `24h PnL ${total(t.read.pnl24h, signedUsd(t.pnl24h))}`,
    `open ${total(t.read.open, String(t.open))}`,
  ];
  const healthAt = s.agents.map((a) => a.healthy.readAt);
  const checked = healthAt.filter((x): x is number => x !== null);
  const list = s.list.stale
    ? `list stale: ${s.list.stale} (read ${ago(s.list.readAt, now)})`
    : `list ${ago(s.list.readAt, now)}`;
  const health =
    checked.length < healthAt.length
      ? `health ${checked.length} of ${healthAt.length} checked`
      : `health oldest ${ago(Math.min(...checked), now)}`;
  const chains = s.chains.failed
    ? `chains failed: ${s.chains.failed}${s.chains.readAt === null ? '' : ` (read ${ago(s.chains.readAt, now)})`}`
    : s.chains.readAt === null
      ? 'chains never read'
      : `chains ${ago(s.chains.readAt, now)}`;
  const times = [list, health, chains, `budget ${v.budget}/min`];
  // on a narrow terminal the value goes last, the title first; styled once fitted
  const first = fitRanked(totals, [4, 1, 0, 2, 3], v.width);
  const styled = first.startsWith(title) ? c.bold(title) + first.slice(title.length) : first;
  return [styled, c.dim(fitRanked(times, [0, 1, 2, 3], v.width))];
}

/** Which columns fit, and the name's width. */
function layout(columns: readonly Column[], widths: Map<Column['key'], number>, width: number) {
  const shown = [...columns];
  const total = (name: number) =>
    MARK +
    shown.reduce((sum, col) => sum + (col.key === 'name' ? name : widths.get(col.key)!), 0) +
    GAP * (shown.length - 1);
  for (const key of DROP_ORDER) {
    // the name gives up more of itself before the value goes, the last column but it
    const nameMin = Math.min(widths.get('name')!, key === 'value' ? NAME_LAST : NAME_MIN);
    if (total(nameMin) <= width) break;
    shown.splice(
      shown.findIndex((c) => c.key === key),
      1,
    );
  }
  const name = Math.max(1, Math.min(widths.get('name')!, width - total(0)));
  return { shown, name };
}

function pad(text: string, width: number, right = false): string {
  const room = Math.max(0, width - cols(text));
  return right ? ' '.repeat(room) + text : text + ' '.repeat(room);
}

/** a name in a note gives up the rest of itself past this (a long one would hide the others) */
const NOTE_NAME = 16;

/** "* stale (429): alpha, beta, +5 more": as many names as fit in `width`, the others counted. */
export function noteLine(label: string, names: string[], width: number): string {
  const head = `* ${label}: `;
  const line = (n: number) => {
    const more = names.length - n;
    return head + [...names.slice(0, n), ...(more > 0 ? [`+${more} more`] : [])].join(', ');
  };
  let n = names.length;
  while (n > 1 && cols(line(n)) > width) n--;
  return clipText(line(n), width);
}

/** The agents with a stale figure, one line a reason: "* stale (429): alpha, beta, +5 more". */
function staleLines(v: ViewInput): string[] {
  const byReason = new Map<string, string[]>();
  const add = (label: string, name: string) => {
    const names = byReason.get(label) ?? [];
    if (!names.includes(name)) byReason.set(label, [...names, name]);
  };
  for (const a of v.snapshot.agents) {
    const name = clipText(cellSafe(a.name), NOTE_NAME);
    for (const f of [a.healthy, a.value, a.pnl24h, a.open]) if (f.stale) add(`stale (${f.stale})`, name);
    if (a.partial.length > 0 && !a.value.stale) add(`partial (${a.partial.join(', ')} not read)`, name);
  }
  return [...byReason].map(([label, names]) => v.colour.dim(noteLine(label, names, v.width)));
}

/** The view's lines, each at most `width` columns. */
export function fleetLines(v: ViewInput): string[] {
  const { snapshot: s, colour: c } = v;
  const cells = s.agents.map((a) => COLUMNS.map((col) => col.cell(a, c)));
  const widths = new Map<Column['key'], number>();
  COLUMNS.forEach((col, i) => {
    const widest = Math.max(cols(col.head), ...cells.map((row) => cols(row[i]!.text)));
    widths.set(col.key, col.clip ? Math.min(widest, WIDEST_TEXT) : widest);
  });
  const { shown, name } = layout(COLUMNS, widths, v.width);
  widths.set('name', name);
  const render = (texts: Array<Cell & { col: Column }>) =>
    texts
      .map(({ col, text, stale }) => {
        const w = widths.get(col.key)!;
        const fitted = pad(col.clip ? clipText(text, w) : text, w, col.right);
        if (stale) return c.dim(fitted);
        return col.key === 'status' ? statusColour(text, c) + fitted.slice(text.length) : fitted;
      })
      .join(' '.repeat(GAP));
  const heads = ' '.repeat(MARK) + render(shown.map((col) => ({ col, text: col.head, stale: false })));
  const rows = s.agents.map((_, k) => {
    const row = render(shown.map((col) => ({ col, ...cells[k]![COLUMNS.indexOf(col)]! })));
    return k === v.selected ? c.inverse(`› ${row}`) : `  ${row}`;
  });
  const notes = staleLines(v);
  const header = headerLines(v);
  const empty =
    s.agents.length === 0 ? [c.dim(s.list.readAt === null ? '  reading the fleet…' : '  no agents yet')] : [];
  const top = [...header, '', c.dim(clipText(heads, v.width))];
  const tail = [...empty, ...notes];
  if (v.height === undefined || top.length + rows.length + tail.length <= v.height) return [...top, ...rows, ...tail];
  // a short terminal: the notes go first, then the blank line, the column heads and the read times, so
  // that the selected agent stays in sight
  const want = Math.min(rows.length, 1);
  while (tail.length > 0 && top.length + want + tail.length > v.height) tail.pop();
  for (const drop of [2, 2, 1]) if (top.length + want > v.height && top.length > drop) top.splice(drop, 1);
  return [...top, ...windowed(rows, v.selected, Math.max(1, v.height - top.length - tail.length)), ...tail];
}

/** The rows that fit, the selected one among them. */
function windowed(rows: string[], selected: number, room: number): string[] {
  if (rows.length <= room) return rows;
  const start = Math.min(Math.max(0, selected - room + 1), rows.length - room);
  return rows.slice(start, start + room);
}
