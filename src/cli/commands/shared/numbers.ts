// Option values a command checks itself as numbers (a port, a limit, an interval), refused in one
// line that names the flag.
import { UsageError } from '../../../core/errors.js';

/** An option's value as a whole number within a range, or a usage error naming the flag. */
export function parseInteger(flag: string, value: unknown, range: { min?: number; max?: number } = {}): number {
  // written out in decimal digits: Number() would also take 0x10, 1e3, 0b11 or ' 5'
  const written = typeof value === 'string' && /^-?[0-9]+$/.test(value);
  const n = typeof value === 'number' ? value : written ? Number(value) : NaN;
  const { min = -Infinity, max = Infinity } = range;
  if (typeof value === 'string' && value.trim() === '') throw new UsageError(`${flag} needs a whole number`);
  if (!Number.isInteger(n) || n < min || n > max) {
    const bounds = max === Infinity ? `at least ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`${flag} must be a whole number ${bounds}, not '${String(value)}'`);
  }
  return n;
}

/** An option's value as a number within a range (decimals allowed), or a usage error naming the flag. */
export function parseNumber(flag: string, value: unknown, range: { min?: number; max?: number } = {}): number {
  const n = Number(value);
  const { min = -Infinity, max = Infinity } = range;
  const blank = value === undefined || (typeof value === 'string' && value.trim() === '');
  if (blank || !Number.isFinite(n) || n < min || n > max) {
    throw new UsageError(`${flag} must be a number from ${min} to ${max}, not '${String(value)}'`);
  }
  return n;
}

/**
 * A limit written as a plain decimal (`12.5`; no exponent, sign or hex, which read as something else)
 * within [min, max], `open`: min itself excluded, `below`: max itself excluded; else a usage error saying
 * the range once.
 */
export function parseDecimal(
  flag: string,
  text: string,
  { min = 0, max = Infinity, open = false, below = false } = {},
): number {
  const n = /^\s*\d+(\.\d+)?\s*$/.test(text) ? Number(text) : NaN;
  if (Number.isFinite(n) && (open ? n > min : n >= min) && (below ? n < max : n <= max)) return n;
  const upTo = Number.isFinite(max) ? ` and ${below ? 'below' : 'at most'} ${max}` : '';
  const range = `${open ? 'above' : 'at least'} ${min}${upTo}`;
  throw new UsageError(`${flag} must be a plain decimal number ${range}, not '${text}'`);
}
