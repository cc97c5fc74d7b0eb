// Versioned record files: one JSON file per agent, session or classic agent, replaced whole
// (writeFileAtomic), holding `{ v, n, record }`. `v` counts the record's writes: a writer that
// prepared its change on version v writes only if the file is still at v, under the record's lock,
// and otherwise prepares it again on the newer record. `n` orders an account's records.
import fs from 'node:fs';
import { writeFileAtomic } from '../../core/atomic-write.js';
import type { HeldLock, Locks } from '../../core/file-lock.js';
import { FileTooLargeError, inMiB, NotRegularFileError, readRegularFile } from '../../core/regular-file.js';

export interface Stored<T> {
  /** the record's version: 1 when created, +1 on every write */
  v: number;
  /** creation order within its account (the tie-break of lists) */
  n: number;
  record: T;
}

/** The data dir holds something the store cannot read: the user's to fix (move it aside), not a bug. */
export class StoreCorruptError extends Error {
  override name = 'StoreCorruptError';
}

export interface WriteHooks {
  /** called while a record's lock is held, before the version check (tests: a slow holder) */
  holding?: (lockName: string) => void | Promise<void>;
}

/** Optimistic attempts before a change is applied under the lock (it then cannot conflict). */
export const OPTIMISTIC_ATTEMPTS = 8;

// one stat per record per event-loop turn is enough to see other processes' writes
let turn = 0;
let bumping = false;
function currentTurn(): number {
  if (!bumping) {
    bumping = true;
    setImmediate(() => {
      turn += 1;
      bumping = false;
    });
  }
  return turn;
}

function signature(st: fs.Stats): string {
  return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

/**
 * The most a record file is read: a record holds at most a soul (256 KiB), memory.md (64 KiB) or a
 * session's last turns, a few MiB at worst once escaped as JSON. A larger file is no record of ours,
 * and reading it on every request would stall the service.
 */
const RECORD_MAX_BYTES = 8 * 1024 * 1024;

/**
 * A file's text, or undefined if there is no such file; one the store cannot read is the user's to
 * fix. Something not a file in its place (a FIFO would block the service) is never opened.
 */
export function readTextIfAny(file: string): string | undefined {
  try {
    return readRegularFile(file, RECORD_MAX_BYTES);
  } catch (err) {
    if (err instanceof FileTooLargeError) {
      const size = `${inMiB(err.size)}, larger than any record the store writes (at most ${inMiB(err.maxBytes)})`;
      throw new StoreCorruptError(`The record ${file} is ${size}; move it aside to drop it`);
    }
    if (err instanceof NotRegularFileError) {
      throw new StoreCorruptError(`The record ${err.message}; move it aside to drop it`);
    }
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    // a directory in its place, a file left by another user (a `sudo` run): not a bug of ours
    if (code === 'EISDIR' || code === 'EACCES' || code === 'EPERM')
      throw new StoreCorruptError(`The record ${file} cannot be read (${code}); move it aside to drop it`);
    throw err;
  }
}

/** The record in `file`, read from disk now; undefined if there is none. */
export function readRecord<T>(file: string): Stored<T> | undefined {
  const text = readTextIfAny(file);
  if (text === undefined) return undefined;
  let parsed: Stored<T>;
  try {
    parsed = JSON.parse(text) as Stored<T>;
  } catch {
    parsed = undefined as unknown as Stored<T>;
  }
  if (!parsed || typeof parsed.v !== 'number' || parsed.record === null || typeof parsed.record !== 'object') {
    throw new StoreCorruptError(`The record ${file} is not valid; move it aside to drop it`);
  }
  return parsed;
}

export class RecordFiles {
  private readonly cache = new Map<string, { sig: string; turn: number; stored: Stored<unknown> }>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly locks: Locks,
    private readonly hooks: WriteHooks = {},
    /** records kept in memory for reads (agents and classic agents; sessions are read when used) */
    private readonly cacheLimit = 4096,
  ) {}

  /**
   * The record, from memory while its file is unchanged: about one stat per event-loop turn. `check`
   * runs on what is read from disk (throwing refuses it), not on every read from memory.
   */
  cached<T>(file: string, check?: (record: T) => void): Stored<T> | undefined {
    const hit = this.cache.get(file);
    const now = currentTurn();
    if (hit && hit.turn === now) return hit.stored as Stored<T>;
    const st = fs.statSync(file, { throwIfNoEntry: false });
    if (!st) {
      this.cache.delete(file);
      return undefined;
    }
    const sig = signature(st);
    if (hit && hit.sig === sig) {
      hit.turn = now;
      return hit.stored as Stored<T>;
    }
    // the signature is taken before the read: a file replaced in between is read again next time
    const stored = readRecord<T>(file);
    this.cache.delete(file);
    if (!stored) return undefined;
    check?.(stored.record);
    if (this.cache.size >= this.cacheLimit) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(file, { sig, turn: now, stored });
    return stored;
  }

  /** Writes a record whole. Callers hold its lock, or create a file nobody else can know yet. */
  put<T>(file: string, stored: Stored<T>): void {
    writeFileAtomic(file, JSON.stringify(stored));
    this.cache.delete(file);
  }

  remove(file: string): void {
    fs.rmSync(file, { force: true });
    this.cache.delete(file);
  }

  /**
   * Writes `next` as the version after `base` (undefined: the file must still be absent) if the file
   * is still at `base`'s version; false if another writer got there first. `next` null removes it.
   */
  async commit<T>(lockName: string, file: string, base: Stored<T> | undefined, next: T | null): Promise<boolean> {
    return this.locks.with(lockName, async (lock) => {
      await this.hooks.holding?.(lockName);
      const current = readRecord<T>(file);
      if ((current?.v ?? 0) !== (base?.v ?? 0)) return false;
      return this.writeHeld(lock, file, base, next);
    });
  }

  private writeHeld<T>(lock: HeldLock, file: string, base: Stored<T> | undefined, next: T | null): boolean {
    // a holder stalled past the stale time may have lost its lock: then it must not write
    if (!lock.stillHeld()) return false;
    if (next === null) this.remove(file);
    else this.put(file, { v: (base?.v ?? 0) + 1, n: base?.n ?? 0, record: next });
    return true;
  }

  /**
   * Read-modify-write of one record: `change` gets the record as it is now (undefined if there is
   * none: it should throw then) and edits it in place. It runs outside the lock; if the record
   * changed meanwhile it runs again on the new one. After OPTIMISTIC_ATTEMPTS conflicts it runs under
   * the lock, so a record under constant writes still makes progress (changes here are quick edits).
   * This process's updates of one record queue, so they do not conflict with each other.
   */
  update<T, R>(lockName: string, file: string, change: (draft: T | undefined) => R): Promise<R> {
    const run = (this.queues.get(file) ?? Promise.resolve()).then(() => this.updateNow(lockName, file, change));
    const tail = run.catch(() => undefined);
    this.queues.set(file, tail);
    void tail.then(() => {
      if (this.queues.get(file) === tail) this.queues.delete(file);
    });
    return run;
  }

  private async updateNow<T, R>(lockName: string, file: string, change: (draft: T | undefined) => R): Promise<R> {
    for (let attempt = 1; attempt <= OPTIMISTIC_ATTEMPTS + 3; attempt++) {
      const optimistic = attempt <= OPTIMISTIC_ATTEMPTS;
      const outcome = optimistic
        ? await this.tryOptimistic(lockName, file, change)
        : await this.locks.with(lockName, async (lock) => {
            await this.hooks.holding?.(lockName);
            return this.applyHeld(lock, file, change);
          });
      if (outcome) return outcome.result;
    }
    throw new Error(`The store's record ${file} kept changing under its writer`);
  }

  private async tryOptimistic<T, R>(
    lockName: string,
    file: string,
    change: (draft: T | undefined) => R,
  ): Promise<{ result: R } | undefined> {
    const base = readRecord<T>(file);
    const result = change(base?.record);
    if (!base) return { result };
    return (await this.commit(lockName, file, base, base.record)) ? { result } : undefined;
  }

  private applyHeld<T, R>(
    lock: HeldLock,
    file: string,
    change: (draft: T | undefined) => R,
  ): { result: R } | undefined {
    const base = readRecord<T>(file);
    const result = change(base?.record);
    if (!base) return { result };
    return this.writeHeld(lock, file, base, base.record) ? { result } : undefined;
  }
}
