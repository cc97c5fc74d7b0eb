// The pacing of the commands that watch a fleet (guard, top): reads within the budget less a reserve,
// a pause at once whatever the budget says.
import { describe, expect, it } from 'vitest';
import { KillSwitchPacer } from '../../src/api/rate-budget.js';
import { FakeClock } from '../helpers/context.js';

async function request(p: KillSwitchPacer) {
  await p.beforeRequest();
  p.afterRequest();
}

describe('KillSwitchPacer', () => {
  it('reads wait once the budget less its reserve is spent; a pause never waits, and counts', async () => {
    const clock = new FakeClock();
    const p = new KillSwitchPacer(10, clock);
    for (let i = 0; i < 8; i++) await request(p);
    expect(clock.slept).toEqual([]);
    await p.first(() => request(p));
    expect(clock.slept).toEqual([]);
    expect(p.reads.sent).toBe(9);
    await request(p); // the ninth read waits for the window to move on
    expect(clock.slept.length).toBe(1);
  });
});
