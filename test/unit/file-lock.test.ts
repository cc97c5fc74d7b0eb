// Cross-process lock files (src/core/file-lock.ts): who may take a lock over, and when. Clocks,
// sleeps and process liveness are injected: nothing here waits for real.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LockTimeoutError, Locks, type LockOptions } from '../../src/core/file-lock.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-lock-'));
});
afterEach(() => {
  vi.useRealTimers();
  fs.rmSync(dir, { recursive: true, force: true });
});

const HOST = os.hostname();
const DEAD = 999_999_999;

/** A lock file as another holder would have left it, `ageMs` old by its mtime. */
function planted(
  locks: Locks,
  name: string,
  holder: { pid: number; host: string; token: string },
  mtimeMs: number,
): string {
  const file = locks.fileFor(name);
  fs.writeFileSync(file, JSON.stringify(holder));
  fs.utimesSync(file, mtimeMs / 1000, mtimeMs / 1000);
  return file;
}

function tokenIn(file: string): string | undefined {
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')).token : undefined;
}

/** Locks whose clock moves only when they sleep: each sleep advances it by the time slept. */
function withFakeClock(start: number, options: LockOptions = {}) {
  const clock = { now: start, slept: [] as number[], onSleep: (_now: number) => undefined as void };
  const locks = new Locks(dir, {
    isAlive: (pid) => pid !== DEAD,
    ...options,
    now: () => clock.now,
    sleep: async (ms) => {
      clock.slept.push(ms);
      clock.onSleep(clock.now);
      clock.now += ms;
    },
  });
  return { locks, clock };
}

describe('taking a lock over', () => {
  it('takes a lock over at once when its holder process on this host is gone', async () => {
    const mtime = Date.now();
    const { locks, clock } = withFakeClock(mtime, { staleMs: 3_600_000 });
    const file = planted(locks, 'agent.a', { pid: DEAD, host: HOST, token: 'dead' }, mtime);
    const held = await locks.acquire('agent.a');
    expect(clock.slept).toEqual([]);
    expect(tokenIn(file)).toBe(held.token);
    held.release();
    expect(fs.existsSync(file)).toBe(false);
  });

  it.each([
    ['another host (its PID means nothing here)', { pid: process.pid, host: 'elsewhere.example' }],
    ['this host, a live PID (it may belong to another process now)', { pid: process.pid, host: HOST }],
  ])(
    'waits for a fresh lock from %s, and takes it over once nobody refreshed it for staleMs',
    async (_what, holder) => {
      const mtime = Date.now();
      const staleMs = 10_000;
      const { locks, clock } = withFakeClock(mtime, { staleMs });
      const file = planted(locks, 'agent.a', { ...holder, token: 'other' }, mtime);
      const seenWhileFresh: Array<string | undefined> = [];
      clock.onSleep = (now) => {
        if (now - mtime <= staleMs) seenWhileFresh.push(tokenIn(file));
      };
      const held = await locks.acquire('agent.a');
      expect(seenWhileFresh.length).toBeGreaterThan(0);
      expect(new Set(seenWhileFresh)).toEqual(new Set(['other'])); // never taken while fresh
      expect(clock.now - mtime).toBeGreaterThan(staleMs);
      expect(tokenIn(file)).toBe(held.token);
      held.release();
    },
  );

  it.each([
    ['this host, a live PID (suspended, say): liveStaleMs', { pid: process.pid, host: HOST }, 120_000],
    ['another host (its PID means nothing here): staleMs', { pid: process.pid, host: 'elsewhere.example' }, 10_000],
  ])('with liveStaleMs, a lock nobody refreshed from %s', async (_what, holder, waitedMs) => {
    const mtime = Date.now();
    const { locks, clock } = withFakeClock(mtime, { staleMs: 10_000, liveStaleMs: 120_000, maxWaitMs: 600_000 });
    const file = planted(locks, 'agent.a', { ...holder, token: 'other' }, mtime);
    const held = await locks.acquire('agent.a');
    expect(clock.now - mtime).toBeGreaterThan(waitedMs);
    expect(clock.now - mtime).toBeLessThan(waitedMs + 1_000);
    expect(tokenIn(file)).toBe(held.token);
    held.release();
  });

  it('with liveStaleMs, a lock whose holder on this host is gone is still taken over at once', async () => {
    const mtime = Date.now();
    const { locks, clock } = withFakeClock(mtime, { staleMs: 10_000, liveStaleMs: 120_000 });
    const file = planted(locks, 'agent.a', { pid: DEAD, host: HOST, token: 'dead' }, mtime);
    const held = await locks.acquire('agent.a');
    expect([clock.slept, tokenIn(file)]).toEqual([[], held.token]);
    held.release();
  });

  it('gives up with LockTimeoutError after maxWaitMs when a live holder keeps its lock', async () => {
    const mtime = Date.now();
    const { locks, clock } = withFakeClock(mtime, { staleMs: 3_600_000, maxWaitMs: 5_000 });
    const file = planted(locks, 'agent.a', { pid: process.pid, host: HOST, token: 'live' }, mtime);
    clock.onSleep = () => fs.utimesSync(file, new Date(), new Date()); // the holder refreshes it
    await expect(locks.acquire('agent.a')).rejects.toThrow(LockTimeoutError);
    expect(tokenIn(file)).toBe('live');
  });

  it(
    'tells onBusy once, with the holder, when a live holder makes it ' +
      'wait; not when the lock is free or its holder dead',
    async () => {
      const mtime = Date.now();
      const told: unknown[] = [];
      const { locks } = withFakeClock(mtime, { staleMs: 10_000, onBusy: (holder) => told.push(holder) });
      planted(locks, 'agent.a', { pid: process.pid, host: 'elsewhere.example', token: 'other' }, mtime);
      (await locks.acquire('agent.a')).release(); // taken over once stale, after many looks
      expect(told).toEqual([{ pid: process.pid, host: 'elsewhere.example' }]);
      told.length = 0;
      (await locks.acquire('agent.a')).release();
      planted(locks, 'agent.a', { pid: DEAD, host: HOST, token: 'dead' }, mtime);
      (await locks.acquire('agent.a')).release();
      expect(told).toEqual([]);
    },
  );

  it('puts back a fresh lock that replaced the dead one between its check and its takeover', async () => {
    const mtime = Date.now();
    let swapped = false;
    const { locks } = withFakeClock(mtime, {
      staleMs: 3_600_000,
      maxWaitMs: 0,
      // the moment it decides the holder is dead, another process takes the lock over first
      isAlive: (pid) => {
        if (pid === DEAD && !swapped) {
          swapped = true;
          fs.writeFileSync(
            locks.fileFor('agent.a'),
            JSON.stringify({ pid: process.pid, host: 'elsewhere.example', token: 'winner' }),
          );
        }
        return pid !== DEAD;
      },
    });
    planted(locks, 'agent.a', { pid: DEAD, host: HOST, token: 'dead' }, mtime);
    await expect(locks.acquire('agent.a')).rejects.toThrow(LockTimeoutError);
    expect(swapped).toBe(true);
    expect(tokenIn(locks.fileFor('agent.a'))).toBe('winner');
    expect(fs.readdirSync(dir)).toEqual(['lock.agent.a']); // nothing left aside
  });
});

describe('holding a lock', () => {
  it('keeps a held lock fresh while its holder lives (its mtime follows the clock)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const locks = new Locks(dir, { staleMs: 1_000 });
    const held = await locks.acquire('agent.a');
    fs.utimesSync(held.file, 0, 0);
    vi.advanceTimersByTime(250); // refreshMs = staleMs / 4
    expect(fs.statSync(held.file).mtimeMs).toBe(Date.parse('2030-01-01T00:00:00.250Z'));
    held.release();
  });

  it("a holder whose lock was taken over knows it, and its release leaves the new holder's lock alone", async () => {
    const locks = new Locks(dir);
    const held = await locks.acquire('agent.a');
    expect(held.stillHeld()).toBe(true);
    fs.writeFileSync(held.file, JSON.stringify({ pid: 1, host: 'elsewhere.example', token: 'usurper' }));
    expect(held.stillHeld()).toBe(false);
    held.release();
    expect(tokenIn(held.file)).toBe('usurper');
  });

  it("queues this process's holders of one lock: the second gets it when the first releases", async () => {
    const locks = new Locks(dir);
    const first = await locks.acquire('agent.a');
    let secondHeld = false;
    const second = locks.acquire('agent.a').then((h) => {
      secondHeld = true;
      return h;
    });
    await new Promise((r) => setImmediate(r));
    expect(secondHeld).toBe(false);
    first.release();
    const h = await second;
    expect(h.stillHeld()).toBe(true);
    h.release();
  });
});
