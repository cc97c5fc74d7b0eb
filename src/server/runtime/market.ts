// A simulated market: deterministic quotes seeded from the caller's inputs (docs/api.md).
// Pure: no clock, no Math.random(), no I/O. Every variation comes from sha256 of the seed.

import { createHash } from 'node:crypto';

export interface Quote {
  symbol: string;
  price: number;
  /** percent over 24 h, two decimals */
  change24h: number;
}

export interface AssetInfo {
  symbol: string;
  name: string;
  /** reference price in USD the simulation drifts around */
  base: number;
  /** typical 24 h swing in percent: majors move less than memecoins */
  volatility: number;
  /** rough circulating supply, for market-cap style figures */
  supply: number;
  meme: boolean;
}

/** [ours] The simulated universe, in the order snapshots list it. */
export const ASSETS: readonly AssetInfo[] = [
  { symbol: 'BTC', name: 'Bitcoin', base: 97_250, volatility: 3, supply: 19_800_000, meme: false },
  { symbol: 'ETH', name: 'Ethereum', base: 3_420, volatility: 4, supply: 120_500_000, meme: false },
  { symbol: 'SOL', name: 'Solana', base: 192.4, volatility: 5, supply: 480_000_000, meme: false },
  { symbol: 'HYPE', name: 'Hyperliquid', base: 27.8, volatility: 7, supply: 334_000_000, meme: false },
  { symbol: 'JUP', name: 'Jupiter', base: 0.86, volatility: 6, supply: 2_700_000_000, meme: false },
  { symbol: 'BONK', name: 'Bonk', base: 0.0000245, volatility: 9, supply: 77_000_000_000_000, meme: true },
  { symbol: 'WIF', name: 'dogwifhat', base: 1.84, volatility: 9, supply: 999_000_000, meme: true },
  { symbol: 'DOGE', name: 'Dogecoin', base: 0.33, volatility: 6, supply: 147_000_000_000, meme: true },
  { symbol: 'PEPE', name: 'Pepe', base: 0.0000128, volatility: 9, supply: 420_000_000_000_000, meme: true },
  { symbol: 'XRP', name: 'XRP', base: 2.31, volatility: 5, supply: 57_000_000_000, meme: false },
  { symbol: 'AVAX', name: 'Avalanche', base: 36.2, volatility: 5, supply: 410_000_000, meme: false },
  { symbol: 'LINK', name: 'Chainlink', base: 20.6, volatility: 5, supply: 626_000_000, meme: false },
  { symbol: 'ARB', name: 'Arbitrum', base: 0.74, volatility: 6, supply: 4_300_000_000, meme: false },
  { symbol: 'OP', name: 'Optimism', base: 1.92, volatility: 6, supply: 1_500_000_000, meme: false },
];

const BY_SYMBOL = new Map(ASSETS.map((a) => [a.symbol, a]));

export function assetInfo(symbol: string): AssetInfo | undefined {
  return BY_SYMBOL.get(symbol.toUpperCase());
}

// ---------------------------------------------------------------------------------------------
// Seeded randomness

/** sha256 of the parts (joined with NUL so ['ab','c'] and ['a','bc'] differ), as hex. */
export function digest(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}

/** mulberry32: a tiny PRNG returning floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A PRNG seeded from sha256 of the parts. */
export function seededRng(...parts: string[]): () => number {
  return mulberry32(parseInt(digest(...parts).slice(0, 8), 16));
}

/** Uniform float in [min, max). */
export function between(rng: () => number, min: number, max: number): number {
  return min + (max - min) * rng();
}

/** Uniform integer in [min, max]. */
export function intBetween(rng: () => number, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

export function pick<T>(rng: () => number, items: readonly T[]): T {
  if (items.length === 0) throw new Error('pick from an empty list');
  return items[Math.floor(rng() * items.length)] as T;
}

// ---------------------------------------------------------------------------------------------
// Snapshot

/** Round to `digits` significant digits (prices of memecoins stay meaningful). */
export function roundSig(value: number, digits = 6): number {
  if (value === 0 || !Number.isFinite(value)) return value;
  return Number(value.toPrecision(digits));
}

export function round2(value: number): number {
  const r = Math.round(value * 100) / 100;
  return Object.is(r, -0) ? 0 : r;
}

/**
 * Every asset of the universe with a price drifted a few percent from its base and a 24 h
 * change, both derived from `seed` alone: the same seed always gives the same snapshot.
 */
export function marketSnapshot(seed: string): Quote[] {
  const rng = seededRng('market-snapshot', seed);
  return ASSETS.map((asset) => {
    const drift = between(rng, -0.04, 0.04);
    const change = between(rng, -asset.volatility, asset.volatility);
    return {
      symbol: asset.symbol,
      price: roundSig(asset.base * (1 + drift), 6),
      change24h: round2(change),
    };
  });
}

export function quoteOf(snapshot: readonly Quote[], symbol: string): Quote | undefined {
  const wanted = symbol.toUpperCase();
  return snapshot.find((q) => q.symbol === wanted);
}

// ---------------------------------------------------------------------------------------------
// Finding symbols in free text

/** Common names (lower case) → ticker. */
const NAMES: Readonly<Record<string, string>> = {
  bitcoin: 'BTC',
  btc: 'BTC',
  xbt: 'BTC',
  ether: 'ETH',
  ethereum: 'ETH',
  eth: 'ETH',
  solana: 'SOL',
  sol: 'SOL',
  hyperliquid: 'HYPE',
  jupiter: 'JUP',
  jup: 'JUP',
  bonk: 'BONK',
  dogwifhat: 'WIF',
  wif: 'WIF',
  dogecoin: 'DOGE',
  doge: 'DOGE',
  pepe: 'PEPE',
  ripple: 'XRP',
  xrp: 'XRP',
  avalanche: 'AVAX',
  avax: 'AVAX',
  chainlink: 'LINK',
  arbitrum: 'ARB',
  optimism: 'OP',
};

/**
 * Tickers that are ordinary English words too ("link", "op", "hype", "arb"): only counted when
 * written in capitals or with a `$` ("$link").
 */
const AMBIGUOUS = new Set(['LINK', 'OP', 'HYPE', 'ARB']);

/**
 * The known tickers a text mentions, upper case, in order of first mention, without repeats:
 * tickers (`BTC`, `$sol`, `eth`) and common names (`bitcoin`, `ether`, `solana`).
 */
export function findSymbols(text: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const add = (symbol: string) => {
    if (!seen.has(symbol)) {
      seen.add(symbol);
      found.push(symbol);
    }
  };
  // Words are runs of ASCII letters and digits, optionally preceded by `$`. Bounded by
  // anything else, so "SOL/USDC", "BTC-PERP" and "(eth)" all count.
  const re = /(\$?)([A-Za-z][A-Za-z0-9]*)/g;
  for (const match of text.matchAll(re)) {
    const dollar = match[1] === '$';
    const word = match[2] ?? '';
    const upper = word.toUpperCase();
    if (BY_SYMBOL.has(upper)) {
      if (AMBIGUOUS.has(upper) && !dollar && word !== upper) continue;
      add(upper);
      continue;
    }
    const lower = word.toLowerCase();
    const byName = Object.hasOwn(NAMES, lower) ? NAMES[lower] : undefined; // never "constructor" & co.
    if (byName) add(byName);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Formatting

function groupThousands(integerDigits: string): string {
  return integerDigits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Plain number with thousands separators and the given decimals: 1234.5 → "1,234.50". */
export function formatNumber(value: number, decimals = 0): string {
  const fixed = Math.abs(value).toFixed(decimals);
  const [int = '0', frac] = fixed.split('.');
  const sign = value < 0 && Number(fixed) !== 0 ? '-' : '';
  return sign + groupThousands(int) + (frac ? `.${frac}` : '');
}

/** "$97,250", "$192.40", "$0.8600", "$0.00002450" — precision that suits the magnitude. */
export function formatUsd(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1000) return `$${formatNumber(value, 0)}`;
  if (abs >= 1) return `$${formatNumber(value, 2)}`;
  if (abs === 0) return '$0';
  // Four significant digits, never in exponent notation.
  const decimals = Math.min(12, Math.max(4, 3 - Math.floor(Math.log10(abs))));
  return `$${value.toFixed(decimals)}`;
}

/** "+2.35%", "-0.80%", "0.00%". */
export function formatPct(value: number): string {
  const r = round2(value);
  const sign = r > 0 ? '+' : '';
  return `${sign}${r.toFixed(2)}%`;
}

/** "BTC $97,250 (+1.23%)". */
/** How a set of quotes reads overall: risk-on, risk-off or mixed (by their average 24 h change). */
export function toneOf(quotes: readonly Quote[]): string {
  const avg = quotes.reduce((s, q) => s + q.change24h, 0) / Math.max(1, quotes.length);
  return avg > 1 ? 'risk-on' : avg < -1 ? 'risk-off' : 'mixed';
}

export function formatQuote(q: Quote): string {
  return `${q.symbol} ${formatUsd(q.price)} (${formatPct(q.change24h)})`;
}

/** "$1.2B", "$340.5M", "$12.3K" — compact dollars for large aggregates. */
export function formatCompactUsd(value: number): string {
  const abs = Math.abs(value);
  const units: [number, string][] = [
    [1e12, 'T'],
    [1e9, 'B'],
    [1e6, 'M'],
    [1e3, 'K'],
  ];
  for (const [size, unit] of units) {
    if (abs >= size) return `$${(value / size).toFixed(1)}${unit}`;
  }
  return formatUsd(value);
}
