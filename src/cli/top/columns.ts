// The fleet table's columns: what each shows of an agent, and which are left out first when the
// terminal is narrow. A money figure is never cut (a cut number is a wrong number): its column goes.
import type { ChalkInstance } from 'chalk';
import { cellSafe } from '../../ui/format.js';
import { usd } from '../commands/shared/money-view.js';
import type { AgentFigures } from './feed.js';
import type { Figure } from './figure.js';

export interface Cell {
  text: string;
  /** a stale figure's cell is dimmed and marked */
  stale: boolean;
}

export interface Column {
  key: 'name' | 'status' | 'health' | 'value' | 'pnl' | 'open' | 'model';
  head: string;
  /** numbers line up on the right */
  right?: boolean;
  /** may be cut with `…` (names and models, never figures) */
  clip?: boolean;
  cell(a: AgentFigures, c: ChalkInstance): Cell;
}

/** A figure's cell: its value, `*` when stale (the reason is said below the table), `stale` with none, `…` unread. */
function figureCell<T>(f: Figure<T>, show: (v: T) => string): Cell {
  if (f.value === null) return { text: f.stale === null ? '…' : 'stale', stale: f.stale !== null };
  return f.stale === null ? { text: show(f.value), stale: false } : { text: `${show(f.value)}*`, stale: true };
}

export const signedUsd = (v: number) => (v > 0 ? `+${usd(v)}` : usd(v));

export const COLUMNS: readonly Column[] = [
  { key: 'name', head: 'NAME', clip: true, cell: (a) => ({ text: cellSafe(a.name), stale: false }) },
  { key: 'status', head: 'STATUS', cell: (a) => ({ text: cellSafe(a.status ?? '?'), stale: false }) },
  { key: 'health', head: 'HEALTH', cell: (a) => figureCell(a.healthy, (h) => (h ? 'ok' : 'unhealthy')) },
  {
    key: 'value',
    head: 'VALUE',
    right: true,
    cell: (a) => {
      const cell = figureCell(a.value, usd);
      // a partial total is a number with sources left out: marked as a stale one is
      return a.partial.length > 0 && !cell.stale ? { text: `${cell.text}*`, stale: true } : cell;
    },
  },
  { key: 'pnl', head: 'PNL 24H', right: true, cell: (a) => figureCell(a.pnl24h, signedUsd) },
  { key: 'open', head: 'OPEN', right: true, cell: (a) => figureCell(a.open, String) },
  { key: 'model', head: 'MODEL', clip: true, cell: (a) => ({ text: cellSafe(a.model ?? ''), stale: false }) },
];

/** Left out first to last on a narrow terminal; the name and the value stay longest. */
export const DROP_ORDER: readonly Column['key'][] = ['model', 'open', 'health', 'pnl', 'status', 'value'];

/** A status word in its colour (as `list` shows it). */
export function statusColour(text: string, c: ChalkInstance): string {
  if (text === 'running') return c.green(text);
  if (text === 'paused') return c.yellow(text);
  if (text === 'destroyed') return c.red(text);
  return text;
}
