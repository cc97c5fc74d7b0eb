// The market a simulation quotes: its seed (the paths) and its scenario, a shape laid over every
// price. `calm` leaves the paths as they are; `crash` makes every coin fall steadily from its origin,
// 30% each CRASH_STEPS simulated minutes, down to a floor. The origin is kept in the data dir
// (simulation.ts): the in-process services of successive commands share one crash.
import type { SimScenario } from '../../contract.js';

export interface Market {
  seed: string;
  scenario: SimScenario;
  /** the step the scenario starts from: the service's start */
  origin: number;
}

export const CRASH_STEPS = 5;
export const CRASH_DROP = 0.3;
/** the lowest the crash takes a price, as a share of its calm path: no price reaches zero */
export const CRASH_FLOOR = 0.05;

export const calmMarket = (seed: string): Market => ({ seed, scenario: 'calm', origin: 0 });

/** What the scenario multiplies the calm price by at `step` (1 before the origin: a clock set back). */
export function scenarioFactor(market: Market, step: number): number {
  if (market.scenario !== 'crash') return 1;
  const elapsed = Math.max(0, step - market.origin);
  return Math.max(CRASH_FLOOR, (1 - CRASH_DROP) ** (elapsed / CRASH_STEPS));
}

/** Whether a crash from `market.origin` has reached its floor by `step` (a new one may begin). */
export const crashOver = (market: Market, step: number): boolean =>
  scenarioFactor({ ...market, scenario: 'crash' }, step) <= CRASH_FLOOR;

/** Agents in a falling market buy the dip: they open longs only (so a crash costs them). */
export const longOnly = (market: Market): boolean => market.scenario === 'crash';
