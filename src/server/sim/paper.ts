// A paper Hyperliquid account and the agent that trades it: pure functions of the account, the seed
// and the step. advance() walks the steps since the account was last seen, at most MAX_STEPS_PER_ADVANCE
// of them (a longer gap is skipped over with the positions held), so no clock jump makes a read slow.
import { between, digest, intBetween, mulberry32, pick } from '../runtime/market.js';
import { stepAt, timeAt, type ClockRecord } from './market-clock.js';
import { priceAt, STEP_MS } from './prices.js';
import { longOnly, type Market } from './scenario.js';

export interface PaperPosition {
  coin: string;
  /** signed size: positive long, negative short */
  szi: number;
  entryPx: number;
  leverage: number;
}

export interface PaperOrder {
  oid: number;
  coin: string;
  /** B: bid (buy), A: ask (sell) */
  side: 'B' | 'A';
  limitPx: number;
  sz: number;
  timestamp: number;
  expiresStep: number;
}

/** [time ms, account value, cumulative traded volume] */
export type HistoryPoint = [number, number, number];

export interface PaperAccount {
  /** collateral in USDC, realized profit and loss included */
  balance: number;
  /** what was paid in: profit and loss is measured from it */
  deposits: number;
  positions: PaperPosition[];
  orders: PaperOrder[];
  nextOid: number;
  volume: number;
  /** the last step the account was brought to */
  step: number;
  history: HistoryPoint[];
}

/** How the account is advanced: the market (seed and scenario), whether the agent trades, its leverage cap. */
export interface AdvanceContext {
  market: Market;
  /** a key of its own (the address): two agents on one market trade differently */
  who: string;
  trading: boolean;
  maxLeverage: number;
  /** how steps follow the service clock (market-clock.ts): the time a history point or an order stands for */
  clock: ClockRecord;
}

export const MAX_STEPS_PER_ADVANCE = 1_440; // a market day: a read costs tens of ms at worst
export const HISTORY_EVERY = 15;
export const HISTORY_KEPT = 600;
export const DEFAULT_MAX_LEVERAGE = 3;
/** the coins the agents trade: enough for variety, liquid enough to be believable */
export const TRADED = ['BTC', 'ETH', 'SOL', 'HYPE', 'DOGE', 'XRP', 'AVAX', 'LINK'] as const;
/** size decimals per coin, as Hyperliquid's meta gives them: sizes are rounded to these */
export const SZ_DECIMALS: Record<string, number> = {
  BTC: 5,
  ETH: 4,
  SOL: 2,
  HYPE: 2,
  DOGE: 0,
  XRP: 1,
  AVAX: 2,
  LINK: 1,
};
const MAX_ORDERS = 3;
const ACT_CHANCE = 0.06;

export function newAccount(balance: number, step: number, time = step * STEP_MS): PaperAccount {
  const history: HistoryPoint[] = [[time, balance, 0]];
  return { balance, deposits: balance, positions: [], orders: [], nextOid: 1, volume: 0, step, history };
}

export function unrealized(p: PaperPosition, mark: number): number {
  return p.szi * (mark - p.entryPx);
}

/** Account value at `step`: collateral plus every position's unrealized profit and loss. */
export function accountValue(a: PaperAccount, market: Market, step: number): number {
  return a.positions.reduce((sum, p) => sum + unrealized(p, priceAt(market, p.coin, step)), a.balance);
}

export function marginUsed(a: PaperAccount, market: Market, step: number): number {
  return a.positions.reduce((sum, p) => sum + (Math.abs(p.szi) * priceAt(market, p.coin, step)) / p.leverage, 0);
}

/** Brings the account to `to`; returns how many steps it walked (at most MAX_STEPS_PER_ADVANCE). */
export function advance(a: PaperAccount, to: number, ctx: AdvanceContext): number {
  if (to < a.step) a.step = to; // a clock set back (or a slower market): start again from now
  if (to - a.step > MAX_STEPS_PER_ADVANCE) {
    const resume = to - MAX_STEPS_PER_ADVANCE;
    recordSkipped(a, a.step, resume, ctx);
    a.step = resume;
  }
  const walked = to - a.step;
  // one sha256 per advance, not per step: each step's draws come from this salt and the step
  const salt = parseInt(digest('sim-agent', ctx.market.seed, ctx.who).slice(0, 8), 16);
  for (let k = a.step + 1; k <= to; k++) {
    if (ctx.trading) {
      fillOrders(a, k, ctx);
      const rng = mulberry32(salt ^ Math.imul(k | 0, 0x85ebca6b) ^ Math.floor(k / 2 ** 32));
      // in a crash, a flat agent buys the dip at once: it is caught holding longs as the market falls
      const chance = a.positions.length === 0 && longOnly(ctx.market) ? 0.5 : ACT_CHANCE;
      if (rng() < chance) act(a, k, ctx, rng);
    }
    if (a.positions.length > 0 && accountValue(a, ctx.market, k) <= 0) liquidate(a, k, ctx);
    if (k % HISTORY_EVERY === 0) record(a, k, ctx);
  }
  a.step = to;
  return walked;
}

/**
 * Points across a span skipped with the positions held (not walked), so the history has no hole:
 * at the history's pace, or sparser for a long span (at most HISTORY_KEPT / 2 points), never
 * before the last point (a faster market's steps stand for earlier steps of the clock).
 */
function recordSkipped(a: PaperAccount, from: number, until: number, ctx: AdvanceContext): void {
  const last = a.history[a.history.length - 1]?.[0];
  const start = last === undefined ? from : Math.max(from, stepAt(ctx.clock, last));
  if (until <= start) return;
  const stride = HISTORY_EVERY * Math.max(1, Math.ceil((until - start) / HISTORY_EVERY / (HISTORY_KEPT / 2)));
  for (let k = (Math.floor(start / stride) + 1) * stride; k <= until; k += stride) {
    if (a.positions.length > 0 && accountValue(a, ctx.market, k) <= 0) liquidate(a, k, ctx);
    record(a, k, ctx);
  }
}

function record(a: PaperAccount, k: number, ctx: AdvanceContext): void {
  const time = timeAt(ctx.clock, k);
  // after a speed change the walk covers clock time already recorded: each time once, in order
  if (time <= (a.history[a.history.length - 1]?.[0] ?? -Infinity)) return;
  a.history.push([time, accountValue(a, ctx.market, k), a.volume]);
  if (a.history.length > HISTORY_KEPT) {
    // older points thinned to every other one: recent ones stay fine-grained, all time stays covered
    const old = a.history.slice(0, HISTORY_KEPT / 2).filter((_, i) => i % 2 === 0);
    a.history = [...old, ...a.history.slice(HISTORY_KEPT / 2)];
  }
}

/**
 * The history with each time once, in order, none after `now`: what a store written before speed
 * changes were handled may hold (a point out of order or twice is dropped, the earlier kept).
 */
export function repairHistory(history: HistoryPoint[], now: number): HistoryPoint[] {
  const kept: HistoryPoint[] = [];
  for (const point of history) {
    const last = kept[kept.length - 1]?.[0] ?? -Infinity;
    if (point[0] > last && point[0] <= now) kept.push(point);
  }
  return kept;
}

function act(a: PaperAccount, k: number, ctx: AdvanceContext, rng: () => number): void {
  const r = rng();
  if (a.positions.length === 0 || r < 0.45) open(a, k, ctx, rng);
  else if (r < 0.7) trade(a, pick(rng, a.positions), -1, k, ctx);
  else if (r < 0.85) trade(a, pick(rng, a.positions), -0.5, k, ctx);
  else if (a.orders.length < MAX_ORDERS) rest(a, k, ctx, rng);
}

/** A size worth a share of the account's equity at the agent's leverage, or 0 when margin is short. */
function sizeFor(
  a: PaperAccount,
  coin: string,
  k: number,
  ctx: AdvanceContext,
  rng: () => number,
  lev: number,
): number {
  const equity = accountValue(a, ctx.market, k);
  const margin = equity * between(rng, 0.04, 0.12);
  if (marginUsed(a, ctx.market, k) + margin > equity * 0.6) return 0;
  return roundSize(coin, (margin * lev) / priceAt(ctx.market, coin, k));
}

export function roundSize(coin: string, sz: number): number {
  const f = 10 ** (SZ_DECIMALS[coin] ?? 2);
  return Math.trunc(sz * f) / f;
}

function open(a: PaperAccount, k: number, ctx: AdvanceContext, rng: () => number): void {
  const coin = pick(rng, TRADED);
  const sign = rng() < 0.55 || longOnly(ctx.market) ? 1 : -1;
  const held = a.positions.find((p) => p.coin === coin);
  if (held && Math.sign(held.szi) !== sign) return; // never flips in one go
  const lev = held?.leverage ?? intBetween(rng, 1, Math.max(1, Math.floor(ctx.maxLeverage)));
  const sz = sizeFor(a, coin, k, ctx, rng, lev);
  if (sz > 0) fill(a, coin, sign * sz, priceAt(ctx.market, coin, k), lev);
}

/** Changes a position by `share` of its size (-1 closes it) at the mark. */
function trade(a: PaperAccount, p: PaperPosition, share: number, k: number, ctx: AdvanceContext): void {
  const delta = share === -1 ? -p.szi : roundSize(p.coin, p.szi * share);
  if (delta !== 0) fill(a, p.coin, delta, priceAt(ctx.market, p.coin, k), p.leverage);
}

/** Executes `delta` of `coin` at `px`: opens, adds (average entry), reduces or closes (realized into balance). */
function fill(a: PaperAccount, coin: string, delta: number, px: number, lev: number): void {
  a.volume += Math.abs(delta) * px;
  const p = a.positions.find((q) => q.coin === coin);
  if (!p) {
    a.positions.push({ coin, szi: delta, entryPx: px, leverage: lev });
    return;
  }
  if (Math.sign(p.szi) === Math.sign(delta)) {
    p.entryPx = (p.entryPx * p.szi + px * delta) / (p.szi + delta);
    p.szi += delta;
    return;
  }
  const closed = Math.min(Math.abs(delta), Math.abs(p.szi)) * Math.sign(p.szi);
  a.balance += closed * (px - p.entryPx);
  p.szi -= closed;
  if (Math.abs(p.szi) < 1e-12) a.positions = a.positions.filter((q) => q !== p);
}

function rest(a: PaperAccount, k: number, ctx: AdvanceContext, rng: () => number): void {
  const coin = pick(rng, TRADED);
  const side = rng() < 0.5 || longOnly(ctx.market) ? 'B' : 'A';
  const lev = a.positions.find((p) => p.coin === coin)?.leverage ?? 1;
  const sz = sizeFor(a, coin, k, ctx, rng, lev);
  if (sz <= 0) return;
  const away = between(rng, 0.005, 0.03);
  const px = priceAt(ctx.market, coin, k) * (side === 'B' ? 1 - away : 1 + away);
  const expiresStep = k + intBetween(rng, 60, 720);
  const limitPx = Number(px.toPrecision(5)); // Hyperliquid takes five significant digits
  a.orders.push({ oid: a.nextOid++, coin, side, limitPx, sz, timestamp: timeAt(ctx.clock, k), expiresStep });
}

function fillOrders(a: PaperAccount, k: number, ctx: AdvanceContext): void {
  if (a.orders.length === 0) return;
  a.orders = a.orders.filter((o) => {
    const mark = priceAt(ctx.market, o.coin, k);
    const crossed = o.side === 'B' ? mark <= o.limitPx : mark >= o.limitPx;
    if (crossed) {
      const held = a.positions.find((p) => p.coin === o.coin);
      fill(a, o.coin, o.side === 'B' ? o.sz : -o.sz, o.limitPx, held?.leverage ?? 1);
    }
    return !crossed && k < o.expiresStep;
  });
}

function liquidate(a: PaperAccount, k: number, ctx: AdvanceContext): void {
  for (const p of [...a.positions]) trade(a, p, -1, k, ctx);
  a.orders = [];
  a.balance = Math.max(0, a.balance);
}
