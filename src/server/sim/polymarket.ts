// A paper Polymarket account and the agent that bets with it: a few simulated binary markets whose
// prices move with the step, and small buys and sells paid in the account's cash, which is the
// USDC.e it holds on polygon (Polymarket's collateral): what a bet costs leaves that balance, what a
// sale brings comes back, so no money appears but the one deposit made when the skill first runs.
// Amounts are exact: cash in USDC.e base units (6 decimals), shares in hundredths, prices in thousandths.
import { between, digest, mulberry32, pick } from '../runtime/market.js';
import { MAX_STEPS_PER_ADVANCE } from './paper.js';

export interface PmMarket {
  title: string;
  slug: string;
  eventSlug: string;
  endDate: string;
  icon: string;
}

/** [ours] the simulated markets: titles of the kind Polymarket lists, resolved far enough ahead */
export const PM_MARKETS: readonly PmMarket[] = [
  ['Will BTC close above $120,000 on December 31?', 'btc-price-end-of-year', 'btc'],
  ['Will ETH close above $4,000 on December 31?', 'eth-price-end-of-year', 'eth'],
  ['Will SOL reach $300 before July?', 'sol-price-targets', 'sol'],
  ['Fed cuts rates at the next meeting?', 'fed-decision', 'fed'],
  ['Will a spot SOL ETF be approved this year?', 'sol-etf-approval', 'sol'],
  ['Will HYPE flip LINK by market cap this quarter?', 'hype-vs-link', 'hype'],
].map(([title, eventSlug, icon]) => ({
  title: title!,
  slug: title!
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, ''),
  eventSlug: eventSlug!,
  endDate: '2026-12-31',
  icon: `https://polymarket-upload.s3.us-east-2.amazonaws.com/${icon}.png`,
}));

export const OUTCOMES = ['Yes', 'No'] as const;

export interface PmPosition {
  market: number;
  outcome: 0 | 1;
  /** shares, in hundredths */
  size: number;
  /** what the shares cost, in USDC.e base units (their average price is cost / size) */
  cost: number;
  /** shares bought in all, in hundredths */
  bought: number;
}

export interface PmAccount {
  /** USDC.e on polygon, in base units, as a decimal string (bigint) */
  cash: string;
  /** whether the one deposit was made (the first step the agent ran with the skill) */
  funded: boolean;
  positions: PmPosition[];
  step: number;
}

export interface PmContext {
  seed: string;
  who: string;
  trading: boolean;
  /** what the deposit brings, in USDC.e base units */
  deposit: bigint;
}

const ACT_CHANCE = 0.05;
const MAX_POSITIONS = 3;
const UNITS = 1_000_000n;

export const newPmAccount = (step: number): PmAccount => ({ cash: '0', funded: false, positions: [], step });

/** The token id of one outcome of one market: a uint256 in decimal, stable for the seed. */
export function assetId(seed: string, market: number, outcome: number): string {
  return BigInt(`0x${digest('sim-pm-asset', seed, String(market), String(outcome))}`).toString();
}

export function conditionId(seed: string, market: number): string {
  return `0x${digest('sim-pm-condition', seed, String(market))}`;
}

/** The price of Yes in thousandths (20..980): a slow swing and a daily one around the market's own level. */
export function yesPrice(seed: string, market: number, step: number): number {
  const rng = mulberry32(parseInt(digest('sim-pm-path', seed, String(market)).slice(0, 8), 16));
  const level = between(rng, -1.2, 1.2);
  const [p1, p2, f1, f2] = [rng() * 6.3, rng() * 6.3, 2000 + rng() * 3000, 600 + rng() * 900];
  const x = level + 0.9 * Math.sin(step / f1 + p1) + 0.25 * Math.sin(step / f2 + p2);
  return Math.min(980, Math.max(20, Math.round(1000 / (1 + Math.exp(-x)))));
}

export const outcomePrice = (seed: string, market: number, outcome: number, step: number): number =>
  outcome === 0 ? yesPrice(seed, market, step) : 1000 - yesPrice(seed, market, step);

/** Brings the account to `to` (at most MAX_STEPS_PER_ADVANCE steps walked; a longer gap is held). */
export function advancePm(a: PmAccount, to: number, ctx: PmContext): void {
  if (to < a.step) a.step = to;
  if (to - a.step > MAX_STEPS_PER_ADVANCE) a.step = to - MAX_STEPS_PER_ADVANCE;
  if (!ctx.trading) {
    a.step = to;
    return;
  }
  const salt = parseInt(digest('sim-pm-agent', ctx.seed, ctx.who).slice(0, 8), 16);
  for (let k = a.step + 1; k <= to; k++) {
    if (!a.funded) {
      a.cash = (BigInt(a.cash) + ctx.deposit).toString();
      a.funded = true;
    }
    const rng = mulberry32(salt ^ Math.imul(k | 0, 0x27d4eb2f) ^ Math.floor(k / 2 ** 32));
    if (rng() >= ACT_CHANCE) continue;
    if (a.positions.length === 0 || (a.positions.length < MAX_POSITIONS && rng() < 0.6)) buy(a, k, ctx, rng);
    else sell(a, pick(rng, a.positions), k, ctx);
  }
  a.step = to;
}

/** A small bet: $5 to $25 and at most a tenth of the cash, in whole hundredths of a share. */
function buy(a: PmAccount, k: number, ctx: PmContext, rng: () => number): void {
  const market = Math.floor(rng() * PM_MARKETS.length);
  const outcome = rng() < 0.5 ? 0 : 1;
  const price = outcomePrice(ctx.seed, market, outcome, k);
  const cash = BigInt(a.cash);
  const budget = Math.min(between(rng, 5, 25), Number(cash / UNITS) / 10);
  const size = Math.floor((budget * 100_000) / price); // hundredths of a share
  if (size <= 0) return;
  const cost = BigInt(size) * BigInt(price) * 10n; // hundredths × thousandths of a dollar = units / 10
  if (cost > cash) return;
  a.cash = (cash - cost).toString();
  const held = a.positions.find((p) => p.market === market && p.outcome === outcome);
  if (held) {
    held.size += size;
    held.cost += Number(cost);
    held.bought += size;
  } else a.positions.push({ market, outcome, size, cost: Number(cost), bought: size });
}

/** Sells the whole position at the current price: its proceeds back into the cash. */
function sell(a: PmAccount, p: PmPosition, k: number, ctx: PmContext): void {
  const proceeds = BigInt(p.size) * BigInt(outcomePrice(ctx.seed, p.market, p.outcome, k)) * 10n;
  a.cash = (BigInt(a.cash) + proceeds).toString();
  a.positions = a.positions.filter((q) => q !== p);
}

const round = (x: number, places: number) => Math.round(x * 10 ** places) / 10 ** places;

/** The data API's positions of `user` at `step`, in its public shape (numbers are JSON numbers). */
export function pmPositions(seed: string, user: string, a: PmAccount | undefined, step: number) {
  return (a?.positions ?? []).map((p) => {
    const m = PM_MARKETS[p.market]!;
    const size = p.size / 100;
    const initial = p.cost / 1e6;
    const cur = outcomePrice(seed, p.market, p.outcome, step) / 1000;
    const current = (p.size * outcomePrice(seed, p.market, p.outcome, step)) / 1e5;
    return {
      proxyWallet: user.toLowerCase(),
      asset: assetId(seed, p.market, p.outcome),
      conditionId: conditionId(seed, p.market),
      size,
      avgPrice: round(initial / size, 6),
      initialValue: round(initial, 6),
      currentValue: round(current, 6),
      cashPnl: round(current - initial, 6),
      percentPnl: round(((current - initial) / initial) * 100, 4),
      totalBought: p.bought / 100,
      realizedPnl: 0,
      percentRealizedPnl: 0,
      curPrice: cur,
      redeemable: false,
      mergeable: false,
      title: m.title,
      slug: m.slug,
      icon: m.icon,
      eventSlug: m.eventSlug,
      outcome: OUTCOMES[p.outcome],
      outcomeIndex: p.outcome,
      oppositeOutcome: OUTCOMES[1 - p.outcome],
      oppositeAsset: assetId(seed, p.market, 1 - p.outcome),
      endDate: m.endDate,
      negativeRisk: false,
    };
  });
}

/** The data API's value of `user`: the positions' current value, in dollars. */
export function pmValue(seed: string, user: string, a: PmAccount | undefined, step: number) {
  const units = (a?.positions ?? []).reduce((s, p) => s + p.size * outcomePrice(seed, p.market, p.outcome, step), 0);
  return [{ user: user.toLowerCase(), value: round(units / 1e5, 6) }];
}
