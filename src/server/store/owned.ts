// Records that belong to an account and are addressed by id alone (superagents, classic agents):
// the record in its account's directory, and an owner file per id so that someone else's id
// answers 403 and an unknown one 404.
import fs from 'node:fs';
import { makeDir, writeFileAtomic } from '../../core/atomic-write.js';
import type { Locks } from '../../core/file-lock.js';
import { type Kind, type Layout, readOwner, safeName } from './layout.js';
import { type RecordFiles, type Stored, StoreCorruptError } from './records.js';
import { readShaped, shaped, shapedChange } from './shapes.js';

export interface Found<T> {
  record: T;
  /** false: the record belongs to another account */
  mine: boolean;
}

/** A record as listed: its id (its file's name) with its stored form. */
export type Listed<T> = Stored<T> & { id: string };

/** The lock for checks that span an account's records of one kind (the agent limit, the session cap). */
export function accountLock(kind: Kind, account: string): string {
  return `${kind}s-of.${safeName(account)}`;
}

export function recordLock(kind: Kind, id: string): string {
  return `${kind}.${safeName(id)}`;
}

export class OwnedRecords<T> {
  constructor(
    private readonly layout: Layout,
    private readonly files: RecordFiles,
    private readonly locks: Locks,
    readonly kind: 'agent' | 'classic',
    /** told of each record a listing leaves out because it cannot be read */
    private readonly leftOut: (message: string) => void = () => undefined,
  ) {}

  /** records left out of listings so far (a route reads how many its own listing left out: lists are synchronous) */
  leftOutCount = 0;

  /** The record with this id, the caller's or (mine: false) another account's. */
  find(account: string, id: string): Found<T> | undefined {
    const own = this.read(account, id);
    if (own) return { record: own.record, mine: true };
    const owner = readOwner(this.layout.ownerFile(this.kind, id));
    if (owner === undefined || owner === account) return undefined;
    const other = this.read(owner, id);
    return other ? { record: other.record, mine: false } : undefined;
  }

  /** The record from the read cache, refused (StoreCorruptError) if it is not one of ours. */
  private read(account: string, id: string): Stored<T> | undefined {
    const file = this.layout.file(account, this.kind, id);
    return this.files.cached<T>(file, (record) => shaped(this.kind, file, record));
  }

  /**
   * The account's records in creation order (a scan of its directory, one stat per record). One that
   * cannot be read is left out and said (`pause --all` still reaches the others); asked for by id it fails.
   */
  list(account: string, strict = false): Array<Listed<T>> {
    const found: Array<Listed<T>> = [];
    for (const id of this.layout.ids(account, this.kind)) {
      let stored: Stored<T> | undefined;
      try {
        stored = this.read(account, id);
      } catch (err) {
        if (strict || !(err instanceof StoreCorruptError)) throw err;
        this.leftOutCount++;
        this.leftOut(err.message);
      }
      if (stored) found.push({ ...stored, id });
    }
    return found.sort((a, b) => a.n - b.n);
  }

  /**
   * Adds a record under the account's lock, after `guard` (which may throw) has looked at the
   * account's records as they are at that moment.
   */
  insert(account: string, id: string, record: T, guard: () => void = () => undefined): Promise<void> {
    return this.locks.with(accountLock(this.kind, account), () => {
      // strict: a record it cannot read might be the very one this duplicates, or the one over the limit
      const existing = this.list(account, true);
      guard();
      this.write(account, id, { v: 1, n: existing.reduce((max, s) => Math.max(max, s.n), 0) + 1, record });
    });
  }

  /** Writes a whole record as it is (migration, tools): the owner file first, so it is never orphaned. */
  write(account: string, id: string, stored: Stored<T>): void {
    const owner = this.layout.ownerFile(this.kind, id);
    const known = fs.existsSync(owner);
    makeDir(this.layout.owners);
    writeFileAtomic(owner, account);
    try {
      this.layout.ensure(this.layout.dir(account, this.kind));
      this.files.put(this.layout.file(account, this.kind, id), stored);
    } catch (err) {
      // a record the disk refused leaves no owner file of its own behind
      if (!known) fs.rmSync(owner, { force: true });
      throw err;
    }
  }

  /** Read-modify-write of one record (RecordFiles.update): `change` gets undefined if it is gone. */
  update<R>(account: string, id: string, change: (draft: T | undefined) => R): Promise<R> {
    const file = this.layout.file(account, this.kind, id);
    return this.files.update(recordLock(this.kind, id), file, shapedChange(this.kind, file, change));
  }

  /** Removes a record for good: its owner file first (an orphaned record is then simply unknown). */
  remove(account: string, id: string): Promise<void> {
    return this.locks.with(recordLock(this.kind, id), () => this.removeNow(account, id));
  }

  removeNow(account: string, id: string): void {
    const file = this.layout.file(account, this.kind, id);
    if (readOwner(this.layout.ownerFile(this.kind, id)) === account)
      fs.rmSync(this.layout.ownerFile(this.kind, id), { force: true });
    this.files.remove(file);
  }

  /** The record read from disk now, bypassing the read cache. */
  fresh(account: string, id: string): Stored<T> | undefined {
    return readShaped<T>(this.kind, this.layout.file(account, this.kind, id));
  }
}
