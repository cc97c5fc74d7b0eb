// guard's limits: what each flag says, checked before anything is read, and whether a figure is past
// its limit. A figure that could not be read is null and is never past anything (no breach on unknown).
import { parseDecimal } from '../commands/shared/numbers.js';
import { UsageError } from '../../core/errors.js';

export type RuleName = 'max-drawdown' | 'min-value' | 'max-loss';
export const RULE_NAMES: readonly RuleName[] = ['max-drawdown', 'min-value', 'max-loss'];

export interface Rules {
  'max-drawdown'?: number;
  'min-value'?: number;
  'max-loss'?: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const UNITS: Record<string, number> = { m: MINUTE, h: HOUR, d: DAY };
/** a window longer than Hyperliquid's month is read from its all-time history: a year at most */
export const MAX_WINDOW_MS = 365 * DAY;
export const DEFAULT_WINDOW_MS = 7 * DAY;

/** '7d', '24h', '90m' → milliseconds, between a minute and a year. */
export function parseWindow(text: string): number {
  const m = /^(\d{1,6})([mhd])$/.exec(text.trim());
  const hint = "a number and a unit: '7d', '24h' or '90m', from 1m to 365d";
  if (!m) throw new UsageError(`--window '${text}' is not a duration`, hint);
  const ms = Number(m[1]) * UNITS[m[2]!]!;
  if (ms < MINUTE || ms > MAX_WINDOW_MS) throw new UsageError(`--window '${text}' is out of range`, hint);
  return ms;
}

/** The window as it may be written: '7d', '24h', '90m'. */
export function windowText(ms: number): string {
  if (ms % DAY === 0) return `${ms / DAY}d`;
  return ms % HOUR === 0 ? `${ms / HOUR}h` : `${ms / MINUTE}m`;
}

export function parseRules(input: { maxDrawdown?: string; minValue?: string; maxLoss?: string }): Rules {
  const rules: Rules = {};
  // a drawdown is never above 100% nor a total below 0: such a limit could never fire
  if (input.maxDrawdown !== undefined)
    rules['max-drawdown'] = parseDecimal('--max-drawdown', input.maxDrawdown, { max: 100, open: true, below: true });
  if (input.minValue !== undefined) rules['min-value'] = parseDecimal('--min-value', input.minValue, { open: true });
  if (input.maxLoss !== undefined) rules['max-loss'] = parseDecimal('--max-loss', input.maxLoss);
  if (Object.keys(rules).length === 0) {
    throw new UsageError('give guard at least one limit', '--max-drawdown PCT, --min-value USD or --max-loss USD');
  }
  return rules;
}

/** Whether `value` is past the rule's limit. */
export function past(rule: RuleName, value: number, limit: number): boolean {
  return rule === 'min-value' ? value < limit : value > limit;
}

/** Whether `a` is further past the limit than `b` by more than `by` (a new breach beyond a recorded one). */
export function beyond(rule: RuleName, a: number, b: number, by = 0): boolean {
  return rule === 'min-value' ? a < b - by : a > b + by;
}

/**
 * How far beyond the breach recorded a resumed agent must go to be paused again, so that noise does not
 * undo a person's resume: a tenth of the limit for a drawdown (1 point at least) or a loss ($1 at least),
 * 1% of it for a wallet total.
 */
export function margin(rule: RuleName, limit: number): number {
  if (rule === 'min-value') return limit / 100;
  return Math.max(1, limit / 10);
}

/** The value a resumed agent is paused again beyond: the recorded one, and the margin. */
export function repauseAt(rule: RuleName, recorded: number, limit: number): number {
  const m = margin(rule, limit);
  return Math.round((rule === 'min-value' ? recorded - m : recorded + m) * 100) / 100;
}

/** Hyperliquid's portfolio periods, shortest first, with how far back each reaches. */
const PERIODS: ReadonlyArray<readonly [string, number]> = [
  ['day', DAY],
  ['week', 7 * DAY],
  ['month', 30 * DAY],
  ['allTime', Infinity],
];

/** The shortest of Hyperliquid's periods that covers the window. */
export function periodFor(windowMs: number): string {
  return PERIODS.find(([, reach]) => reach >= windowMs)![0];
}
