// One agent's figures for guard, read from the sources alone (no request to the service): the Hyperliquid
// account value now, its highest point in the window by Hyperliquid's own history, the PnL over the window,
// and the wallet total as `wallet` computes it. What could not be read is null with the reason: never 0.
import type { Addresses } from '../../api/money/holdings.js';
import type { HlPortfolioPeriod } from '../../api/money/hyperliquid.js';
import type { SourceName } from '../../api/money/types.js';
import type { Context } from '../context.js';
import { pnlPoints } from '../commands/pnl.js';
import { readMoneyAt, readPortfolioAt } from '../commands/shared/money.js';
import type { OpenedApi } from '../commands/shared/opened-api.js';
import { periodFor, type Rules } from './rules.js';

export type Known = { value: number } | { value: null; reason: string };
/** Hyperliquid's [time, account value] points in the window; `ignored`: those said to be later than now */
export type KnownPoints =
  | { value: Array<[number, number]>; ignored: { count: number; latest: number } | null }
  | { value: null; reason: string };

export interface Readings {
  /** the Hyperliquid account value now */
  account: Known;
  /** the account values of Hyperliquid's history in the window */
  history: KnownPoints;
  /** PnL lost over the window (negative: gained) */
  loss: Known;
  /** the wallet total; `partial`: the sources it leaves out, switched off or failed (the true total is at least it) */
  total: Known & { partial?: string };
}

const failed = (reason: string) => ({ value: null, reason }) as const;
const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!;

/** how far past our clock a history point may lie (the two clocks differ a little) */
export const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * The window's points of the period that covers it. A point later than now (and the skew) is left out:
 * either clock is wrong, and such a point would stay a peak until our clock caught up with it.
 */
function windowPoints(portfolio: HlPortfolioPeriod[], now: number, windowMs: number) {
  const name = periodFor(windowMs);
  const period = portfolio.find((p) => p.period === name);
  if (!period) return null;
  const all = pnlPoints(period).points.map((p) => ({ ...p, at: Date.parse(p.time) }));
  const future = all.filter((p) => p.at > now + CLOCK_SKEW_MS);
  const ignored = future.length ? { count: future.length, latest: Math.max(...future.map((p) => p.at)) } : null;
  return { points: all.filter((p) => p.at >= now - windowMs && p.at <= now + CLOCK_SKEW_MS), ignored };
}

export async function readFigures(
  ctx: Context,
  api: OpenedApi,
  addresses: Addresses,
  o: { rules: Rules; windowMs: number; now: number; signal?: AbortSignal; off?: readonly SourceName[] },
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
    history: failed('not read'),
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
    const left = [
      ...(o.off ?? []).map((s) => `${s} (switched off)`),
      ...m.value.errors.map((e) => `${e.source} (${e.message})`),
    ];
    out.total = { value: m.value.total_usd, ...(left.length ? { partial: left.join(', ') } : {}) };
  }
  if (!evm) {
    out.history = out.loss = failed('the service has no EVM address for the agent');
  } else if (p.status === 'rejected') {
    out.history = out.loss = failed(`hyperliquid history: ${reasonOf(p.reason)}`);
  } else if (p.value) {
    const w = windowPoints(p.value, o.now, o.windowMs);
    if (!w) out.history = out.loss = failed(`Hyperliquid has no '${periodFor(o.windowMs)}' history`);
    else {
      const { points, ignored } = w;
      // no point in the window: the peak is what guard saw and the value now; the loss is not known
      out.history = { value: points.map((x) => [x.at, x.account_value]), ignored };
      out.loss = points.length
        ? { value: Math.round((points[0]!.pnl - points.at(-1)!.pnl) * 100) / 100 }
        : failed('no Hyperliquid history over the window yet');
    }
  }
  return out;
}
