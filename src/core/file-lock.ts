// Cross-process lock files: the store's records, and whatever else two processes must not change at
// once. One is held for a check-and-write (never around slow work), kept fresh while its holder
// lives, taken over at once when its holder's process is gone (same host), and after `staleMs`
// without a refresh otherwise (another host, or a PID the system gave to another process); a holder
// whose process is alive on this host may be given longer (`liveStaleMs`).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFileOnce } from './atomic-write.js';
import { readRegularFile } from './regular-file.js';

export interface LockOptions {
  /** a lock not refreshed for this long is abandoned whatever its PID says (default 10 s) */
  staleMs?: number;
  /**
   * the same for a holder whose process is alive on this host (default staleMs): one stopped (Ctrl-Z)
   * or held up by a busy machine refreshes nothing, yet may still be at work under the lock
   */
  liveStaleMs?: number;
  /** how often a holder refreshes its lock (default staleMs / 4) */
  refreshMs?: number;
  /** the longest wait for a live holder before LockTimeoutError (default 60 s) */
  maxWaitMs?: number;
  /** the clock staleness is judged by (tests move it instead of waiting) */
  now?: () => number;
  host?: string;
  pid?: number;
  isAlive?: (pid: number) => boolean;
  sleep?: (ms: number) => Promise<void>;
  /** told once per acquire, when a live holder makes it wait (the caller may say whom it waits for) */
  onBusy?: (holder: { pid?: number; host?: string }) => void;
}

interface LockInfo {
  pid: number;
  host: string;
  token: string;
}

export class LockTimeoutError extends Error {
  override name = 'LockTimeoutError';
}

/** Whether a process with this PID exists on this host (EPERM: it exists but is not ours). */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The prefix of every lock file: its temp files (`lock.<name>.<pid>.<n>.tmp`) are swept by that name. */
export const LOCK_PREFIX = 'lock';

export class HeldLock {
  private timer: NodeJS.Timeout | undefined;
  private released = false;

  constructor(
    readonly file: string,
    readonly token: string,
    refreshMs: number,
    private readonly onRelease: () => void,
  ) {
    // a timer, not the writes: a holder that awaits (a slow test hook) stays fresh too
    this.timer = setInterval(() => this.refresh(), refreshMs);
    this.timer.unref();
  }

  /** True while the lock file is still ours (not taken over from a holder judged stale). */
  stillHeld(): boolean {
    return !this.released && readInfo(this.file)?.token === this.token;
  }

  private refresh(): void {
    const now = new Date();
    try {
      if (this.stillHeld()) fs.utimesSync(this.file, now, now);
    } catch {
      // removed by a takeover: stillHeld() says so at commit time
    }
  }

  release(): void {
    if (this.released) return;
    clearInterval(this.timer);
    if (this.stillHeld()) fs.rmSync(this.file, { force: true });
    this.released = true;
    this.onRelease();
  }
}

function readInfo(file: string): LockInfo | undefined {
  try {
    // never opened if it is not a file (a FIFO would block): no holder's, then
    const info = JSON.parse(readRegularFile(file)) as LockInfo;
    return typeof info?.token === 'string' ? info : undefined;
  } catch {
    return undefined;
  }
}

export class Locks {
  readonly staleMs: number;
  private readonly liveStaleMs: number;
  private readonly refreshMs: number;
  private readonly maxWaitMs: number;
  private readonly now: () => number;
  private readonly host: string;
  private readonly pid: number;
  private readonly isAlive: (pid: number) => boolean;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly onBusy: LockOptions['onBusy'];
  /** this process's waiters queue here rather than polling the file against each other */
  private readonly tails = new Map<string, Promise<void>>();

  constructor(
    readonly dir: string,
    options: LockOptions = {},
  ) {
    this.staleMs = options.staleMs ?? 10_000;
    this.liveStaleMs = Math.max(this.staleMs, options.liveStaleMs ?? 0);
    this.refreshMs = options.refreshMs ?? Math.max(10, Math.floor(this.staleMs / 4));
    this.maxWaitMs = options.maxWaitMs ?? 60_000;
    this.now = options.now ?? Date.now;
    this.host = options.host ?? os.hostname();
    this.pid = options.pid ?? process.pid;
    this.isAlive = options.isAlive ?? processAlive;
    this.sleep = options.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.onBusy = options.onBusy;
  }

  fileFor(name: string): string {
    return path.join(this.dir, `${LOCK_PREFIX}.${name}`);
  }

  /** Runs `fn` holding the lock `name`, and releases it however `fn` ends. */
  async with<T>(name: string, fn: (lock: HeldLock) => T | Promise<T>): Promise<T> {
    const lock = await this.acquire(name);
    try {
      return await fn(lock);
    } finally {
      lock.release();
    }
  }

  async acquire(name: string): Promise<HeldLock> {
    const before = this.tails.get(name) ?? Promise.resolve();
    let done!: () => void;
    const gate = new Promise<void>((resolve) => (done = resolve));
    const tail = before.then(() => gate);
    this.tails.set(name, tail);
    const finish = () => {
      done();
      if (this.tails.get(name) === tail) this.tails.delete(name);
    };
    await before;
    try {
      const file = this.fileFor(name);
      const token = await this.takeFile(file);
      return new HeldLock(file, token, this.refreshMs, finish);
    } catch (err) {
      finish();
      throw err;
    }
  }

  private async takeFile(file: string): Promise<string> {
    const token = randomBytes(12).toString('hex');
    const body = JSON.stringify({ pid: this.pid, host: this.host, token } satisfies LockInfo);
    const started = this.now();
    let told = false;
    for (let attempt = 0; ; attempt++) {
      // created whole (temp file + link): a contender never reads half a lock
      if (createFileOnce(file, body)) return token;
      const info = readInfo(file);
      if (this.abandoned(file, info)) {
        this.takeOver(file, info);
        continue;
      }
      if (!told) this.onBusy?.({ pid: info?.pid, host: info?.host });
      told = true;
      if (this.now() - started > this.maxWaitMs) {
        throw new LockTimeoutError(`The lock ${file} is held by process ${info?.pid ?? '?'} on ${info?.host ?? '?'}`);
      }
      await this.sleep(Math.min(25, 1 + attempt * 2));
    }
  }

  /** A lock whose holder died (same host), or that nobody refreshed for staleMs (liveStaleMs: a live holder here). */
  private abandoned(file: string, info: LockInfo | undefined): boolean {
    const here = info !== undefined && info.host === this.host;
    if (here && !this.isAlive(info.pid)) return true;
    const st = fs.statSync(file, { throwIfNoEntry: false });
    if (!st) return false; // released meanwhile: just try again
    // no holder makes one, and it cannot be taken over without deleting what someone put there
    if (st.isDirectory()) {
      const err = new Error(`EISDIR: the lock ${file} is a directory`) as NodeJS.ErrnoException;
      throw Object.assign(err, { code: 'EISDIR', path: file, syscall: 'open' });
    }
    // a holder makes a regular file: anything else in its place (a FIFO) is nobody's lock
    return !st.isFile() || this.now() - st.mtimeMs > (here ? this.liveStaleMs : this.staleMs);
  }

  /**
   * Removes an abandoned lock, and only that one: it is first renamed aside (one contender wins the
   * rename), then checked; a fresh lock that replaced it meanwhile is put back.
   */
  private takeOver(file: string, seen: LockInfo | undefined): void {
    const aside = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      fs.renameSync(file, aside);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    const moved = readInfo(aside);
    if (moved && moved.token !== seen?.token) {
      try {
        fs.linkSync(aside, file);
      } catch {
        // a third process locked meanwhile; the holder we moved sees it at its commit (stillHeld)
      }
    }
    fs.rmSync(aside, { force: true });
  }
}
