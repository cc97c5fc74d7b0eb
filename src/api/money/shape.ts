// Checks for the JSON a money source sends: each failure is one line naming the host and the field,
// so that the source fails as a whole (never a silent zero).
import { BadAnswerError } from '../../core/errors.js';
import { parseDecimal } from './decimal.js';

export type Fields = Record<string, unknown>;

export function record(value: unknown, what: string): Fields {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new BadAnswerError(`${what} is missing or not an object`);
  }
  return value as Fields;
}

export function list(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new BadAnswerError(`${what} is missing or not a list`);
  return value;
}

/** A short printable string (a coin, a title), at most `max` characters. */
export function text(value: unknown, what: string, max = 200): string {
  const printable = typeof value === 'string' && !/[^\x20-\x7e\u00a0-\uffff]/.test(value);
  if (!printable || value.length === 0 || value.length > max) {
    throw new BadAnswerError(`${what} is missing or not a short text`);
  }
  return value;
}

export const decimal = parseDecimal;

/** A decimal that counts something held (a balance, a size, a price): never below zero. */
export function amount(value: unknown, what: string): string {
  const parsed = parseDecimal(value, what);
  if (parsed.startsWith('-')) throw new BadAnswerError(`${what} is negative (${parsed.slice(0, 24)})`);
  return parsed;
}

/** A price: above zero, since a zero or negative price would value a holding at nothing or less. */
export function price(value: unknown, what: string): string {
  const parsed = parseDecimal(value, what);
  if (parsed.startsWith('-') || parsed === '0')
    throw new BadAnswerError(`${what} is not above zero (${parsed.slice(0, 24)})`);
  return parsed;
}

/** Fails when `key` was seen before in this list: a row sent twice would be counted twice. */
export function once(seen: Set<string>, key: string, what: string): void {
  if (seen.has(key)) throw new BadAnswerError(`${what} lists ${key.slice(0, 44)} twice`);
  seen.add(key);
}

/** An integer a source uses as an id or a time in ms. */
export function integer(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new BadAnswerError(`${what} is not a whole number`);
  }
  return value;
}

/** The first of January 3000, in ms: a later time is no real one (and would not print as a date). */
const MAX_TIME_MS = 32_503_680_000_000;

/** A time in ms since 1970, after 1970 and before the year 3000. */
export function timeMs(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0 || value > MAX_TIME_MS) {
    throw new BadAnswerError(`${what} is not a time in ms (${String(value).slice(0, 24)})`);
  }
  return value;
}
