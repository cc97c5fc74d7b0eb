// Exact decimal strings for amounts (src/api/money/decimal.ts): never a float, any decimals 0..255.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BadAnswerError } from '../../src/core/errors.js';
import { add, formatUnits, multiply, parseDecimal, sign, sumUsd, toUsd } from '../../src/api/money/decimal.js';

/** A canonical decimal string from an integer and a count of places. */
const decimalArb = fc
  .tuple(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.integer({ min: 0, max: 255 }))
  .map(([n, places]) => formatUnits(n, places));

describe('parseDecimal', () => {
  it('accepts decimal strings and JSON numbers, in canonical form', () => {
    expect(parseDecimal('0.0', 'x')).toBe('0');
    expect(parseDecimal('-0.000', 'x')).toBe('0');
    expect(parseDecimal('007.2500', 'x')).toBe('7.25');
    expect(parseDecimal(12.5, 'x')).toBe('12.5');
    expect(parseDecimal(1e-7, 'x')).toBe('0.0000001');
    expect(parseDecimal(1.5e21, 'x')).toBe('1500000000000000000000');
  });

  const malformed = ['1e5', '', '.5', '5.', '1,5', ' 1', 'NaN', '0x10', null, true, Infinity, {}, '9'.repeat(79)];
  it.each(malformed.map((bad) => [bad]))('refuses %j with one line naming what it is', (bad) => {
    let err: unknown;
    try {
      parseDecimal(bad, 'the account value');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BadAnswerError);
    const message = (err as Error).message;
    expect(message).toMatch(/^the account value is not a decimal number \(/);
    expect(message).not.toContain('\n');
    expect(message.length).toBeLessThan(80);
  });

  it('names a huge non-number briefly', () => {
    const huge = '7'.repeat(4_000_000);
    expect(() => parseDecimal(huge, 'the value')).toThrow(/^the value is not a decimal number \("7{23}…\)$/);
  });

  it('round-trips every canonical decimal', () => {
    fc.assert(fc.property(decimalArb, (d) => parseDecimal(d, 'x') === d));
  });
});

describe('arithmetic', () => {
  it('adds exactly: 0.1 + 0.2 is 0.3', () => {
    expect(add('0.1', '0.2')).toBe('0.3');
    expect(add('-1.5', '1.5')).toBe('0');
    expect(multiply('1.5', '3450.1')).toBe('5175.15');
  });

  it('a + b - b is a, and a × 1 is a', () => {
    fc.assert(fc.property(decimalArb, decimalArb, (a, b) => add(add(a, b), multiply(b, '-1')) === a));
    fc.assert(fc.property(decimalArb, (a) => multiply(a, '1') === a && sign(multiply(a, '0')) === 0));
  });

  it('formats 255 decimals exactly and fast', () => {
    const raw = 10n ** 300n + 1n;
    const text = formatUnits(raw, 255);
    expect(text).toBe(`1${'0'.repeat(45)}.${'0'.repeat(254)}1`);
    expect(formatUnits(1n, 255)).toBe(`0.${'0'.repeat(254)}1`);
    for (let i = 0; i < 2_000; i++) add(formatUnits(BigInt(i) * raw, 255), text);
  });

  it('refuses decimals outside 0..255', () => {
    expect(() => formatUnits(1n, 256)).toThrow(/decimals must be a whole number from 0 to 255/);
    expect(() => formatUnits(1n, 1.5)).toThrow(BadAnswerError);
  });
});

describe('dollars', () => {
  it('values to the cent, half away from zero, computed exactly', () => {
    expect(toUsd('1.005', '1')).toBe(1.01);
    expect(toUsd('-1.005', '1')).toBe(-1.01);
    expect(toUsd('0.1', '0.2')).toBe(0.02);
    expect(toUsd('2.5', '187.3')).toBe(468.25);
    expect(toUsd(`0.${'0'.repeat(254)}1`, '3450')).toBe(0);
  });

  it('sums exactly, then rounds once', () => {
    expect(sumUsd(['0.004', '0.004', '0.004'])).toBe(0.01);
    expect(sumUsd([])).toBe(0);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1e9, max: 1e9 }), { maxLength: 20 }), (cents) => {
        const sum = sumUsd(cents.map((c) => formatUnits(BigInt(c), 2)));
        return sum === cents.reduce((a, b) => a + b, 0) / 100;
      }),
    );
  });
});
