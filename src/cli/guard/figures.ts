// One agent's figures for guard, read from the sources alone (no request to the service): the Hyperliquid
// account value now, its highest point in the window by Hyperliquid's own history, the PnL over the window,
// and the wallet total as `wallet` computes it. What could not be read is null with the reason: never 0.
import type { Addresses } from '../../api/money/holdings.js';
import type { HlPortfolioPeriod } from '../../api/money/hyperliquid.js';
import type { Context } from '../context.js';
import { pnlPoints } from '../commands/pnl.js';
import { readMoneyAt, readPortfolioAt } from '../commands/shared/money.js';
import type { OpenedApi } from '../commands/shared/opened-api.js';
import { periodFor, type Rules } from './rules.js';

export type Known = { value: number } | { value: null; reason: string };

export interface Readings {
  /** the Hyperliquid account value now */
  account: Known;
  /** the highest account value in the window by Hyperliquid's history (null value: no point in it) */
  historyPeak: Known;
  /** PnL lost over the window (negative: gained) */
  loss: Known;
  /** the wallet total; `partial` when a source failed (the true total is then at least this) */
  total: Known & { partial?: string };
}

const failed = (reason: string): Known => ({ value: null, reason });
const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!;

/** The window's points of the period that covers it (a point after `now`, the clock gone back, counts). */
function windowPoints(portfolio: HlPortfolioPeriod[], now: number, windowMs: number) {
  const name = periodFor(windowMs);
  const period = portfolio.find((p) => p.period === name);
  if (!period) return null;
  return pnlPoints(period).points.filter((p) => Date.parse(p.time) >= now - windowMs);
}

export async function readFigures(
  ctx: Context,
  api: OpenedApi,
  addresses: Addresses,
  o: { rules: Rules; windowMs: number; now: number; signal?: AbortSignal },
): Promise<Readings> {
  const history = o.rules['max-drawdown'] !== undefined || o.rules['max-loss'] !== undefined;
  const wholeWallet = o.rules['min-value'] !== undefined;
  const money = readMoneyAt(ctx, api, addresses, {
    signal: o.signal,
    quiet: true,
    only: wholeWallet ? undefined : ['hyperliquid'],
  });
  const evm = addresses.evm;
  const portfolio =
    history && evm ? readPortfolioAt(ctx, api, evm, { signal: o.signal, quiet: true }) : Promise.resolve(null);
  const [m, p] = await Promise.allSettled([money, portfolio]);
  const out: Readings = {
    account: failed('not read'),
    historyPeak: failed('not read'),
    loss: failed('not read'),
    total: failed('not read'),
  };
  if (m.status === 'rejected') {
    const reason = reasonOf(m.reason);
    out.account = failed(reason);
    out.total = failed(reason);
  } else {
    const hlError = m.value.errors.find((e) => e.source === 'hyperliquid');
    const hl = m.value.hyperliquid;
    out.account = hl
      ? { value: hl.account_value }
      : failed(hlError ? `hyperliquid: ${hlError.message}` : 'no Hyperliquid account');
    const first = m.value.errors[0];
    out.total = { value: m.value.total_usd, ...(first ? { partial: `${first.source}: ${first.message}` } : {}) };
  }
  if (!evm) {
    out.historyPeak = out.loss = failed('the service has no EVM address for the agent');
  } else if (p.status === 'rejected') {
    out.historyPeak = out.loss = failed(`hyperliquid history: ${reasonOf(p.reason)}`);
  } else if (p.value) {
    const points = windowPoints(p.value, o.now, o.windowMs);
    if (!points) out.historyPeak = out.loss = failed(`Hyperliquid has no '${periodFor(o.windowMs)}' history`);
    else if (points.length === 0) {
      // no point in the window: the peak is what guard saw and the value now; the loss is not known
      out.historyPeak = { value: 0 };
      out.loss = failed('no Hyperliquid history over the window yet');
    } else {
      out.historyPeak = { value: Math.max(...points.map((x) => x.account_value)) };
      out.loss = { value: Math.round((points[0]!.pnl - points.at(-1)!.pnl) * 100) / 100 };
    }
  }
  return out;
}
