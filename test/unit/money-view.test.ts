// Dollar figures as the money commands show them (src/cli/commands/shared/money-view.ts): cents for
// any real value, and a huge one (a hostile source's) in plain digits, never an exponent or false cents.
import { describe, expect, it } from 'vitest';
import { cents, usd } from '../../src/cli/commands/shared/money-view.js';

describe('dollar figures', () => {
  it.each([
    [10000, '10000.00', '$10,000.00'],
    [-5.25, '-5.25', '-$5.25'],
    [0, '0.00', '$0.00'],
    [999_999_999_999.99, '999999999999.99', '$999,999,999,999.99'],
  ])('%d: to the cent', (value, plain, shown) => {
    expect([cents(value), usd(value)]).toEqual([plain, shown]);
  });

  it.each([
    [1e78, `1${'0'.repeat(78)}`, `$1${',000'.repeat(26)}`],
    [1e30, `1${'0'.repeat(30)}`, `$1${',000'.repeat(10)}`],
    [-1e22, `-1${'0'.repeat(22)}`, `-$10${',000'.repeat(7)}`],
    [Number('123456789012345678.13'), '123456789012345680', '$123,456,789,012,345,680'],
  ])('%d, past what a float holds to the cent: whole dollars, no exponent', (value, plain, shown) => {
    expect([cents(value), usd(value)]).toEqual([plain, shown]);
  });
});
