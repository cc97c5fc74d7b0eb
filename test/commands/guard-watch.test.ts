// `superagent guard` as a watchdog: a check every --interval on the Context's clock (fake: each sleep is a
// step the test takes), through a source's outage, until SIGTERM or Ctrl-C (fake signals).
import { describe, expect, it } from 'vitest';
import { FakeSignals } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';
import { DAY, events, fallFrom, guardFleet, SteppedClock } from '../helpers/guard-fleet.js';

const t = perTest();
const falling = fallFrom(10_000, 7_000);

describe('guard, the watchdog', () => {
  it('pauses the agent past a limit at the next check, keeps running, ends on SIGTERM with exit 0', async () => {
    const f = await guardFleet(t, ['calm', 'falling']);
    f.set('calm', 10_000);
    f.set('falling', 10_000);
    const signals = new FakeSignals();
    const clock = new SteppedClock((n) => {
      if (n === 1) f.set('falling', 7_000, falling);
      if (n === 3) signals.terminate();
    });
    const r = await f.cli('guard --all --max-drawdown 20 --json', { clock, signals });
    expect([r.code, r.stderr]).toEqual([0, 'Stopped\n']);
    const out = events(r.stdout).filter((e) => e.event !== 'start');
    expect(out.map((e) => [e.name, e.event, e.action])).toEqual([
      ['falling', 'breach', 'pause'],
      ['falling', 'paused', 'paused'],
      // the next check: said once, not at every check after
      ['falling', 'breach', 'already_paused'],
    ]);
    expect(clock.slept).toEqual([60_000, 60_000]); // the third sleep was cut short by SIGTERM
    expect([await f.status('calm'), await f.status('falling')]).toEqual(['running', 'paused']);
    expect(signals.terminateListeners).toBe(0);
  });

  it('a wait for --budget is said on stderr, once for the agents waiting together (not a silent hang)', async () => {
    const f = await guardFleet(t, ['a', 'b']);
    f.set('a', 10_000);
    f.set('b', 10_000);
    const signals = new FakeSignals();
    const clock = new SteppedClock((_n, _c, ms) => void (ms === 1_000 && signals.terminate()));
    const r = await f.cli('guard --all --max-drawdown 20 --budget 1 --interval 1', { clock, signals });
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n').filter(Boolean)).toEqual([
      '! over --budget 1 (service requests a minute): the next request waits 60 s',
      'Stopped',
    ]);
  });

  it('a source down: said once, no breach; with --on-unreadable pause, paused after N checks', async () => {
    const f = await guardFleet(t, ['calm', 'dark']);
    f.set('calm', 10_000);
    f.fail('dark');
    const signals = new FakeSignals();
    const clock = new SteppedClock((n) => void (n === 4 && signals.terminate()));
    const line = 'guard --all --max-drawdown 20 --on-unreadable pause --unreadable-after 3 --interval 30 --json';
    const r = await f.cli(line, { clock, signals });
    expect(r.code).toBe(0);
    const out = events(r.stdout).filter((e) => e.name === 'dark' && e.event !== 'start');
    // the same failure at every check is said once; the unreadable checks are counted all the same
    expect(out.map((e) => [e.event, e.rule, e.action])).toEqual([
      ['error', 'max-drawdown', 'retry'],
      ['breach', 'unreadable', 'pause'],
      ['paused', null, 'paused'],
    ]);
    expect(clock.slept).toEqual([30_000, 30_000, 30_000]);
    expect([await f.status('calm'), await f.status('dark')]).toEqual(['running', 'paused']);
  });

  it('without --on-unreadable pause, an agent never read is never paused; the same failure said once', async () => {
    const f = await guardFleet(t, ['dark']);
    f.fail('dark');
    const signals = new FakeSignals();
    const clock = new SteppedClock((n) => {
      if (n === 3) f.set('dark', 10_000);
      if (n === 5) signals.terminate();
    });
    const r = await f.cli('guard dark --max-loss 10', { clock, signals });
    expect(r.code).toBe(0);
    // a journal gets one line for an outage, and one when it is over
    expect(r.stdout.match(/dark: not read \(max-loss\): hyperliquid history: /g)).toHaveLength(1);
    expect(r.stdout).toMatch(/dark: max-loss read again after 3 checks not read/);
    expect(await f.status('dark')).toBe('running');
  });

  it('SIGTERM as a breach is said: the pause is still sent and recorded, then guard ends', async () => {
    const f = await guardFleet(t, ['falling']);
    f.set('falling', 7_000, falling);
    const signals = new FakeSignals();
    const clock = new SteppedClock(() => undefined);
    const r = await f.cli('guard falling --max-drawdown 20 --json', {
      clock,
      signals,
      onStdout: (chunk) => void (chunk.includes('"event":"breach"') && signals.terminate()),
    });
    expect(r.code).toBe(0);
    expect(events(r.stdout).map((e) => e.event)).toEqual(['start', 'breach', 'paused']);
    expect(await f.status('falling')).toBe('paused');
    expect(clock.slept).toEqual([]);
  });

  it('SIGTERM while a pause fails: said not confirmed, with no next check promised', async () => {
    const f = await guardFleet(t, ['falling'], { faults: { errorRate: 1, onlyFor: (q) => q.path.endsWith('/pause') } });
    f.set('falling', 7_000, falling);
    const signals = new FakeSignals();
    const r = await f.cli('guard falling --max-drawdown 20 --json', {
      clock: new SteppedClock(() => undefined),
      signals,
      onStdout: (chunk) => void (chunk.includes('"event":"breach"') && signals.terminate()),
    });
    expect(r.code).toBe(0);
    const failed = events(r.stdout).filter((e) => e.event === 'error');
    expect(failed.map((e) => [e.action, e.detail])).toEqual([
      ['none', expect.stringMatching(/^the pause was not confirmed: .*; guard stops here: see `superagent list`$/)],
    ]);
  });

  it('Ctrl-C ends it with exit 130', async () => {
    const f = await guardFleet(t, ['calm']);
    f.set('calm', 10_000);
    const signals = new FakeSignals();
    const clock = new SteppedClock((n) => void (n === 1 && signals.interrupt()));
    const r = await f.cli('guard calm --max-drawdown 20', { clock, signals });
    expect([r.code, r.stderr]).toEqual([130, 'Stopped\n']);
  });

  it('a clock gone back two days loses no peak; one gone forward past the window drops it', async () => {
    const f = await guardFleet(t, ['a']);
    f.set('a', 10_000);
    const signals = new FakeSignals();
    const clock = new SteppedClock((n, c) => {
      if (n === 1) {
        c.time -= 2 * DAY;
        f.set('a', 7_000, [[c.time, 7_000]]);
      }
      if (n === 2) c.time += 10 * DAY;
      if (n === 3) signals.terminate();
    });
    const r = await f.cli('guard a --max-drawdown 20 --window 7d --dry-run --json', { clock, signals });
    expect(r.code).toBe(0);
    // the peak of 10,000 seen "later" is kept: the fall to 7,000 is a breach; ten days on, the peak is gone
    const out = events(r.stdout).filter((e) => e.event === 'breach');
    expect(out.map((e) => [e.value, e.action])).toEqual([[30, 'dry_run']]);
  });
});

describe('guard, the watchdog, through a service outage', () => {
  it('checks the agents last seen, says the pause failed, and pauses once the service is back', async () => {
    let down = false;
    const f = await guardFleet(t, ['calm', 'falling'], { faults: { errorRate: 1, onlyFor: () => down } });
    f.set('calm', 10_000);
    f.set('falling', 10_000);
    const signals = new FakeSignals();
    const clock = new SteppedClock((n, _c, ms) => {
      if (ms !== 60_000) return; // the client's waits between its retries
      if (n === 1) {
        down = true;
        f.set('falling', 7_000, falling);
      }
      if (n === 2) down = false;
      if (n === 3) signals.terminate();
    });
    const r = await f.cli('guard --all --max-drawdown 20 --json', { clock, signals });
    expect(r.code).toBe(0);
    const out = events(r.stdout).filter((e) => e.event !== 'start');
    expect(out.map((e) => [e.name, e.event, e.action])).toEqual([
      [null, 'error', 'retry'],
      ['falling', 'breach', 'pause'],
      ['falling', 'error', 'retry'],
      ['falling', 'breach', 'pause'],
      ['falling', 'paused', 'paused'],
    ]);
    expect(out[0].detail).toMatch(/^the agent list: .*; checking the agents last seen$/);
    expect(out[2].detail).toMatch(/^the pause was not confirmed: .*; tried again next check$/);
    expect([await f.status('calm'), await f.status('falling')]).toEqual(['running', 'paused']);
  });
});
