// The selected agent's open positions and orders (Enter on `top`), read from the markets alone and again
// every interval: lines for the screen, every text from a source made terminal-safe, money never cut. A
// market not read again keeps what it showed, marked '*' with the reason and when it was read.
import type { HoldingsResult } from '../../api/money/holdings.js';
import { cellSafe, clipText } from '../../ui/format.js';
import { usd } from '../commands/shared/money-view.js';
import { signedUsd } from './columns.js';
import { ago, fitParts } from './view.js';

type Market = 'hyperliquid' | 'polymarket';
const MARKETS: readonly Market[] = ['hyperliquid', 'polymarket'];

export type PositionsRead =
  | { state: 'reading' }
  | {
      state: 'read';
      money: HoldingsResult;
      /** when this read was made */
      readAt: number;
      /** a market this read missed, whose figures are kept from an earlier one: when that was */
      kept: Partial<Record<Market, number>>;
    }
  | { state: 'failed'; why: string };

/** A new read over the last one: a market it missed keeps the last figures, marked stale. */
export function reread(last: PositionsRead, money: HoldingsResult, now: number): PositionsRead {
  const next = {
    state: 'read' as const,
    money: { ...money },
    readAt: now,
    kept: {} as Partial<Record<Market, number>>,
  };
  if (last.state !== 'read') return next;
  for (const m of MARKETS) {
    if (money[m] || !last.money[m]) continue;
    Object.assign(next.money, { [m]: last.money[m] });
    next.kept[m] = last.kept[m] ?? last.readAt;
  }
  return next;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function positionsLines(name: string, read: PositionsRead, width: number, now: number): string[] {
  const title = `Positions of ${cellSafe(name)}`;
  if (read.state === 'reading') return [title, '', 'reading…'];
  if (read.state === 'failed') return [title, '', `not read: ${cellSafe(read.why)}`];
  const out = [fitParts([title, `read ${ago(read.readAt, now)}`], width), ''];
  const m = read.money;
  const failed = (source: string) => m.errors.find((e) => e.source === source);
  /** '*' and why, after a market's figures kept from an earlier read */
  const stale = (market: Market) => {
    const at = read.kept[market];
    if (at === undefined) return '';
    const why = failed(market)?.message ?? 'not read';
    return `*   stale: ${cellSafe(why)} (read ${ago(at, now)})`;
  };
  const hl = m.hyperliquid;
  if (hl) {
    out.push(`Hyperliquid   account value ${usd(hl.account_value)}${stale('hyperliquid')}`);
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
    out.push(`Polymarket   positions worth ${usd(pm.value)}${stale('polymarket')}`);
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
