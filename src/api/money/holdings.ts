// Everything an agent holds, read side by side from every source with its own time-out, valued in dollars
// (stablecoins at 1, the rest at Hyperliquid's mid prices) and totalled exactly. A source that fails is
// listed in `errors` and makes the result partial: it is never counted as zero; nor is a chain's own coin
// the mid prices leave out. A token of no known price (an unlisted mint, a spot coin allMids does not
// name) is shown without a value and leaves the total whole.
import { SuperagentError } from '../../core/errors.js';
import { TimeoutError } from '../errors.js';
import { isChainCoin } from './coins.js';
import { isZero, multiply, sumUsd, usdNumber } from './decimal.js';
import { readAllMids, readHlAccount, readHlOrders, readHlSpot } from './hyperliquid.js';
import { readPmPositions, readPmValue } from './polymarket.js';
import { readSolana } from './solana.js';
import { EVM_CHAINS } from './types.js';
import type { Endpoints, EvmChain, Holding, JsonRequest, SourceFailure, SourceName } from './types.js';

export interface Addresses {
  evm: string | null;
  solana: string | null;
}

export type ReadEvm = (
  chain: EvmChain,
  url: string,
  address: string,
  json: JsonRequest,
  signal?: AbortSignal,
) => Promise<Holding[]>;

export interface HoldingsDeps {
  json: JsonRequest;
  /** the EVM chains' reader; without it the EVM chains are reported as not read */
  readEvm?: ReadEvm;
  /** each source's own limit, all its requests included (default 20 s) */
  timeoutMs?: number;
}

export interface Balance {
  chain: SourceName;
  asset: string;
  amount: string;
  /** null when the asset has no price (or the prices could not be read) */
  usd: number | null;
}

export interface HlPositionView {
  coin: string;
  side: 'long' | 'short';
  size: string;
  entry_price: string;
  position_value: number;
  unrealized_pnl: number;
  leverage: string;
  liquidation_price: string | null;
}

export interface HyperliquidView {
  account_value: number;
  withdrawable: number;
  positions: HlPositionView[];
  open_orders: Array<{ coin: string; side: 'buy' | 'sell'; price: string; size: string; oid: number }>;
  spot: Array<{ asset: string; amount: string; usd: number | null }>;
}

export interface PolymarketView {
  positions: Array<{
    title: string;
    outcome: string;
    size: string;
    avg_price: string;
    current_price: string;
    value: number;
    pnl: number;
  }>;
  value: number;
}

export interface HoldingsResult {
  balances: Balance[];
  hyperliquid: HyperliquidView | null;
  polymarket: PolymarketView | null;
  /** the total of what was read, in dollars, exact to the cent */
  total_usd: number;
  errors: SourceFailure[];
  partial: boolean;
}

const DEFAULT_TIMEOUT_MS = 20_000;
const STABLE_SPOT = new Set(['USDC', 'USDT', 'USDT0', 'USDE', 'USDH']);

/** One line of at most 200 characters from any failure (ours already are). */
function messageOf(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const line = text.split(/\r?\n/)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line || 'failed';
}

/** The host of an endpoint (never its path, where a provider may keep its key). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the source';
  }
}

/** Runs one source under its own time-out, which holds even if a reader ignores its signal. */
function limited<T>(
  ms: number,
  outer: AbortSignal | undefined,
  host: string,
  read: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const timer = AbortSignal.timeout(ms);
  const signal = outer ? AbortSignal.any([outer, timer]) : timer;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      const limit = ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
      reject(outer?.aborted ? outer.reason : new TimeoutError(`${host} did not answer within ${limit}`));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    read(signal)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

interface Job<T> {
  source: SourceName;
  promise: Promise<T>;
}

async function settle<T>(jobs: Job<T>[], errors: SourceFailure[], prefix = ''): Promise<Array<T | null>> {
  const settled = await Promise.allSettled(jobs.map((j) => j.promise));
  return settled.map((s, i) => {
    if (s.status === 'fulfilled') return s.value;
    const source = jobs[i]!.source;
    // the failure is shown beside its source: a reader's own `<source>: ` (the EVM reader's) is said once
    const message = messageOf(s.reason);
    const own = message.startsWith(`${source}: `) ? message.slice(source.length + 2) : message;
    errors.push({ source, message: `${prefix}${own}` });
    return null;
  });
}

/** Reads every source side by side; throws only when `signal` itself is aborted (the user interrupted). */
export async function readHoldings(
  addresses: Addresses,
  endpoints: Endpoints,
  deps: HoldingsDeps,
  signal?: AbortSignal,
): Promise<HoldingsResult> {
  const { json } = deps;
  const ms = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const run = <T>(source: SourceName, url: string, read: (s: AbortSignal) => Promise<T>): Job<T> => ({
    source,
    promise: limited(ms, signal, hostOf(url), read),
  });
  const errors: SourceFailure[] = [];

  const chainJobs: Job<Holding[]>[] = [];
  const { evm, solana } = addresses;
  for (const chain of EVM_CHAINS) {
    const url = endpoints[chain];
    if (!url || !evm) continue;
    const readEvm = deps.readEvm;
    const missing = () => Promise.reject(new Error('no EVM reader in this build'));
    chainJobs.push(run(chain, url, (s) => (readEvm ? readEvm(chain, url, evm, json, s) : missing())));
  }
  const solanaUrl = endpoints.solana;
  if (solanaUrl && solana) chainJobs.push(run('solana', solanaUrl, (s) => readSolana(solanaUrl, solana, json, s)));

  const hl = endpoints.hyperliquid;
  const hlJob =
    hl && evm
      ? run('hyperliquid', hl, (s) =>
          Promise.all([readHlAccount(hl, evm, json, s), readHlSpot(hl, evm, json, s), readHlOrders(hl, evm, json, s)]),
        )
      : null;
  const midsJob = hl ? run('hyperliquid', hl, (s) => readAllMids(hl, json, s)) : null;
  const pm = endpoints.polymarket;
  const pmJob =
    pm && evm
      ? run('polymarket', pm, (s) => Promise.all([readPmPositions(pm, evm, json, s), readPmValue(pm, evm, json, s)]))
      : null;

  const [chains, [hlRead], [pmRead], [mids]] = await Promise.all([
    settle(chainJobs, errors),
    settle(hlJob ? [hlJob] : [], errors).then((r) => (r.length ? r : [null])),
    settle(pmJob ? [pmJob] : [], errors).then((r) => (r.length ? r : [null])),
    settle(midsJob ? [midsJob] : [], errors, 'mid prices: ').then((r) => (r.length ? r : [null])),
  ]);
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new SuperagentError('interrupted');

  const exact: string[] = [];
  let priceMissing = false;
  const unlisted = new Set<string>();
  const value = (amount: string, priceKey: string | null): number | null => {
    const price = priceKey === 'USD' ? '1' : priceKey === null ? null : (mids?.get(priceKey) ?? null);
    if (price === null) {
      priceMissing ||= priceKey !== null && !mids && !isZero(amount);
      // a chain coin the prices leave out is a gap in the total, never nothing
      if (mids && isChainCoin(priceKey) && !isZero(amount)) unlisted.add(priceKey);
      return null;
    }
    const usd = multiply(amount, price);
    exact.push(usd);
    return usdNumber(usd);
  };

  const balances: Balance[] = chains
    .flatMap((holdings) => holdings ?? [])
    .map((h) => ({ chain: h.chain, asset: h.asset, amount: h.amount, usd: value(h.amount, h.priceKey) }));

  let hyperliquid: HyperliquidView | null = null;
  if (hlRead) {
    const [account, spot, orders] = hlRead;
    exact.push(account.accountValue);
    hyperliquid = {
      account_value: usdNumber(account.accountValue),
      withdrawable: usdNumber(account.withdrawable),
      positions: account.positions.map((p) => ({
        coin: p.coin,
        side: p.side,
        size: p.size,
        entry_price: p.entryPrice,
        position_value: usdNumber(p.positionValue),
        unrealized_pnl: usdNumber(p.unrealizedPnl),
        leverage: p.leverage.value,
        liquidation_price: p.liquidationPrice,
      })),
      open_orders: orders.map((o) => ({ coin: o.coin, side: o.side, price: o.price, size: o.size, oid: o.oid })),
      spot: spot
        .filter((b) => !isZero(b.total))
        .map((b) => ({
          asset: b.coin,
          amount: b.total,
          usd: value(b.total, STABLE_SPOT.has(b.coin) ? 'USD' : b.coin),
        })),
    };
  }

  let polymarket: PolymarketView | null = null;
  if (pmRead) {
    const [positions, pmValue] = pmRead;
    exact.push(pmValue);
    polymarket = {
      positions: positions.map((p) => ({
        title: p.title,
        outcome: p.outcome,
        size: p.size,
        avg_price: p.avgPrice,
        current_price: p.curPrice,
        value: usdNumber(p.currentValue),
        pnl: usdNumber(p.cashPnl),
      })),
      value: usdNumber(pmValue),
    };
  }

  for (const coin of unlisted) {
    errors.push({ source: 'hyperliquid', message: `mid prices: ${hostOf(hl!)} allMids lists no price for ${coin}` });
  }
  // with no price source at all, an unpriced holding is still a gap in the total: say so
  if (priceMissing && !hl) {
    errors.push({ source: 'hyperliquid', message: 'mid prices not read: the hyperliquid source is switched off' });
  }

  return { balances, hyperliquid, polymarket, total_usd: sumUsd(exact), errors, partial: errors.length > 0 };
}
