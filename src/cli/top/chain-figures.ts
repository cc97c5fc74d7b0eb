// One agent's money figures, read from the chain sources alone (no service request): the wallet's
// value, the 24-hour PnL from the Hyperliquid "day" history, and the open positions on the markets.
import type { Addresses, HoldingsResult } from '../../api/money/holdings.js';
import { SOURCES, type SourceName } from '../../api/money/types.js';
import { UsageError } from '../../core/errors.js';
import { pnlPoints } from '../commands/pnl.js';
import { readMoneyAt, readPortfolioAt, type MoneyReadOptions } from '../commands/shared/money.js';
import { switchedOff } from '../commands/shared/money-off.js';
import type { OpenedApi } from '../commands/shared/opened-api.js';
import type { Context } from '../context.js';
import { isRateLimited } from './source-pacer.js';

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

/** A source that failed, in a few words: its 429 said as such (it is not down, it asks for less). */
const failed = (source: string, message: string) => (isRateLimited(message) ? `429 from ${source}` : `${source} down`);

function valueOf(m: HoldingsResult, off: Set<SourceName>): Pick<ChainFigures, 'value' | 'partial'> {
  // nothing read at all: no number to show (a zero would pass for an empty wallet)
  if (SOURCES.every((s) => off.has(s))) return { value: { stale: 'sources off' }, partial: [] };
  const nothing = m.balances.length === 0 && !m.hyperliquid && !m.polymarket;
  const first = m.errors[0];
  if (nothing && first) return { value: { stale: failed(first.source, first.message) }, partial: [] };
  return { value: { value: m.total_usd }, partial: [...new Set(m.errors.map((e) => e.source))] };
}

function openOf(m: HoldingsResult, off: Set<SourceName>): Read<number> {
  if (MARKETS.every((s) => off.has(s))) return { stale: 'markets off' };
  const market = m.errors.find((e) => MARKETS.includes(e.source));
  if (market) return { stale: failed(market.source, market.message) };
  return { value: (m.hyperliquid?.positions.length ?? 0) + (m.polymarket?.positions.length ?? 0) };
}

async function pnlOf(ctx: Context, api: OpenedApi, evm: string | null, o: ReadOptions): Promise<Read<number>> {
  if (!evm) return { stale: 'no EVM address' };
  const { signal } = o;
  try {
    const portfolio = await readPortfolioAt(ctx, api, evm, { ...o, quiet: true });
    const day = portfolio.find((p) => p.period === 'day');
    return day ? { value: pnlPoints(day).change_usd } : { stale: 'no day history' };
  } catch (err) {
    if (signal?.aborted) throw err;
    // switched off (the history is read nowhere else) is no outage
    if (err instanceof UsageError) return { stale: 'hyperliquid off' };
    return { stale: failed('hyperliquid', err instanceof Error ? err.message : String(err)) };
  }
}

type ReadOptions = Pick<MoneyReadOptions, 'signal' | 'wrapJson'>;

/** The agent's figures; throws only when `signal` is aborted. */
export async function readChainFigures(
  ctx: Context,
  api: OpenedApi,
  addresses: Addresses,
  o: ReadOptions = {},
): Promise<ChainFigures> {
  const [money, pnl24h] = await Promise.all([
    readMoneyAt(ctx, api, addresses, { ...o, quiet: true }),
    pnlOf(ctx, api, addresses.evm, o),
  ]);
  const off = switchedOff(ctx, api);
  return { ...valueOf(money, off), pnl24h, open: openOf(money, off) };
}
