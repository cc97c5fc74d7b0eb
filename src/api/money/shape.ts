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
