// `superagent guard`: against the in-process embedded service (agents, pauses) and a loopback stand-in of
// Hyperliquid whose account values and histories the test sets per agent.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliFor, FakeClock, FakeSignals } from '../helpers/context.js';
import { launchAgent } from '../helpers/service.js';
import { perTest } from '../helpers/service-support.js';
import { fakeClock } from '../helpers/sim.js';
import { DAY, events, fallFrom, guardFleet, NOW } from '../helpers/guard-fleet.js';

const t = perTest();
const H = 3_600_000;

describe('guard --once', () => {
  it('pauses exactly the agent past --max-drawdown, says what it left open, exit 10', async () => {
    const f = await guardFleet(t, ['calm', 'falling']);
    f.set('calm', 9_500, [
      [NOW - DAY, 10_000],
      [NOW, 9_500],
    ]);
    f.set('falling', 7_000, fallFrom(10_000, 7_000, 2 * DAY));
    const r = await f.cli('guard --all --max-drawdown 20 --once --json');
    expect([r.code, r.stderr]).toEqual([10, '']);
    const out = events(r.stdout);
    for (const e of out) {
      expect(Object.keys(e)).toEqual([
        'time',
        'agent_id',
        'name',
        'event',
        'rule',
        'value',
        'limit',
        'action',
        'detail',
      ]);
    }
    expect(out.filter((e) => e.event !== 'start')).toEqual([
      expect.objectContaining({
        name: 'falling',
        event: 'breach',
        rule: 'max-drawdown',
        value: 30,
        limit: 20,
        action: 'pause',
      }),
      expect.objectContaining({
        name: 'falling',
        event: 'paused',
        action: 'paused',
        detail: expect.stringContaining('left open: 1 open position (ETH long 1) and 2 open orders on Hyperliquid'),
      }),
    ]);
    expect(
      out
        .filter((e) => e.event === 'start')
        .map((e) => e.name)
        .sort(),
    ).toEqual(['calm', 'falling']);
    expect([await f.status('calm'), await f.status('falling')]).toEqual(['running', 'paused']);
  });

  it('--dry-run reports the breach and pauses nothing; within the limits: exit 0; a human line each', async () => {
    const f = await guardFleet(t, ['falling']);
    f.set('falling', 7_000, fallFrom(10_000, 7_000, 2 * DAY));
    const dry = await f.cli('guard falling --max-drawdown 20 --once --dry-run');
    expect(dry.code).toBe(10);
    expect(dry.stdout).toContain('falling: BREACH max-drawdown 30.00%, past 20.00%: not paused (--dry-run)\n');
    expect(await f.status('falling')).toBe('running');
    const ok = await f.cli('guard falling --max-drawdown 35 --once');
    expect([ok.code, ok.stdout]).toEqual([
      0,
      expect.stringMatching(/^2026-11-22 12:00:00Z falling: guarded \(running\): max-drawdown 35\.00%; window 7d\n$/),
    ]);
  });

  it('a peak guard saw itself counts within the window, and is dropped once older than it', async () => {
    const f = await guardFleet(t, ['a']);
    f.set('a', 10_000);
    expect((await f.cli('guard a --max-drawdown 20 --once')).code).toBe(0);
    // Hyperliquid's history now shows no trace of the 10,000 (a source that forgot, or a short history)
    f.set('a', 7_500);
    const later = await f.cli('guard a --max-drawdown 20 --window 24h --once --json --dry-run', {
      clock: new FakeClock(NOW + 2 * H),
    });
    expect(later.code).toBe(10);
    expect(events(later.stdout).find((e) => e.event === 'breach')).toMatchObject({ value: 25 });
    const dayLater = await f.cli('guard a --max-drawdown 20 --window 24h --once', {
      clock: new FakeClock(NOW + 25 * H),
    });
    expect(dayLater.code).toBe(0);
  });

  it("points of Hyperliquid's history later than now are left out, said once per agent", async () => {
    const f = await guardFleet(t, ['a']);
    f.set('a', 10_000, [
      [NOW - H, 10_000],
      [NOW + 300 * DAY, 1e9],
      [NOW + 301 * DAY, 1e9],
    ]);
    const r = await f.cli('guard a --max-drawdown 20 --once --json');
    expect(r.code).toBe(0);
    const said = events(r.stdout).filter((e) => e.event === 'error');
    expect(said).toEqual([
      expect.objectContaining({
        name: 'a',
        action: 'none',
        detail:
          "Hyperliquid's history lists 2 points later than now (up to 2027-09-19T12:00:00.000Z): " +
          'left out (is a clock wrong?)',
      }),
    ]);
  });

  it('a figure not read is an error event, never a breach: exit 7, nothing paused', async () => {
    const f = await guardFleet(t, ['dark']);
    f.fail('dark');
    const r = await f.cli('guard dark --max-drawdown 1 --max-loss 1 --once --json');
    expect(r.code).toBe(7);
    const errs = events(r.stdout).filter((e) => e.event === 'error');
    expect(errs.map((e) => [e.rule, e.value, e.action])).toEqual([
      ['max-drawdown', null, 'retry'],
      ['max-loss', null, 'retry'],
    ]);
    expect(await f.status('dark')).toBe('running');
  });

  it('an agent a person resumed is left running until a breach beyond the recorded one', async () => {
    const f = await guardFleet(t, ['x']);
    f.set('x', 700, [
      [NOW - DAY, 1_000],
      [NOW, 700],
    ]);
    expect((await f.cli('guard x --max-loss 200 --once')).code).toBe(10);
    expect(await f.status('x')).toBe('paused');
    await f.resume('x');
    const same = await f.cli('guard x --max-loss 200 --once --json');
    expect(same.code).toBe(0);
    expect(events(same.stdout).find((e) => e.event === 'breach')).toMatchObject({ value: 300, action: 'tolerated' });
    expect(await f.status('x')).toBe('running');
    f.set('x', 650, [
      [NOW - DAY, 1_000],
      [NOW, 650],
    ]);
    expect((await f.cli('guard x --max-loss 200 --once')).code).toBe(10);
    expect(await f.status('x')).toBe('paused');
  });

  it('a guard with a looser limit, within it, leaves the breach another guard recorded', async () => {
    const f = await guardFleet(t, ['x']);
    f.set('x', 700, [
      [NOW - DAY, 1_000],
      [NOW, 700],
    ]);
    expect((await f.cli('guard x --max-loss 200 --once')).code).toBe(10);
    await f.resume('x');
    expect((await f.cli('guard x --max-loss 1000 --once')).code).toBe(0);
    const again = await f.cli('guard x --max-loss 200 --once --json');
    expect(again.code).toBe(0);
    expect(events(again.stdout).find((e) => e.event === 'breach')).toMatchObject({ action: 'tolerated' });
    expect(await f.status('x')).toBe('running');
  });

  it('usage: agents and --all, neither, no limit, a bad window or percentage: exit 2', async () => {
    const f = await guardFleet(t, []);
    for (const line of [
      'guard a --all --max-loss 1 --once',
      'guard --max-loss 1 --once',
      'guard a --once',
      'guard a --max-loss 1 --window 2w --once',
      'guard a --max-drawdown 0 --once',
      'guard a --max-drawdown 101 --once',
      'guard a --max-drawdown 100 --once',
      'guard a --min-value 0 --once',
      'guard a --min-value -5 --once',
      'guard a --max-loss 1 --interval 0',
      'guard a --max-loss 1 --budget 0 --once',
      'guard a --max-loss 1 --unreadable-after 0 --once',
      'guard a --max-loss 1 --on-unreadable kill --once',
    ]) {
      const r = await f.cli(line);
      expect([line, r.code, r.stderr.split('\n').length]).toEqual([line, 2, 2]);
    }
  });
});

describe('guard --once when what follows the breach goes wrong', () => {
  it('a state that cannot be written: breach and pause said, one warning naming the path, exit 10', async () => {
    const f = await guardFleet(t, ['falling']);
    f.set('falling', 7_000, fallFrom(10_000, 7_000));
    // the lock file's place taken by a directory: the state can be read, not written
    fs.mkdirSync(path.join(f.dataDir, 'guard', 'lock.state'), { recursive: true });
    const r = await f.cli('guard falling --max-drawdown 20 --once');
    expect(r.code).toBe(10);
    expect(r.stdout).toMatch(/falling: BREACH max-drawdown 30\.00%, past 20\.00%: pausing it\n.*falling: paused; /);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringContaining(path.join(f.dataDir, 'guard'))]);
    expect(await f.status('falling')).toBe('paused');
  });

  it('a pause that fails with --once: not confirmed, and no "next check" promised', async () => {
    const f = await guardFleet(t, ['falling'], {
      faults: { errorRate: 1, onlyFor: (req) => req.path.endsWith('/pause') },
    });
    f.set('falling', 7_000, fallFrom(10_000, 7_000));
    const r = await f.cli('guard falling --max-drawdown 20 --once --json');
    expect(r.code).toBe(10);
    const failed = events(r.stdout).find((e) => e.event === 'error')!;
    expect(failed.detail).toMatch(/^the pause was not confirmed: .*; guard stops here: see `superagent list`$/);
    expect(await f.status('falling')).toBe('running');
  });

  it('--all with no agent to guard: said on stderr, exit 0', async () => {
    const f = await guardFleet(t, []);
    const r = await f.cli('guard --all --max-drawdown 20 --once');
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', expect.stringMatching(/^! no agent to guard: .*\n$/)]);
  });
});

describe('guard --min-value, against the embedded service’s simulation', () => {
  it('the wallet total as `wallet` computes it: the agent below the limit paused, the one above left', async () => {
    const svc = await t.service({ simClock: fakeClock().now });
    await launchAgent(svc, { name: 'poor' });
    const rich = await launchAgent(svc, { name: 'rich' });
    await svc.seedHoldings(rich.wallet_address, { chain: 'base', asset: 'USDC', amount: '250' });
    const cli = cliFor(() => svc, { env: { SUPERAGENT_DATA_DIR: t.scratch('guard-data-') } });
    const r = await cli('guard poor rich --min-value 10100 --once --json');
    expect([r.code, r.stderr]).toEqual([10, '']);
    const breaches = events(r.stdout).filter((e) => e.event === 'breach');
    expect(breaches).toEqual([
      expect.objectContaining({ name: 'poor', rule: 'min-value', value: 10_000, limit: 10_100 }),
    ]);
    const list = await svc.call('GET', '/v1/superagents');
    const status = Object.fromEntries(list.json.agents.map((a: any) => [a.name, a.status]));
    expect(status).toEqual({ poor: 'paused', rich: 'running' });
  });

  it('a source switched off is not read: below the limit is an error naming it, never a breach (exit 7)', async () => {
    const svc = await t.service({ simClock: fakeClock().now });
    await launchAgent(svc, { name: 'held' });
    const env = { SUPERAGENT_DATA_DIR: t.scratch('guard-data-'), SUPERAGENT_HYPERLIQUID_URL: 'off' };
    const r = await cliFor(() => svc, { env })('guard held --min-value 10 --once --json');
    expect(r.code).toBe(7);
    const out = events(r.stdout).filter((e) => e.event !== 'start');
    expect(out).toEqual([expect.objectContaining({ event: 'error', rule: 'min-value', value: null, action: 'retry' })]);
    expect(out[0].detail).toMatch(/^the total leaves out hyperliquid \(switched off\): \$0\.00 read/);
    expect((await svc.call('GET', '/v1/superagents')).json.agents[0].status).toBe('running');
  });

  it('paused while a market is switched off: what it left open there is said not read, not "nothing"', async () => {
    const svc = await t.service({ simClock: fakeClock().now });
    await launchAgent(svc, { name: 'held' });
    const env = { SUPERAGENT_DATA_DIR: t.scratch('guard-data-'), SUPERAGENT_HYPERLIQUID_URL: 'off' };
    const line = 'guard held --min-value 10 --on-unreadable pause --unreadable-after 1 --once';
    const r = await cliFor(() => svc, { env })(line);
    expect(r.code).toBe(10);
    expect(r.stdout).not.toContain('nothing left open');
    expect(r.stdout).toMatch(/held: paused; .*not read: hyperliquid \(switched off\)\n/);
  });

  it('the start line names the window only when a rule uses it', async () => {
    const f = await guardFleet(t, ['a']);
    f.set('a', 10_000);
    const r = await f.cli('guard a --min-value 5 --once');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/a: guarded \(running\): min-value \$5\.00; not read, switched off: [a-z, ]+\n$/);
  });

  it('a rule whose every source is switched off is refused at the start: exit 2, one line', async () => {
    const f = await guardFleet(t, ['a']);
    f.set('a', 10_000);
    const env = { SUPERAGENT_HYPERLIQUID_URL: 'off' };
    for (const line of [
      'guard a --max-drawdown 20',
      'guard a --max-loss 5 --once',
      'guard --all --min-value 5 --once',
    ]) {
      const r = await f.cli(line, { env });
      expect([line, r.code, r.stdout, r.stderr.trim().split('\n').length]).toEqual([line, 2, '', 1]);
      expect(r.stderr).toContain('SUPERAGENT_HYPERLIQUID_URL');
    }
  });
});

describe('guard --once and the signals', () => {
  it('SIGTERM once the breach is said: the pause is still sent, then guard ends (exit 10, the breach)', async () => {
    const f = await guardFleet(t, ['falling']);
    f.set('falling', 7_000, fallFrom(10_000, 7_000));
    const signals = new FakeSignals();
    const r = await f.cli('guard falling --max-drawdown 20 --once --json', {
      signals,
      onStdout: (chunk) => void (chunk.includes('"event":"breach"') && signals.terminate()),
    });
    expect(r.code).toBe(10);
    expect(await f.status('falling')).toBe('paused');
  });
});
