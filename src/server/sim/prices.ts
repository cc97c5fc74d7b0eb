// The simulated perp market: each asset of runtime/market.ts drifts around its base price along a
// path that is a pure function of the seed and the step, so any step's price costs O(1) (no walk
// to replay) and the same seed and clock always give the same market.
import { ASSETS, assetInfo, digest, mulberry32, seededRng } from '../runtime/market.js';
import { scenarioFactor, type Market } from './scenario.js';

/** One simulated step: a minute of market time. */
export const STEP_MS = 60_000;

interface Path {
  amps: number[];
  periods: number[];
  phases: number[];
  noise: number;
  /** the tick noise's own seed */
  salt: number;
}

/**
 * The chains' own coins the agents' market does not quote but a wallet is valued in (POL on polygon,
 * BNB on bsc): simulated the same way, quoted only by allMids.
 */
const CHAIN_COINS = [
  { symbol: 'POL', base: 0.46, volatility: 6 },
  { symbol: 'BNB', base: 688, volatility: 4 },
];
const infoOf = (symbol: string) => assetInfo(symbol) ?? CHAIN_COINS.find((c) => c.symbol === symbol);

/** paths by seed, then symbol: a read walks thousands of prices, so finding one must cost next to nothing */
const paths = new Map<string, Map<string, Path & { base: number }>>();

function pathOf(seed: string, symbol: string): (Path & { base: number }) | undefined {
  let bySymbol = paths.get(seed);
  if (!bySymbol) {
    if (paths.size > 100) paths.clear();
    paths.set(seed, (bySymbol = new Map()));
  }
  let path = bySymbol.get(symbol);
  if (!path) {
    const info = infoOf(symbol);
    if (!info) return undefined;
    const rng = seededRng('sim-path', seed, symbol);
    const v = info.volatility / 100;
    path = {
      base: info.base,
      // a multi-day swing, a daily one and an hourly ripple, sized by the asset's volatility
      amps: [v * 1.2, v * 0.6, v * 0.2],
      periods: [4320 * (0.7 + rng()), 1440 * (0.7 + rng()), 97 * (0.7 + rng())],
      phases: [rng(), rng(), rng()].map((p) => p * 2 * Math.PI),
      noise: v * 0.05,
      salt: parseInt(digest('sim-tick', seed, symbol).slice(0, 8), 16),
    };
    bySymbol.set(symbol, path);
  }
  return path;
}

/** A float in [-0.5, 0.5) from the path's salt and the step (no sha256 per tick: reads walk many). */
function jitter(salt: number, step: number): number {
  return mulberry32(salt ^ Math.imul(step | 0, 0x9e3779b1))() - 0.5;
}

/** The mark price of `symbol` at `step` in `market` (its path shaped by the scenario), six significant digits. */
export function priceAt(market: Market, symbol: string, step: number): number {
  const p = pathOf(market.seed, symbol);
  if (!p) throw new Error(`no simulated market for ${symbol}`);
  let x = p.noise * jitter(p.salt, step);
  for (let i = 0; i < p.amps.length; i++) {
    x += p.amps[i]! * Math.sin((2 * Math.PI * step) / p.periods[i]! + p.phases[i]!);
  }
  return sig6(p.base * Math.exp(x) * scenarioFactor(market, step));
}

/** Six significant digits without a string round trip (roundSig's toPrecision is slow on this path). */
function sig6(x: number): number {
  const scale = 10 ** (5 - Math.floor(Math.log10(x)));
  return Math.round(x * scale) / scale;
}

/** Every asset's mid at `step`, as allMids answers it (decimal strings). */
export function midsAt(market: Market, step: number): Record<string, string> {
  const mids: Record<string, string> = {};
  for (const a of [...ASSETS, ...CHAIN_COINS]) mids[a.symbol] = dec(priceAt(market, a.symbol, step));
  return mids;
}

/**
 * A number as a plain decimal string (never exponent notation, never NaN), at most `decimals`
 * places, trailing zeros dropped but one kept after the point ("0.0", "12.5"), as Hyperliquid writes them.
 */
export function dec(value: number, decimals = 8): string {
  if (!Number.isFinite(value)) return '0.0';
  // a value below 1 gets as many more places as it has leading zeros: 0.0000245 keeps its digits
  const leadingZeros = Math.max(0, -Math.floor(Math.log10(Math.abs(value) || 1)) - 1);
  let s = value.toFixed(Math.min(20, Math.max(0, decimals + leadingZeros)));
  if (s.includes('.')) s = s.replace(/0+$/, '').replace(/\.$/, '.0');
  else s += '.0';
  return s === '-0.0' ? '0.0' : s;
}

/** A decimal string ("12.5") in base units of `decimals` places: exact, bigint. */
export function toUnits(amount: string, decimals: number): bigint {
  const m = /^(\d{1,78})(?:\.(\d{1,255}))?$/.exec(amount);
  if (!m) throw new Error(`not a decimal amount: ${amount.slice(0, 40)}`);
  const frac = (m[2] ?? '').slice(0, decimals).padEnd(decimals, '0');
  return BigInt(m[1]! + frac);
}

/** Base units back to an exact decimal string ("12.5"). */
export function fromUnits(units: bigint, decimals: number): string {
  const s = units.toString().padStart(decimals + 1, '0');
  if (decimals === 0) return s;
  const frac = s.slice(-decimals).replace(/0+$/, '');
  return s.slice(0, -decimals) + (frac ? `.${frac}` : '');
}
