// The selected agent's open positions and orders (Enter on `top`), read from the markets alone: lines
// for the screen, every text from a source made terminal-safe, money never cut.
import type { HoldingsResult } from '../../api/money/holdings.js';
import { cellSafe, clipText } from '../../ui/format.js';
import { usd } from '../commands/shared/money-view.js';
import { signedUsd } from './columns.js';
import { fitParts } from './view.js';

export type PositionsRead =
  { state: 'reading' } | { state: 'read'; money: HoldingsResult } | { state: 'failed'; why: string };

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function positionsLines(name: string, read: PositionsRead, width: number): string[] {
  const head = [`Positions of ${cellSafe(name)}   (Esc or q: back)`, ''];
  if (read.state === 'reading') return [...head, 'reading…'];
  if (read.state === 'failed') return [...head, `not read: ${cellSafe(read.why)}`];
  const m = read.money;
  const out = [...head];
  const failed = (source: string) => m.errors.find((e) => e.source === source);
  const hl = m.hyperliquid;
  if (hl) {
    out.push(`Hyperliquid   account value ${usd(hl.account_value)}`);
    for (const p of hl.positions) {
      const what = `  ${cellSafe(p.coin)} ${p.side} ${cellSafe(p.size)} @ ${cellSafe(p.entry_price)}`;
      out.push(fitParts([what, `value ${usd(p.position_value)}`, `uPnL ${signedUsd(p.unrealized_pnl)}`], width));
    }
    if (hl.positions.length === 0) out.push('  no open position');
    if (hl.open_orders.length > 0) out.push(`  ${plural(hl.open_orders.length, 'open order')}`);
  } else {
    const f = failed('hyperliquid');
    out.push(`Hyperliquid   ${f ? `not read: ${cellSafe(f.message)}` : 'not read'}`);
  }
  out.push('');
  const pm = m.polymarket;
  if (pm) {
    out.push(`Polymarket   positions worth ${usd(pm.value)}`);
    for (const p of pm.positions) {
      out.push(
        fitParts(
          [`  ${cellSafe(p.title)}: ${cellSafe(p.outcome)} ${cellSafe(p.size)}`, `value ${usd(p.value)}`],
          width,
        ),
      );
    }
    if (pm.positions.length === 0) out.push('  no open position');
  } else {
    const f = failed('polymarket');
    out.push(`Polymarket   ${f ? `not read: ${cellSafe(f.message)}` : 'not read'}`);
  }
  // a figure that does not fit is left out, never cut; the rest is clipped
  return out.map((l) => clipText(l, width));
}
