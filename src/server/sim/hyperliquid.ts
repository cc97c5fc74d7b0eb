// Hyperliquid's POST /info answers for a paper account, in the public shapes: clearinghouseState,
// spotClearinghouseState, openOrders, portfolio and allMids (every number a decimal string).
import { accountValue, marginUsed, unrealized } from './paper.js';
import type { HistoryPoint, PaperAccount, PaperPosition } from './paper.js';
import { dec, fromUnits, midsAt, priceAt } from './prices.js';
import type { PaperView, Simulation } from './simulation.js';

const DAY = 86_400_000;
const PERIODS: Array<[string, number]> = [
  ['day', DAY],
  ['week', 7 * DAY],
  ['month', 30 * DAY],
  ['allTime', Infinity],
];
const MAX_LEVERAGE: Record<string, number> = {
  BTC: 40,
  ETH: 25,
  SOL: 20,
  HYPE: 10,
  XRP: 20,
  DOGE: 10,
  AVAX: 10,
  LINK: 10,
};
const SPOT_TOKEN_INDEX: Record<string, number> = { USDC: 0, HYPE: 150 };

const usd = (x: number) => dec(x, 6);

export type InfoType = 'clearinghouseState' | 'spotClearinghouseState' | 'openOrders' | 'portfolio' | 'allMids';
export const INFO_TYPES: readonly InfoType[] = [
  'clearinghouseState',
  'spotClearinghouseState',
  'openOrders',
  'portfolio',
  'allMids',
];

export async function info(sim: Simulation, type: InfoType, user: string): Promise<unknown> {
  if (type === 'allMids') return midsAt(sim.market, sim.step());
  if (type === 'spotClearinghouseState') return spotState(sim, user);
  const view = await sim.paper(user);
  if (type === 'clearinghouseState') return clearinghouse(sim, view);
  if (type === 'openOrders')
    return (view?.paper.orders ?? []).map((o) => ({
      coin: o.coin,
      limitPx: dec(o.limitPx, 6),
      oid: o.oid,
      side: o.side,
      sz: dec(o.sz, 5),
      timestamp: o.timestamp,
    }));
  return portfolio(sim, view);
}

function clearinghouse(sim: Simulation, view: PaperView | undefined) {
  const paper = view?.paper;
  const step = view?.step ?? sim.step();
  const value = paper ? accountValue(paper, sim.market, step) : 0;
  const used = paper ? marginUsed(paper, sim.market, step) : 0;
  const positions = paper?.positions ?? [];
  const marks = positions.map((p) => priceAt(sim.market, p.coin, step));
  const ntl = positions.reduce((s, p, i) => s + Math.abs(p.szi) * marks[i]!, 0);
  const summary = {
    accountValue: usd(value),
    totalNtlPos: usd(ntl),
    totalRawUsd: usd(value - positions.reduce((s, p, i) => s + p.szi * marks[i]!, 0)),
    totalMarginUsed: usd(used),
  };
  return {
    marginSummary: summary,
    crossMarginSummary: { ...summary },
    crossMaintenanceMarginUsed: usd(used / 2),
    withdrawable: usd(Math.max(0, value - used)),
    assetPositions: positions.map((p, i) => ({ type: 'oneWay', position: position(p, marks[i]!, value) })),
    time: view?.now ?? sim.now(),
  };
}

function position(p: PaperPosition, mark: number, value: number) {
  const pnl = unrealized(p, mark);
  const margin = (Math.abs(p.szi) * mark) / p.leverage;
  // cross margin: the price at which the whole account's value is gone
  const liq = mark - value / p.szi;
  return {
    coin: p.coin,
    szi: dec(p.szi, 5),
    leverage: { type: 'cross', value: p.leverage },
    entryPx: dec(p.entryPx, 6),
    positionValue: usd(Math.abs(p.szi) * mark),
    unrealizedPnl: usd(pnl),
    returnOnEquity: dec(margin > 0 ? pnl / ((Math.abs(p.szi) * p.entryPx) / p.leverage) : 0, 8),
    liquidationPx: liq > 0 ? dec(liq, 6) : null,
    marginUsed: usd(margin),
    maxLeverage: MAX_LEVERAGE[p.coin] ?? 10,
    cumFunding: { allTime: '0.0', sinceOpen: '0.0', sinceChange: '0.0' },
  };
}

function spotState(sim: Simulation, user: string) {
  return {
    balances: sim.holdings(user, 'hyperliquid').map((h) => ({
      coin: h.token.symbol,
      token: SPOT_TOKEN_INDEX[h.token.symbol] ?? 0,
      hold: '0.0',
      total: fromUnits(h.units, h.token.decimals).replace(/^(\d+)$/, '$1.0'),
      entryNtl: '0.0',
    })),
  };
}

/** Every period twice (all and perp-only: the paper account trades perps alone), as [name, data] pairs. */
function portfolio(sim: Simulation, view: PaperView | undefined) {
  const paper = view?.paper;
  const now: HistoryPoint[] = paper ? [[view.now, accountValue(paper, sim.market, view.step), paper.volume]] : [];
  // the point for now comes last, replacing a kept one at the same time: one time is one point, in order
  const kept = (paper?.history ?? []).filter(([t]) => t < (view?.now ?? 0));
  const points: HistoryPoint[] = [...kept, ...now];
  const periods = PERIODS.map(([name, span]) => [name, period(points, paper, (view?.now ?? 0) - span)] as const);
  const perp = periods.map(([name, data]) => [`perp${name[0]!.toUpperCase()}${name.slice(1)}`, data] as const);
  return [...periods, ...perp];
}

function period(all: HistoryPoint[], paper: PaperAccount | undefined, since: number) {
  const points = all.filter(([t]) => t >= since);
  const first = points[0];
  if (!paper || !first) return { accountValueHistory: [], pnlHistory: [], vlm: '0.0' };
  const last = points[points.length - 1]!;
  return {
    accountValueHistory: points.map(([t, v]) => [t, usd(v)]),
    pnlHistory: points.map(([t, v]) => [t, usd(v - first[1])]),
    vlm: usd(last[2] - first[2]),
  };
}
