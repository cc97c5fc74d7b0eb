// The paper trading engine (src/server/sim/paper.ts): deterministic from the seed and the steps,
// bounded work per advance whatever the gap, the soul's leverage rule obeyed.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { advance, HISTORY_EVERY, HISTORY_KEPT, MAX_STEPS_PER_ADVANCE, newAccount } from '../../src/server/sim/paper.js';
import { repairHistory } from '../../src/server/sim/paper.js';
import type { AdvanceContext } from '../../src/server/sim/paper.js';
import { dec, priceAt } from '../../src/server/sim/prices.js';
import { calmMarket } from '../../src/server/sim/scenario.js';
import { maxLeverageOf } from '../../src/server/sim/simulation.js';

const ctx = (over: Partial<AdvanceContext> = {}): AdvanceContext => ({
  market: calmMarket('s'),
  who: '0xabc',
  trading: true,
  maxLeverage: 3,
  clock: { time: 0, step: 0, stepMs: 60_000 },
  ...over,
});
/** Steps of `stepMs` counted from time 0: how every speed counted them before the market clock was kept. */
const at = (stepMs: number) => ctx({ clock: { time: 0, step: 0, stepMs } });

describe('advance', () => {
  it('the same seed and steps give the same account; another agent trades otherwise', () => {
    const a = newAccount(10_000, 0);
    const b = newAccount(10_000, 0);
    const c = newAccount(10_000, 0);
    advance(a, 1_500, ctx());
    advance(b, 1_500, ctx());
    advance(c, 1_500, ctx({ who: '0xdef' }));
    expect(a).toEqual(b);
    expect(a.positions.length + a.orders.length).toBeGreaterThan(0);
    expect(c).not.toEqual(a);
  });

  it('walks at most MAX_STEPS_PER_ADVANCE steps, however far the clock jumped, and keeps the history bounded', () => {
    const a = newAccount(10_000, 0);
    expect(advance(a, 10_000, ctx())).toBe(MAX_STEPS_PER_ADVANCE);
    expect(advance(a, 10_000 + 1e12, ctx())).toBe(MAX_STEPS_PER_ADVANCE);
    expect(a.step).toBe(10_000 + 1e12);
    for (let i = 1; i <= 30; i++) advance(a, 10_000 + 1e12 + i * MAX_STEPS_PER_ADVANCE, ctx());
    expect(a.history.length).toBeLessThanOrEqual(HISTORY_KEPT);
  });

  it('records a history point every HISTORY_EVERY steps as the market moves, in time order', () => {
    const a = newAccount(10_000, 0);
    advance(a, 100, ctx());
    advance(a, 200, ctx());
    const steps = a.history.map(([t]) => t / 60_000);
    expect(steps).toEqual(Array.from({ length: 14 }, (_, i) => i * HISTORY_EVERY));
  });

  it('a jump past a market day still leaves points across the skipped span, bounded, in time order', () => {
    for (const jump of [3_000, 5 * 365 * 24 * 60]) {
      const a = newAccount(10_000, 0);
      advance(a, jump, ctx());
      const times = a.history.map(([t]) => t);
      expect(times.length).toBeLessThanOrEqual(HISTORY_KEPT);
      const gaps = times.slice(1).map((t, i) => t - times[i]!);
      for (const gap of gaps) expect(gap).toBeGreaterThan(0);
      // no gap larger than a hundredth of the span (nor than the pace, for a short jump)
      expect(Math.max(...gaps)).toBeLessThanOrEqual(Math.max(HISTORY_EVERY * 60_000, (jump * 60_000) / 100));
      for (const [, value] of a.history) expect(value).toBeGreaterThanOrEqual(0);
    }
  });

  it('a faster market after a slower one records no point before the last one', () => {
    const a = newAccount(10_000, 1_000); // at 60 s a step: t = 60,000,000
    advance(a, 1_100, ctx());
    advance(a, 1_100 * 600 + 50_000, at(100)); // the same clock at 100 ms a step, later
    const times = a.history.map(([t]) => t);
    expect(times).toEqual([...times].sort((x, y) => x - y));
    expect(new Set(times).size).toBe(times.length);
  });

  it('whatever the sequence of speeds and waits, the history is strictly increasing in time and never ahead', () => {
    const segment = fc.record({ speed: fc.constantFrom(1, 2, 10, 60, 600), wait: fc.integer({ min: 0, max: 4e6 }) });
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 8 }), (segments) => {
        let now = 1_795_765_000_000;
        const a = newAccount(10_000, Math.floor(now / 60_000));
        for (const { speed, wait } of segments) {
          now += wait;
          const stepMs = 60_000 / speed;
          advance(a, Math.floor(now / stepMs), at(stepMs));
          const times = a.history.map(([t]) => t);
          for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1]!);
          expect(times.at(-1)).toBeLessThanOrEqual(now);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('a history kept out of order, with a time twice or ahead of now, is repaired: each time once, in order', () => {
    const history: Array<[number, number, number]> = [
      [1_000, 1, 0],
      [3_000, 3, 0],
      [2_000, 2, 0],
      [3_000, 4, 0],
      [5_000, 5, 0],
      [9_000, 9, 0],
    ];
    expect(repairHistory(history, 6_000)).toEqual([
      [1_000, 1, 0],
      [3_000, 3, 0],
      [5_000, 5, 0],
    ]);
  });

  it('a clock set back starts again from there, walking nothing', () => {
    const a = newAccount(10_000, 5_000);
    expect(advance(a, 100, ctx())).toBe(0);
    expect(a.step).toBe(100);
  });

  it('not trading, it opens nothing; its leverage never passes the cap', () => {
    const idle = newAccount(10_000, 0);
    advance(idle, 2_000, ctx({ trading: false }));
    expect(idle.positions).toEqual([]);
    expect(idle.balance).toBe(10_000);
    const capped = newAccount(10_000, 0);
    advance(capped, 2_000, ctx({ maxLeverage: 2 }));
    for (const p of capped.positions) expect(p.leverage).toBeLessThanOrEqual(2);
  });
});

describe('the market and the soul', () => {
  it('prices are positive, near their base, and written without exponents', () => {
    for (const step of [0, 1, 1e6, 3e7]) {
      expect(priceAt(calmMarket('s'), 'BTC', step)).toBeGreaterThan(60_000);
      expect(priceAt(calmMarket('s'), 'BTC', step)).toBeLessThan(140_000);
      expect(dec(priceAt(calmMarket('s'), 'PEPE', step))).toMatch(/^0\.0000\d+$/);
    }
    expect(dec(1e-9, 8)).toMatch(/^0\.000000001$/);
    expect(dec(-0)).toBe('0.0');
  });

  it("the soul's leverage rule caps it; without one, 3x", () => {
    expect(maxLeverageOf('# A\n\n## Rules\n- Never use more than 5x leverage.\n')).toBe(5);
    expect(maxLeverageOf('# A\n\n## Rules\n- No leverage, ever.\n')).toBe(1);
    expect(maxLeverageOf('just vibes')).toBe(3);
  });
});
