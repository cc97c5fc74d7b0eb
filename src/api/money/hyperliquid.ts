// Hyperliquid's public info endpoint (POST <base>/info {type, user}): the perp account, spot balances,
// resting orders, the portfolio history and the mid prices. Every field used is checked here; numbers
// arrive as decimal strings and stay exact.
import { BadAnswerError } from '../../core/errors.js';
import { COIN_DUST, COIN_PRICE_FLOOR } from './coins.js';
import { abs, compare, sign } from './decimal.js';
import { amount, decimal, integer, list, once, price, record, text, timeMs, type Fields } from './shape.js';
import { hostOf } from './source-http.js';
import type { JsonRequest } from './types.js';

export interface HlPosition {
  coin: string;
  side: 'long' | 'short';
  /** the absolute size, in coins */
  size: string;
  entryPrice: string;
  positionValue: string;
  unrealizedPnl: string;
  leverage: { type: string; value: string };
  /** null when the source sends none (no liquidation price at this leverage) */
  liquidationPrice: string | null;
}

export interface HlAccount {
  accountValue: string;
  withdrawable: string;
  positions: HlPosition[];
}

export interface HlSpotBalance {
  coin: string;
  total: string;
  hold: string;
}

export interface HlOrder {
  coin: string;
  side: 'buy' | 'sell';
  price: string;
  size: string;
  oid: number;
  timestamp: number;
}

export interface HlPortfolioPeriod {
  period: string;
  accountValueHistory: Array<[number, string]>;
  pnlHistory: Array<[number, string]>;
  volume: string;
}

type InfoType = 'clearinghouseState' | 'spotClearinghouseState' | 'openOrders' | 'portfolio' | 'allMids';

const MAX_MIDS = 5_000;

async function info(base: string, type: InfoType, user: string | null, json: JsonRequest, signal?: AbortSignal) {
  const url = `${base.replace(/\/+$/, '')}/info`;
  const body = user === null ? { type } : { type, user };
  return { answer: await json({ url, method: 'POST', body, signal }), where: `${hostOf(base)} ${type}` };
}

function position(entry: unknown, where: string): HlPosition {
  const p = record(record(entry, `${where}: an asset position`).position, `${where}: an asset position`);
  const coin = text(p.coin, `${where}: a position's coin`, 40);
  const at = `${where} ${coin}`;
  const szi = decimal(p.szi, `${at} szi`);
  const leverage = record(p.leverage, `${at} leverage`);
  return {
    coin,
    side: sign(szi) < 0 ? 'short' : 'long',
    size: abs(szi),
    entryPrice: decimal(p.entryPx, `${at} entryPx`),
    positionValue: decimal(p.positionValue, `${at} positionValue`),
    unrealizedPnl: decimal(p.unrealizedPnl, `${at} unrealizedPnl`),
    leverage: {
      type: text(leverage.type, `${at} leverage type`, 20),
      value: decimal(leverage.value, `${at} leverage`),
    },
    liquidationPrice: p.liquidationPx === null ? null : decimal(p.liquidationPx, `${at} liquidationPx`),
  };
}

/** The perp account: its value (margin summary), what can be withdrawn, and the open positions. */
export async function readHlAccount(
  base: string,
  user: string,
  json: JsonRequest,
  signal?: AbortSignal,
): Promise<HlAccount> {
  const { answer, where } = await info(base, 'clearinghouseState', user, json, signal);
  const state = record(answer, where);
  const summary = record(state.marginSummary, `${where} marginSummary`);
  const coins = new Set<string>();
  return {
    // never negative: a negative value would offset what the agent holds elsewhere
    accountValue: amount(summary.accountValue, `${where} accountValue`),
    withdrawable: amount(state.withdrawable, `${where} withdrawable`),
    positions: list(state.assetPositions, `${where} assetPositions`)
      .map((entry) => position(entry, where))
      .map((p) => (once(coins, p.coin, where), p))
      .filter((p) => sign(p.size) !== 0),
  };
}

export async function readHlSpot(
  base: string,
  user: string,
  json: JsonRequest,
  signal?: AbortSignal,
): Promise<HlSpotBalance[]> {
  const { answer, where } = await info(base, 'spotClearinghouseState', user, json, signal);
  const coins = new Set<string>();
  return list(record(answer, where).balances, `${where} balances`).map((entry) => {
    const b = record(entry, `${where}: a balance`);
    const coin = text(b.coin, `${where}: a balance's coin`, 40);
    once(coins, coin, where);
    return { coin, total: amount(b.total, `${where} ${coin} total`), hold: amount(b.hold, `${where} ${coin} hold`) };
  });
}

export async function readHlOrders(
  base: string,
  user: string,
  json: JsonRequest,
  signal?: AbortSignal,
): Promise<HlOrder[]> {
  const { answer, where } = await info(base, 'openOrders', user, json, signal);
  return list(answer, where).map((entry) => {
    const o: Fields = record(entry, `${where}: an order`);
    const coin = text(o.coin, `${where}: an order's coin`, 40);
    if (o.side !== 'B' && o.side !== 'A') throw new BadAnswerError(`${where} ${coin} side is neither B nor A`);
    return {
      coin,
      side: o.side === 'B' ? 'buy' : 'sell',
      price: decimal(o.limitPx, `${where} ${coin} limitPx`),
      size: decimal(o.sz, `${where} ${coin} sz`),
      oid: integer(o.oid, `${where} ${coin} oid`),
      timestamp: integer(o.timestamp, `${where} ${coin} timestamp`),
    };
  });
}

/** Points in time order; two at one time fail, as which of them holds is unknown. */
function history(value: unknown, what: string): Array<[number, string]> {
  const points = list(value, what).map((point): [number, string] => {
    const pair = list(point, `${what} point`);
    return [timeMs(pair[0], `${what} time`), decimal(pair[1], `${what} value`)];
  });
  const times = new Set<string>();
  for (const [time] of points) once(times, `time ${time}`, what);
  return points.sort((a, b) => a[0] - b[0]);
}

/** The account value and PnL history per period (day, week, month, allTime and their perp… variants). */
export async function readHlPortfolio(
  base: string,
  user: string,
  json: JsonRequest,
  signal?: AbortSignal,
): Promise<HlPortfolioPeriod[]> {
  const { answer, where } = await info(base, 'portfolio', user, json, signal);
  return list(answer, where).map((entry) => {
    const pair = list(entry, `${where} entry`);
    const period = text(pair[0], `${where} period`, 40);
    const data = record(pair[1], `${where} ${period}`);
    return {
      period,
      accountValueHistory: history(data.accountValueHistory, `${where} ${period} accountValueHistory`),
      pnlHistory: history(data.pnlHistory, `${where} ${period} pnlHistory`),
      volume: decimal(data.vlm, `${where} ${period} vlm`),
    };
  });
}

/** Mid prices by coin ("ETH" → "3450.1"); spot pairs appear as "@index". */
export async function readAllMids(base: string, json: JsonRequest, signal?: AbortSignal): Promise<Map<string, string>> {
  const { answer, where } = await info(base, 'allMids', null, json, signal);
  const entries = Object.entries(record(answer, where));
  if (entries.length > MAX_MIDS) throw new BadAnswerError(`${where} lists more than ${MAX_MIDS} coins`);
  const mids = new Map(entries.map(([coin, mid]) => [text(coin, `${where} coin`, 40), price(mid, `${where} ${coin}`)]));
  // a chain's own coin quoted at next to nothing is a lying source: its prices are not used at all
  for (const coin of Object.keys(COIN_DUST)) {
    const mid = mids.get(coin);
    if (mid !== undefined && compare(mid, COIN_PRICE_FLOOR) < 0)
      throw new BadAnswerError(`${where} ${coin} is ${mid.slice(0, 24)}, below $${COIN_PRICE_FLOOR}: not believed`);
  }
  return mids;
}
