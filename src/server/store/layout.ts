// Where the store's files live in the data dir:
//
//   records/LAYOUT                                   {"layout":2}: the directory is complete
//   records/locks/lock.<name>                        a held lock (lock.ts)
//   records/owners/<kind>.<id>                       the owner of an agent or classic agent (403 vs 404)
//   records/accounts/<account>/agents/agent.<id>.json
//   records/accounts/<account>/classic/classic.<id>.json
//   records/accounts/<account>/sessions/session.<id>.json
//   records/accounts/<account>/order/<stamp>.<session id>.<agent id or ->   a session's place in the cap
//
// A record's file name starts with its kind, so writeFileAtomic's temp files beside it
// (`<file>.<pid>.<n>.tmp`) are swept by removeStaleTemps(dir, kind).
import fs from 'node:fs';
import path from 'node:path';
import { makeDir, removeStaleTemps } from '../../core/atomic-write.js';
import { LOCK_PREFIX } from '../../core/file-lock.js';
import { readTextIfAny } from './records.js';

export type Kind = 'agent' | 'classic' | 'session';

const DIRS: Record<Kind, string> = { agent: 'agents', classic: 'classic', session: 'sessions' };

export const LAYOUT_VERSION = 2;

/** A file-name-safe form of an id or account: as it is when it is plain (ids, accounts), else `~` + hex. */
export function safeName(value: string): string {
  const s = String(value);
  return /^[A-Za-z0-9_-]{1,100}$/.test(s) ? s : `~${Buffer.from(s, 'utf8').toString('hex')}`;
}

/** The id or account a safeName stands for. */
export function fromSafeName(name: string): string {
  return name.startsWith('~') ? Buffer.from(name.slice(1), 'hex').toString('utf8') : name;
}

export class Layout {
  readonly root: string;
  readonly locks: string;
  readonly owners: string;
  readonly accounts: string;

  constructor(
    readonly dataDir: string,
    rootName = 'records',
  ) {
    this.root = path.join(dataDir, rootName);
    this.locks = path.join(this.root, 'locks');
    this.owners = path.join(this.root, 'owners');
    this.accounts = path.join(this.root, 'accounts');
  }

  /** an account's directories, by account and kind: every request names one (path.join was a hot spot of a GET) */
  private readonly dirs = new Map<string, string>();

  dir(account: string, kind: Kind): string {
    const key = `${kind}\0${account}`;
    let dir = this.dirs.get(key);
    if (dir === undefined) {
      dir = path.join(this.accounts, safeName(account), DIRS[kind]);
      if (this.dirs.size >= 10_000) this.dirs.clear(); // bounded, whatever the number of accounts
      this.dirs.set(key, dir);
    }
    return dir;
  }

  file(account: string, kind: Kind, id: string): string {
    // a safe name has no separator and no dot segment: plain concatenation is what path.join would give
    return `${this.dir(account, kind)}${path.sep}${kind}.${safeName(id)}.json`;
  }

  orderDir(account: string): string {
    return path.join(this.accounts, safeName(account), 'order');
  }

  ownerFile(kind: Kind, id: string): string {
    return path.join(this.owners, `${kind}.${safeName(id)}`);
  }

  /** The ids of an account's records of one kind (none if the account has none). */
  ids(account: string, kind: Kind): string[] {
    const prefix = `${kind}.`;
    return listDir(this.dir(account, kind))
      .filter((name) => name.startsWith(prefix) && name.endsWith('.json'))
      .map((name) => fromSafeName(name.slice(prefix.length, -'.json'.length)));
  }

  /** Every account that has records. */
  accountIds(): string[] {
    return listDir(this.accounts).map(fromSafeName);
  }

  /** Creates the account's directories for a kind on first use. */
  ensure(dir: string): void {
    makeDir(dir);
  }

  /** Temp files left by writers killed before their rename (never read; removed after a minute). */
  sweepTemps(): void {
    removeStaleTemps(this.locks, LOCK_PREFIX);
    removeStaleTemps(this.owners, 'agent');
    removeStaleTemps(this.owners, 'classic');
    for (const account of this.accountIds()) {
      for (const kind of Object.keys(DIRS) as Kind[]) removeStaleTemps(this.dir(account, kind), kind);
    }
  }
}

export function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/** The owner written in an owner file, or undefined (one that is not a file is never opened). */
export function readOwner(file: string): string | undefined {
  return readTextIfAny(file);
}
