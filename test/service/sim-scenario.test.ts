// The simulated market's scenarios: `calm` (the default) drifts as it always has; `crash` falls
// steadily from the service's start, so agents holding longs lose account value (guard demos).
import { describe, expect, it } from 'vitest';
import { perTest } from '../helpers/service-support.js';
import { CRASH_FLOOR, RECOVERY_STEPS } from '../../src/server/sim/scenario.js';
import { fakeClock, hlInfo, untilPositions, withHyperliquid } from '../helpers/sim.js';

const t = perTest();
const COINS = ['BTC', 'ETH', 'SOL', 'POL', 'BNB'];

/** Each coin's mid in the crash over its mid in the calm market at the same step. */
async function ratios(crash: any, calm: any): Promise<number[]> {
  const [down, flat] = [await hlInfo(crash, 'allMids'), await hlInfo(calm, 'allMids')];
  return COINS.map((c) => Number(down[c]) / Number(flat[c]));
}

describe('sim scenarios', () => {
  it('crash: every coin falls 30% in 5 simulated minutes, and keeps falling, faster with the speed', async () => {
    const clock = fakeClock();
    const calm = await t.service({ simClock: clock.now });
    const crash = await t.service({ simClock: clock.now, simScenario: 'crash' });
    for (const r of await ratios(crash, calm)) expect(r).toBeCloseTo(1, 4);
    clock.advance(5);
    for (const r of await ratios(crash, calm)) expect(r).toBeCloseTo(0.7, 4);
    clock.advance(5);
    for (const r of await ratios(crash, calm)) expect(r).toBeCloseTo(0.49, 4);
    const fast = await t.service({ simClock: clock.now, simScenario: 'crash', simSpeed: 10 });
    const fastCalm = await t.service({ simClock: clock.now, simSpeed: 10 });
    clock.advance(0.5); // 5 simulated minutes at speed 10
    for (const r of await ratios(fast, fastCalm)) expect(r).toBeCloseTo(0.7, 4);
    // bounded: the fall stops at a floor, no price reaches zero
    clock.advance(100_000);
    for (const r of await ratios(crash, calm)) expect(r).toBeGreaterThan(0.01);
  });

  it('crash: a trading agent buys the dip and its account value falls below what it was given', async () => {
    const clock = fakeClock();
    const svc = await t.service({ simClock: clock.now, simScenario: 'crash' });
    const { wallet_address: user } = await withHyperliquid(svc);
    const state = await untilPositions(svc, clock, user, 1);
    for (const { position } of state.assetPositions) expect(Number(position.szi)).toBeGreaterThan(0);
    clock.advance(10);
    const value = Number((await hlInfo(svc, 'clearinghouseState', user)).marginSummary.accountValue);
    expect(value).toBeLessThan(9_900);
  });

  it('the crash is kept in the data dir: a restart goes on with it; at its floor it stays there', async () => {
    const clock = fakeClock();
    const calm = await t.service({ simClock: clock.now });
    const first = await t.service({ simClock: clock.now, simScenario: 'crash' });
    clock.advance(5);
    await first.close();
    const again = await t.serviceOn(first.dataDir, { simClock: clock.now, simScenario: 'crash' });
    for (const r of await ratios(again, calm)) expect(r).toBeCloseTo(0.7, 4);
    await again.close();
    clock.advance(1_000);
    const later = await t.serviceOn(first.dataDir, { simClock: clock.now, simScenario: 'crash' });
    for (const r of await ratios(later, calm)) expect(r).toBeCloseTo(CRASH_FLOOR, 4);
  });

  it('a start that names no scenario goes on with the one kept (a demo shell without the variable)', async () => {
    const clock = fakeClock();
    const calm = await t.service({ simClock: clock.now });
    const crash = await t.service({ simClock: clock.now, simScenario: 'crash' });
    clock.advance(5);
    await crash.close();
    const unnamed = await t.serviceOn(crash.dataDir, { simClock: clock.now });
    clock.advance(5);
    for (const r of await ratios(unnamed, calm)) expect(r).toBeCloseTo(0.49, 4);
  });

  it('back to calm after a crash, the market recovers from where it was, not at once', async () => {
    const clock = fakeClock();
    const calm = await t.service({ simClock: clock.now });
    const crash = await t.service({ simClock: clock.now, simScenario: 'crash' });
    clock.advance(10);
    await crash.close();
    const after = await t.serviceOn(crash.dataDir, { simClock: clock.now, simScenario: 'calm' });
    for (const r of await ratios(after, calm)) expect(r).toBeCloseTo(0.49, 4);
    clock.advance(RECOVERY_STEPS);
    for (const r of await ratios(after, calm)) expect(r).toBeCloseTo(0.49 + 0.51 / 2, 4);
  });

  it('restarted at another speed, the market goes on from the prices it had, whatever the scenario', async () => {
    for (const simScenario of ['calm', 'crash'] as const) {
      const clock = fakeClock();
      let svc = await t.service({ simClock: clock.now, simScenario });
      const dataDir = svc.dataDir;
      for (const simSpeed of [600, 1, 10]) {
        clock.advance(3);
        const before = await hlInfo(svc, 'allMids');
        await svc.close();
        svc = await t.serviceOn(dataDir, { simClock: clock.now, simScenario, simSpeed });
        expect(await hlInfo(svc, 'allMids'), `${simScenario} at ${simSpeed}`).toEqual(before);
      }
    }
  });

  it('calm is the default: the same market as no scenario', async () => {
    const clock = fakeClock();
    const plain = await t.service({ simClock: clock.now });
    const calm = await t.service({ simClock: clock.now, simScenario: 'calm' });
    clock.advance(30);
    expect(await hlInfo(calm, 'allMids')).toEqual(await hlInfo(plain, 'allMids'));
  });
});
