// The figures a message names (src/server/runtime/amounts.ts). Its patterns were made linear (the
// old ones were quadratic on long input): on ordinary text, within their bounds, they must read
// exactly what the old ones read.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leverageCap, requestedAmount, requestedLeverage, requestedUsd } from '../../src/server/runtime/amounts.js';

/** The old patterns, as the oracle (quadratic on long input, fine on short). */
const legacy = {
  usd(message: string): number | null {
    const m =
      /\$\s?(\d[\d,]*(?:\.\d+)?)\s*(k|m)?\b/i.exec(message) ??
      /\b(\d[\d,]*(?:\.\d+)?)\s*(k|m)?\s*(?:usd|usdc|usdt|dollars|bucks)\b/i.exec(message);
    if (!m || !m[1]) return null;
    let n = Number(m[1].replace(/,/g, ''));
    if (m[2]?.toLowerCase() === 'k') n *= 1_000;
    if (m[2]?.toLowerCase() === 'm') n *= 1_000_000;
    return Number.isFinite(n) && n > 0 ? n : null;
  },
  leverage(message: string): number | null {
    const m = /\b(\d+(?:\.\d+)?)\s?x\b/i.exec(message) ?? /\bleverage\s+(?:of\s+)?(\d+(?:\.\d+)?)\b/i.exec(message);
    if (!m || !m[1]) return null;
    const n = Number(m[1]);
    return Number.isFinite(n) && n >= 1 ? Math.min(n, 50) : null;
  },
  cap(rule: string): number | null {
    if (!/leverag/i.test(rule)) return null;
    const m = /(\d+(?:\.\d+)?)\s?x\b/i.exec(rule);
    if (m && m[1]) return Math.max(1, Number(m[1]));
    if (/\b(never|no|don't|do not|avoid|without)\b/i.test(rule)) return 1;
    return null;
  },
  amount(message: string): { amount: number; word: string } | null {
    const m = /\b(\d+(?:\.\d+)?)\s*\$?([A-Za-z]+)\b/.exec(message);
    return m && m[1] && m[2] ? { amount: Number(m[1]), word: m[2] } : null;
  },
};

describe('amounts', () => {
  it.each([
    ['long BTC with $5,000', 5000],
    ['stake $1,000, then wait', 1000],
    ['$1.5k on it', 1500],
    ['$ 250 please', 250],
    ['bet 2.5k usdc', 2500],
    ['swap 300 dollars of SOL', 300],
    ['1,000,usd', 1000],
    ['5.5.5 usd', 5.5],
    ['$5kb, or $7', 7],
    ['2m bucks', 2_000_000],
    ['no figure here', null],
    ['$0', null],
  ])('requestedUsd(%j) → %j', (message, expected) => {
    expect(requestedUsd(message)).toBe(expected);
  });

  it.each([
    ['go 3x long', 3],
    ['2.5X on ETH', 2.5],
    ['use leverage of 5', 5],
    ['100x please', 50],
    ['0.5x', null],
    ['max2x', null],
  ])('requestedLeverage(%j) → %j', (message, expected) => {
    expect(requestedLeverage(message)).toBe(expected);
  });

  it('reads caps and token amounts', () => {
    expect(leverageCap('Never use leverage above max2x.')).toBe(2);
    expect(leverageCap('No leverage, ever.')).toBe(1);
    expect(leverageCap('Keep stops tight.')).toBeNull();
    expect(requestedAmount('swap 2.5 $sol to usdc')).toEqual({ amount: 2.5, word: 'sol' });
    expect(requestedAmount('nothing')).toBeNull();
  });

  it('reads what the old patterns read, on short text within the new bounds (property)', () => {
    const short = fc
      .array(
        fc.constantFrom(
          '1',
          '0',
          '5',
          ',',
          '.',
          ' ',
          '\n',
          '$',
          'k',
          'm',
          'x',
          'usd',
          'usdc',
          'dollars',
          'bucks',
          'leverage',
          'of',
          'sol',
          'no',
          'a',
        ),
        { maxLength: 12 },
      )
      .map((parts) => parts.join(''))
      // the new bounds: at most 4 spaces around a unit, 9 digits of leverage, 31 characters of a figure
      .filter((s) => s.length <= 30 && !/\s{5}/.test(s) && !/\d{5}/.test(s) && !/[A-Za-z]{20}/.test(s));
    fc.assert(
      fc.property(short, (text) => {
        expect(requestedUsd(text)).toBe(legacy.usd(text));
        expect(requestedLeverage(text)).toBe(legacy.leverage(text));
        expect(leverageCap(text)).toBe(legacy.cap(text));
        expect(requestedAmount(text)).toEqual(legacy.amount(text));
      }),
      { numRuns: 3000 },
    );
  });
});
