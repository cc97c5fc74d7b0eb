// The launch turn (src/cli/commands/shared/launch-lock.ts) as a user meets it: a wait for another
// run is said with its pid, a turn left by a dead process is taken at once, a wait is bounded, and
// the lock's name holds neither the key nor the URL.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchLockDir, launchLockName } from '../../src/cli/commands/shared/launch-lock.js';
import { Locks } from '../../src/core/file-lock.js';
import { FakeClock, FakeSignals, runLine, spinnerRecorder, type RunOptions } from '../helpers/context.js';
import { lenient, startHostedMock, type Agent, type HostedMock, type LenientHooks } from '../helpers/hosted-mock.js';
import { perTest } from '../helpers/service-support.js';

const t = perTest();
const KEY = 'gb_sk_live_4f8a2b9c1d3e5f7a9b0c';

async function emptyService(hooks: LenientHooks = {}): Promise<HostedMock> {
  const mock = await startHostedMock(lenient([], hooks));
  t.closeAfter(mock);
  return mock;
}

/** A service, a cache dir, and the lock file a launch or an apply against them takes its turn with. */
async function setUp(hooks: LenientHooks = {}) {
  const mock = await emptyService(hooks);
  const env = { XDG_CACHE_HOME: t.scratch('superagent-cache-') };
  const dir = launchLockDir(env);
  const name = launchLockName(mock.url, KEY);
  const run = (argv: string[], o: RunOptions = {}) => runLine({ url: mock.url, key: KEY }, argv, { ...o, env });
  const launch = (o: RunOptions = {}) => run(['launch', '--name', 'scout'], o);
  return { mock, dir, name, launch, run };
}

const posts = (mock: HostedMock) => mock.requests.filter((q) => q.method === 'POST');

describe('the launch turn', () => {
  it('held by a live process: the wait is said with its pid, and the launch goes on once it is released', async () => {
    const { mock, dir, name, launch } = await setUp();
    fs.mkdirSync(dir, { recursive: true });
    const held = await new Locks(dir).acquire(name);
    // neither the key nor the URL is in the lock's name
    expect(fs.readdirSync(dir)).toEqual([expect.stringMatching(/^lock\.launches\.[0-9a-f]{32}$/)]);
    let sent = 0;
    const r = await launch({
      onStderr: (_chunk, all) => {
        if (!all.includes('Waiting for another')) return;
        sent = posts(mock).length; // nothing launched while it waited
        held.release();
      },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      `! Waiting for another superagent launch or apply (pid ${process.pid}) to ` +
        `finish launching on this service (up to 2 minutes)…\n`,
    );
    expect([sent, posts(mock).length]).toEqual([0, 1]);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('held by a live process that has not refreshed it for a while (stopped, say): waited for, not taken', async () => {
    const { mock, dir, name, launch } = await setUp();
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `lock.${name}`);
    fs.writeFileSync(file, JSON.stringify({ pid: process.pid, host: os.hostname(), token: 'suspended' }));
    const longAgo = (Date.now() - 30_000) / 1000; // past the stale time of a holder that died, not of a live one
    fs.utimesSync(file, longAgo, longAgo);
    let sent = -1;
    const r = await launch({
      onStderr: (_chunk, all) => {
        if (!all.includes('Waiting for another') || sent >= 0) return;
        sent = posts(mock).length;
        fs.rmSync(file); // the holder resumes, and finishes
      },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Waiting for another superagent launch or apply (pid ${process.pid})`);
    expect([sent, posts(mock).length]).toEqual([0, 1]);
  });

  it('left by a process that died: taken over at once, without a word', async () => {
    const { mock, dir, name, launch } = await setUp();
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, `lock.${name}`),
      JSON.stringify({ pid: dead, host: os.hostname(), token: 'left-behind' }),
    );
    const r = await launch();
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(posts(mock)).toHaveLength(1);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('a wait is bounded: held all along, exit 6 naming the process, nothing sent', async () => {
    const { mock, dir, name, launch } = await setUp();
    fs.mkdirSync(dir, { recursive: true });
    const held = await new Locks(dir).acquire(name);
    try {
      // a fake clock on which each look at the lock takes half a minute: the two minutes pass at once
      const clock = new FakeClock();
      const look = clock.sleep.bind(clock);
      clock.sleep = (_ms, signal) => look(30_000, signal);
      const r = await launch({ clock });
      expect(r.code).toBe(6);
      expect(r.stderr).toContain(
        `Error: another superagent launch or apply (pid ${process.pid}) ` +
          `has been launching on this service for over 2 minutes ` +
          `(wait for it to finish, or end process ${process.pid}, then try again)\n`,
      );
      expect(mock.requests).toEqual([]);
    } finally {
      held.release();
    }
  });

  it.skipIf(process.platform !== 'linux')(
    'a cache dir where no dir can be made (/proc): exit 2 in words, not ENOENT',
    async () => {
      const mock = await emptyService();
      const cache = '/proc/self/superagent-cache';
      const r = await runLine({ url: mock.url, key: KEY }, ['launch', '--name', 'scout'], {
        env: { XDG_CACHE_HOME: cache },
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(
        new RegExp(
          String.raw`^Error: cannot keep the launch lock in \/proc\/self\/superagent-cache\/superagent\/locks: ` +
            String.raw`the system takes no new directory there \(`,
        ),
      );
      expect(mock.requests).toEqual([]);
    },
  );

  it('a cache dir that cannot hold the lock: exit 2 naming it, nothing sent', async () => {
    const mock = await emptyService();
    const file = path.join(t.scratch('superagent-cache-'), 'not-a-dir');
    fs.writeFileSync(file, '');
    const r = await runLine({ url: mock.url, key: KEY }, ['launch', '--name', 'scout'], {
      env: { XDG_CACHE_HOME: file },
    });
    expect(r.code).toBe(2);
    const dir = path.join(file, 'superagent', 'locks');
    const hint = 'make it writable, or set XDG_CACHE_HOME to a directory you can write';
    expect(r.stderr).toBe(
      `Error: cannot keep the launch lock in ${dir}: a part of the path is not a directory (${hint})\n`,
    );
    expect(mock.requests).toEqual([]);
  });
});

describe('Ctrl-C or SIGTERM while a launch is on its way', () => {
  const SIGNALS = [
    ['Ctrl-C', 130, 'Interrupted', (s: FakeSignals) => s.interrupt()],
    ['SIGTERM', 143, 'Terminated', (s: FakeSignals) => s.terminate()],
  ] as const;
  /** the answer to a launch comes late: the signal is pressed while it is on its way, and not waited for */
  const LATE_MS = 10_000;

  const MAYBE =
    "the launch of 'scout' may have reached the service (check with 'superagent list' before launching again)";

  it.each(SIGNALS)(
    'launch, %s: exit %i at once, saying it may have reached the service; turn let go',
    async (_what, code, word, press) => {
      const signals = new FakeSignals();
      const { dir, mock, launch } = await setUp({ onLaunch: () => press(signals), launchDelayMs: () => LATE_MS });
      const r = await launch({ signals });
      expect(posts(mock).map((q) => q.answered)).toEqual([undefined]); // ended at once
      expect(r.code).toBe(code);
      expect(r.stderr).toBe(`${word}: ${MAYBE}\n`);
      expect(fs.readdirSync(dir)).toEqual([]);
      expect(signals.terminateListeners).toBe(0);
    },
  );

  it.each(SIGNALS)(
    "launch on a terminal, %s: the wait's spinner erased before the line why",
    async (_what, _code, word, press) => {
      const signals = new FakeSignals();
      const { launch } = await setUp({ onLaunch: () => press(signals), launchDelayMs: () => LATE_MS });
      const rec = spinnerRecorder();
      let spinning: boolean[] = [];
      const r = await launch({
        signals,
        tty: true,
        world: rec.world,
        onStderr: (_chunk, all) => {
          if (all.includes(word)) spinning = rec.started.map((s) => !s.stopped);
        },
      });
      expect(r.stderr).toContain(`${word}: the launch of 'scout' may have reached the service`);
      expect(spinning).toContain(false);
      expect(spinning).not.toContain(true);
    },
  );

  it.each(SIGNALS)(
    'apply, %s at its second launch: exit %i, what was done, that it may have reached',
    async (_what, code, word, press) => {
      const signals = new FakeSignals();
      const second = (a: Agent) => a.name === 'beta';
      const onLaunch = (a: Agent) => second(a) && press(signals);
      const { dir, mock, run } = await setUp({ onLaunch, launchDelayMs: (a) => (second(a) ? LATE_MS : undefined) });
      const file = path.join(t.scratch('superagent-fleet-'), 'superagents.yaml');
      fs.writeFileSync(file, 'agents:\n  - name: alpha\n  - name: beta\n  - name: gamma\n');
      const r = await run(['apply', '-f', file, '--yes'], { signals });
      expect(r.code).toBe(code);
      expect(r.stderr).toContain('Done (1 of 3): launch alpha\nNot done (2): launch beta, launch gamma\n');
      expect(r.stderr).toContain(
        `${word}: apply stopped at step 2 of 3 (launch beta), whose request may have reached the service ` +
          `(check with 'superagent list', or run apply again, which plans from what the service has now`,
      );
      expect(posts(mock).map((q) => q.answered)).toEqual([true, undefined]); // ended at once
      expect(fs.readdirSync(dir)).toEqual([]);
    },
  );
});
