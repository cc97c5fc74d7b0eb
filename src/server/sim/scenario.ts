// The market a simulation quotes: its seed (the paths) and its scenario, a shape laid over every
// price. `calm` leaves the paths as they are; `crash` makes every coin fall steadily from its origin,
// 30% each CRASH_STEPS simulated minutes, down to a floor where it stays. The origin and the level it
// started from are kept in the data dir (simulation.ts): the in-process services of successive
// commands share one market, and a change of scenario goes on from the prices there were.
import type { SimScenario } from '../../contract.js';

export interface Market {
  seed: string;
  scenario: SimScenario;
  /** the step the scenario starts from (kept in the data dir: a restart goes on from it) */
  origin: number;
  /** what the scenario multiplied prices by at its origin: 1, or where the scenario before it left them */
  level: number;
}

export const CRASH_STEPS = 5;
export const CRASH_DROP = 0.3;
/** the lowest the crash takes a price, as a share of its calm path: no price reaches zero */
export const CRASH_FLOOR = 0.05;
/** calm after a crash closes half the gap to the calm path each market hour: no jump back up */
export const RECOVERY_STEPS = 60;

export const calmMarket = (seed: string): Market => ({ seed, scenario: 'calm', origin: 0, level: 1 });

/**
 * What the scenario multiplies the calm price by at `step` (its level before the origin: a clock set
 * back). A crash falls from its level to the floor and stays there; calm recovers from its level to 1.
 */
export function scenarioFactor(market: Market, step: number): number {
  const elapsed = Math.max(0, step - market.origin);
  if (market.scenario === 'crash') {
    return Math.max(Math.min(market.level, CRASH_FLOOR), market.level * (1 - CRASH_DROP) ** (elapsed / CRASH_STEPS));
  }
  return market.level === 1 ? 1 : 1 - (1 - market.level) * 0.5 ** (elapsed / RECOVERY_STEPS);
}

/** Agents in a falling market buy the dip: they open longs only (so a crash costs them). */
export const longOnly = (market: Market): boolean => market.scenario === 'crash';
