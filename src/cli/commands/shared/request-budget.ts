// The service budget of the commands that watch a fleet (top, guard): its option and its reading, said once.
import { parseInteger } from './numbers.js';

/** Requests a minute by default: half the hosted service's 60, the rest left to everything else. */
export const DEFAULT_BUDGET = 30;

export const BUDGET_OPTION = {
  type: 'string',
  value: 'n',
  description: `service requests a minute at most (default ${DEFAULT_BUDGET})`,
} as const;

export function parseBudget(value: string | undefined): number {
  return value === undefined ? DEFAULT_BUDGET : parseInteger('--budget', value, { min: 1, max: 6000 });
}
