import { describe, it, expect } from 'vitest';
import {
  ASSETS,
  findSymbols,
  formatPct,
  formatUsd,
  marketSnapshot,
  mulberry32,
  quoteOf,
  seededRng,
} from '../../src/server/runtime/market.js';

describe('marketSnapshot', () => {
  it('is deterministic for a seed', () => {
    expect(marketSnapshot('agent-1|hello|0')).toEqual(marketSnapshot('agent-1|hello|0'));
  });

  it('changes with the seed', () => {
    const a = marketSnapshot('seed-a');
    const b = marketSnapshot('seed-b');
    expect(a.map((q) => q.price)).not.toEqual(b.map((q) => q.price));
  });

  it('lists the majors and the Solana names', () => {
    const symbols = marketSnapshot('x').map((q) => q.symbol);
    for (const s of ['BTC', 'ETH', 'SOL', 'HYPE', 'BONK', 'WIF', 'JUP']) expect(symbols).toContain(s);
    expect(new Set(symbols).size).toBe(symbols.length);
  });

  it('keeps prices within a few percent of their base and changes to two decimals', () => {
    for (let i = 0; i < 50; i++) {
      for (const q of marketSnapshot(`seed-${i}`)) {
        const asset = ASSETS.find((a) => a.symbol === q.symbol)!;
        expect(q.price).toBeGreaterThan(0);
        expect(Math.abs(q.price / asset.base - 1)).toBeLessThanOrEqual(0.0401);
        expect(Math.abs(q.change24h)).toBeLessThanOrEqual(asset.volatility);
        expect(Math.round(q.change24h * 100) / 100).toBe(q.change24h);
      }
    }
  });

  it('puts BTC in a plausible range', () => {
    const btc = quoteOf(marketSnapshot('plausible'), 'btc')!;
    expect(btc.price).toBeGreaterThan(50_000);
    expect(btc.price).toBeLessThan(200_000);
    expect(quoteOf(marketSnapshot('plausible'), 'NOPE')).toBeUndefined();
  });
});

describe('seeded randomness', () => {
  it('mulberry32 gives the same sequence for the same seed and stays in [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const xs = Array.from({ length: 100 }, () => a());
    expect(Array.from({ length: 100 }, () => b())).toEqual(xs);
    for (const x of xs) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
    expect(new Set(xs).size).toBeGreaterThan(90);
  });

  it('seededRng separates its parts', () => {
    expect(seededRng('ab', 'c')()).not.toBe(seededRng('a', 'bc')());
  });
});

describe('findSymbols', () => {
  const cases: [string, string[]][] = [
    ['Should I buy BTC or ETH?', ['BTC', 'ETH']],
    ['what about bitcoin and ether', ['BTC', 'ETH']],
    ['Solana looks strong, $sol to the moon', ['SOL']],
    ['long eth-perp, short btc', ['ETH', 'BTC']],
    ['bonk and dogwifhat are memecoins; WIF too', ['BONK', 'WIF']],
    ['Jupiter (JUP) and HYPE', ['JUP', 'HYPE']],
    ['click the link, the hype is real', []],
    ['$LINK and $op', ['LINK', 'OP']],
    ['SOLANA/USDC pair', ['SOL']],
    ['nothing here', []],
    ['', []],
    ['FOO BAR BAZ', []],
    ['constructor toString __proto__ hasOwnProperty', []],
  ];
  it.each(cases)('%j → %j', (text, expected) => {
    expect(findSymbols(text)).toEqual(expected);
  });
});

describe('formatting', () => {
  it('formats dollars for the magnitude', () => {
    expect(formatUsd(97250.4)).toBe('$97,250');
    expect(formatUsd(192.4)).toBe('$192.40');
    expect(formatUsd(0.86)).toBe('$0.8600');
    expect(formatUsd(0.0000245)).toBe('$0.00002450');
  });

  it('formats percentages with a sign', () => {
    expect(formatPct(2.346)).toBe('+2.35%');
    expect(formatPct(-0.8)).toBe('-0.80%');
    expect(formatPct(0)).toBe('0.00%');
  });
});
