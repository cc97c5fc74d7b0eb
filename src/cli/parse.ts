// Checks for option values, each failing as a usage error that names the flag.
import { UsageError } from './errors.js';

export function parseInteger(flag: string, value: unknown, range: { min?: number; max?: number } = {}): number {
  const n = typeof value === 'number' ? value : Number(value);
  const { min = -Infinity, max = Infinity } = range;
  if (typeof value === 'string' && value.trim() === '') throw new UsageError(`${flag} needs a whole number`);
  if (!Number.isInteger(n) || n < min || n > max) {
    const bounds = max === Infinity ? `at least ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`${flag} must be a whole number ${bounds}, not '${String(value)}'`);
  }
  return n;
}

export function parseNumber(flag: string, value: unknown, range: { min?: number; max?: number } = {}): number {
  const n = Number(value);
  const { min = -Infinity, max = Infinity } = range;
  if (value === undefined || (typeof value === 'string' && value.trim() === '') || !Number.isFinite(n) || n < min || n > max) {
    throw new UsageError(`${flag} must be a number from ${min} to ${max}, not '${String(value)}'`);
  }
  return n;
}
