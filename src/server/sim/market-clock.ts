// The market's clock and scenario as kept in the data dir, so every service on it quotes one
// continuous market: a restart at another speed goes on from the step (and so the prices) there
// were, only faster or slower; a restart with another scenario goes on from the level there was.
import type { SimScenario } from '../../contract.js';
import { scenarioFactor, type Market } from './scenario.js';

export interface ScenarioRecord {
  scenario: string;
  /** the service clock's time the scenario began at */
  since: number;
  /** the market step it began at (missing in a record from before the market clock: `since` then) */
  origin?: number;
  /** the scenario's factor at its origin (missing: 1) */
  level?: number;
}

/** How the market's steps follow the service clock: `step` at `time`, then one each `stepMs`. */
export interface ClockRecord {
  time: number;
  step: number;
  stepMs: number;
}

/** The market step at service time `now`. */
export const stepAt = (clock: ClockRecord, now: number): number =>
  clock.step + Math.floor((now - clock.time) / clock.stepMs);

/** The service time a market step stands for. */
export const timeAt = (clock: ClockRecord, step: number): number => clock.time + (step - clock.step) * clock.stepMs;

/**
 * The clock to run at `stepMs`: the kept one at that speed; at another speed, one going on from the
 * step the kept one reached now; none kept, steps counted from time 0 (as before the clock was kept).
 */
export function clockNow(kept: ClockRecord | undefined, stepMs: number, now: number): ClockRecord {
  if (!kept || !Number.isFinite(kept.step) || !Number.isFinite(kept.time) || !(kept.stepMs > 0)) {
    return { time: 0, step: 0, stepMs };
  }
  if (kept.stepMs === stepMs) return kept;
  return { time: now, step: Math.min(stepAt(kept, now), Number.MAX_SAFE_INTEGER), stepMs };
}

/**
 * The market for `scenario` at step `now` on `clock`: the kept one if it is this scenario; else one
 * beginning now from the level the kept one reached (1 with none kept: calm is then the paths as they are).
 */
export function marketNow(
  seed: string,
  scenario: SimScenario,
  kept: ScenarioRecord | undefined,
  clock: ClockRecord,
  now: number,
): Market {
  const fresh: Market = { seed, scenario, origin: scenario === 'calm' ? 0 : now, level: 1 };
  if (!kept || (kept.scenario !== 'calm' && kept.scenario !== 'crash')) return fresh;
  const origin = Number.isFinite(kept.origin) ? kept.origin! : stepAt(clock, kept.since);
  const level = kept.level !== undefined && kept.level > 0 && kept.level <= 1 ? kept.level : 1;
  if (!Number.isFinite(origin)) return fresh;
  // a kept origin after now (a clock set back) is taken as now
  const was: Market = { seed, scenario: kept.scenario, origin: Math.min(origin, now), level };
  if (was.scenario === scenario) return was;
  return { seed, scenario, origin: now, level: scenarioFactor(was, now) };
}

/** What to keep of the market: undefined when there is nothing (calm at its paths, never shaped). */
export function scenarioRecord(market: Market, clock: ClockRecord, kept: ScenarioRecord | undefined) {
  if (!kept && market.scenario === 'calm' && market.level === 1) return undefined;
  const since = timeAt(clock, market.origin);
  const record: ScenarioRecord = { scenario: market.scenario, since, origin: market.origin, level: market.level };
  const same =
    kept && kept.scenario === record.scenario && kept.origin === record.origin && kept.level === record.level;
  return same ? undefined : record;
}
