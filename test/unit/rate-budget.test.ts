// The rate budget (src/api/rate-budget.ts): a window over the times answers came back, waited out on
// the clock it is given.
import { describe, expect, it } from 'vitest';
import { RateBudget } from '../../src/api/rate-budget.js';
import { FakeClock } from '../helpers/context.js';

/** `n` requests through the budget, each answered at once. */
async function send(budget: RateBudget, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await budget.beforeRequest();
    budget.afterRequest();
  }
}

describe('RateBudget', () => {
  it('lets the first 60 requests of a minute go at once, and waits for the window before the 61st', async () => {
    const clock = new FakeClock();
    const waits: number[] = [];
    const budget = new RateBudget(60, clock, (ms) => waits.push(ms));
    await send(budget, 60);
    expect(clock.slept).toEqual([]);
    await send(budget, 1);
    expect(clock.slept).toEqual([60_000]);
    expect(waits).toEqual([60_000]);
    expect(budget.sent).toBe(61);
  });

  it('room: how many may go now without a wait, in flight ones counted, none while a wait is due', async () => {
    const clock = new FakeClock();
    const budget = new RateBudget(3, clock);
    expect(budget.room()).toBe(3);
    await send(budget, 1);
    await budget.beforeRequest(); // in flight
    expect(budget.room()).toBe(1);
    budget.afterRequest();
    await send(budget, 1);
    expect([budget.room(), budget.waitMs()]).toEqual([0, 60_000]);
    await clock.sleep(60_000);
    expect(budget.room()).toBe(3);
  });

  it('counts from each answer: requests spread over time wait only for the oldest to leave the window', async () => {
    const clock = new FakeClock();
    const budget = new RateBudget(3, clock);
    await send(budget, 1);
    await clock.sleep(20_000);
    await send(budget, 2); // answered at 0 s, 20 s, 20 s
    clock.slept = [];
    await send(budget, 1); // the one of 0 s leaves at 60 s: 40 s from now
    expect(clock.slept).toEqual([40_000]);
    await send(budget, 1); // the two of 20 s leave at 80 s: 20 s from now
    expect(clock.slept).toEqual([40_000, 20_000]);
  });

  it('never sends more than the limit in any minute, however long the answers take', async () => {
    const clock = new FakeClock();
    const sent: number[] = [];
    const budget = new RateBudget(10, clock);
    for (let i = 0; i < 55; i++) {
      await budget.beforeRequest();
      sent.push(clock.now());
      await clock.sleep(i % 7 === 0 ? 1_500 : 0); // some answers take a while
      budget.afterRequest();
    }
    expect(clock.now() - sent[0]!).toBeGreaterThan(4 * 60_000); // it did wait, five times over
    for (const start of sent)
      expect(sent.filter((t) => t >= start && t < start + 60_000).length).toBeLessThanOrEqual(10);
  });
});
