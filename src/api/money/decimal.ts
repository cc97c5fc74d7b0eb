// Exact decimal arithmetic on strings, for amounts the sources send (an amount is never a float: 0.1 + 0.2
// is "0.3"). A value is an integer and a count of decimal places; bigint does the work, so any token's
// decimals (0..255, a hostile one may claim 255) stay exact and fast.
import { BadAnswerError } from '../../core/errors.js';

/** Bounded so that a hostile answer cannot make us build huge numbers. */
const DECIMAL = /^-?\d{1,78}(\.\d{1,255})?$/;
const MAX_DECIMALS = 255;

interface Scaled {
  /** the value times 10^places */
  n: bigint;
  places: number;
}

const TEN = 10n;
const pow10 = (k: number): bigint => TEN ** BigInt(k);

/** A short, printable preview of what a source sent, for a message. */
function preview(value: unknown): string {
  // cut first: a hostile answer may send megabytes where a number belongs
  const text = typeof value === 'string' ? JSON.stringify(value.slice(0, 30)) : String(value).slice(0, 30);
  const printable = text.replace(/[^\x20-\x7e]/g, '?');
  return printable.length > 24 ? `${printable.slice(0, 24)}…` : printable;
}

/** A JSON number written out in plain decimals (1e-7 → "0.0000001"), or null when it is not finite. */
function plainNumber(value: number): string | null {
  if (!Number.isFinite(value)) return null;
  const text = String(value);
  const m = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const [, sign, whole, frac = '', exp] = m;
  const digits = `${whole}${frac}`;
  const point = (whole?.length ?? 0) + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

function scaledOf(text: string): Scaled {
  const negative = text.startsWith('-');
  const body = negative ? text.slice(1) : text;
  const [whole = '0', frac = ''] = body.split('.');
  const n = BigInt(`${whole}${frac}`);
  return { n: negative ? -n : n, places: frac.length };
}

function textOf({ n, places }: Scaled): string {
  const negative = n < 0n;
  let digits = (negative ? -n : n).toString();
  if (places > 0) {
    digits = digits.padStart(places + 1, '0');
    const whole = digits.slice(0, digits.length - places);
    const frac = digits.slice(digits.length - places).replace(/0+$/, '');
    digits = frac ? `${whole}.${frac}` : whole;
  }
  return negative && digits !== '0' ? `-${digits}` : digits;
}

/**
 * The one check every number from a source goes through: a decimal string (or a JSON number) of bounded
 * length, returned in canonical form ("01.50" → "1.5"). Anything else fails, naming `what`.
 */
export function parseDecimal(value: unknown, what: string): string {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? plainNumber(value) : null;
  if (text === null || !DECIMAL.test(text)) {
    throw new BadAnswerError(`${what} is not a decimal number (${preview(value)})`);
  }
  return textOf(scaledOf(text));
}

/** An integer count of a token's smallest units as a decimal amount: 1500000n, 6 → "1.5". */
export function formatUnits(raw: bigint, decimals: number): string {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > MAX_DECIMALS) {
    const range = `a whole number from 0 to ${MAX_DECIMALS}`;
    throw new BadAnswerError(`a token's decimals must be ${range} (${preview(decimals)})`);
  }
  return textOf({ n: raw, places: decimals });
}

function aligned(a: Scaled, b: Scaled): [bigint, bigint, number] {
  const places = Math.max(a.places, b.places);
  return [a.n * pow10(places - a.places), b.n * pow10(places - b.places), places];
}

export function add(a: string, b: string): string {
  const [x, y, places] = aligned(scaledOf(a), scaledOf(b));
  return textOf({ n: x + y, places });
}

export function multiply(a: string, b: string): string {
  const x = scaledOf(a);
  const y = scaledOf(b);
  return textOf({ n: x.n * y.n, places: x.places + y.places });
}

/** -1, 0 or 1: the sign of a canonical decimal string. */
export function sign(a: string): -1 | 0 | 1 {
  const { n } = scaledOf(a);
  return n < 0n ? -1 : n > 0n ? 1 : 0;
}

export const isZero = (a: string): boolean => sign(a) === 0;

/** -1, 0 or 1 as `a` is below, equal to or above `b` (decimal strings). */
export function compare(a: string, b: string): -1 | 0 | 1 {
  const [x, y] = aligned(scaledOf(a), scaledOf(b));
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The absolute value of a decimal string. */
export const abs = (a: string): string => (a.startsWith('-') ? a.slice(1) : a);

/** Whole cents, rounded half away from zero. */
function cents(a: string): bigint {
  const { n, places } = scaledOf(a);
  if (places <= 2) return n * pow10(2 - places);
  const unit = pow10(places - 2);
  const magnitude = n < 0n ? -n : n;
  const rounded = (magnitude + unit / 2n) / unit;
  return n < 0n ? -rounded : rounded;
}

const centsToNumber = (c: bigint): number => Number(c) / 100;

/** A decimal amount of US dollars as a number of dollars, rounded to cents. */
export const usdNumber = (usd: string): number => centsToNumber(cents(usd));

/** amount × price in dollars, computed exactly and then rounded to cents. */
export function toUsd(amount: string, price: string): number {
  return usdNumber(multiply(amount, price));
}

/** The total of exact dollar amounts, summed exactly and rounded to cents once. */
export function sumUsd(values: readonly string[]): number {
  return usdNumber(values.reduce((total, v) => add(total, v), '0'));
}
