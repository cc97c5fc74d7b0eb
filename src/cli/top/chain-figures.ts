// One agent's money figures, read from the chain sources alone (no service request): the wallet's
// value, the 24-hour PnL from the Hyperliquid "day" history, and the open positions on the markets.
import type { Addresses, HoldingsResult } from '../../api/money/holdings.js';
import { SOURCES, type SourceName } from '../../api/money/types.js';
import { UsageError } from '../../core/errors.js';
import { pnlPoints } from '../commands/pnl.js';
import { readMoneyAt, readPortfolioAt } from '../commands/shared/money.js';
import { switchedOff } from '../commands/shared/money-off.js';
import type { OpenedApi } from '../commands/shared/opened-api.js';
import type { Context } from '../context.js';

/** A figure read now, or why it could not be. */
export type Read<T> = { value: T } | { stale: string };

export interface ChainFigures {
  value: Read<number>;
  /** the sources the value leaves out (it is then a partial total), empty when whole */
  partial: SourceName[];
  pnl24h: Read<number>;
  open: Read<number>;
}

const MARKETS: readonly SourceName[] = ['hyperliquid', 'polymarket'];

const down = (source: string) => `${source} down`;

function valueOf(m: HoldingsResult, off: Set<SourceName>): Pick<ChainFigures, 'value' | 'partial'> {
  // nothing read at all: no number to show (a zero would pass for an empty wallet)
  if (SOURCES.every((s) => off.has(s))) return { value: { stale: 'sources off' }, partial: [] };
  const nothing = m.balances.length === 0 && !m.hyperliquid && !m.polymarket;
  const failed = m.errors.map((e) => e.source);
  if (nothing && failed.length > 0) return { value: { stale: down(failed[0]!) }, partial: [] };
  return { value: { value: m.total_usd }, partial: [...new Set(failed)] };
}

function openOf(m: HoldingsResult, off: Set<SourceName>): Read<number> {
  if (MARKETS.every((s) => off.has(s))) return { stale: 'markets off' };
  const failed = m.errors.find((e) => MARKETS.includes(e.source));
  if (failed) return { stale: down(failed.source) };
  return { value: (m.hyperliquid?.positions.length ?? 0) + (m.polymarket?.positions.length ?? 0) };
}

async function pnlOf(ctx: Context, api: OpenedApi, evm: string | null, signal?: AbortSignal): Promise<Read<number>> {
  if (!evm) return { stale: 'no EVM address' };
  try {
    const portfolio = await readPortfolioAt(ctx, api, evm, { signal, quiet: true });
    const day = portfolio.find((p) => p.period === 'day');
    return day ? { value: pnlPoints(day).change_usd } : { stale: 'no day history' };
  } catch (err) {
    if (signal?.aborted) throw err;
    // switched off (the history is read nowhere else) is no outage
    return { stale: err instanceof UsageError ? 'hyperliquid off' : down('hyperliquid') };
  }
}

/** The agent's figures; throws only when `signal` is aborted. */
export async function readChainFigures(
  ctx: Context,
  api: OpenedApi,
  addresses: Addresses,
  signal?: AbortSignal,
): Promise<ChainFigures> {
  const [money, pnl24h] = await Promise.all([
    readMoneyAt(ctx, api, addresses, { signal, quiet: true }),
    pnlOf(ctx, api, addresses.evm, signal),
  ]);
  const off = switchedOff(ctx, api);
  return { ...valueOf(money, off), pnl24h, open: openOf(money, off) };
}
