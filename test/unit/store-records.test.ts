// Versioned record files (src/server/store/records.ts): a write prepared on version v lands only if
// the record is still at v, and is otherwise prepared again on the newer record. "Another process"
// is a second RecordFiles on the same directory, writing between a writer's read and its commit.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Locks } from '../../src/core/file-lock.js';
import {
  OPTIMISTIC_ATTEMPTS,
  RecordFiles,
  readRecord,
  type Stored,
  type WriteHooks,
} from '../../src/server/store/records.js';

interface Rec {
  notes: string[];
}

let dir: string;
let file: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-records-'));
  file = path.join(dir, 'agent.a.json');
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

function files(hooks: WriteHooks = {}): RecordFiles {
  return new RecordFiles(new Locks(dir), hooks);
}

function seed(notes: string[] = []): void {
  files().put<Rec>(file, { v: 1, n: 1, record: { notes } });
}

/** What another process's committed write looks like on disk: the next version, whole. */
function otherProcessAppends(note: string): void {
  const cur = readRecord<Rec>(file)!;
  files().put<Rec>(file, { ...cur, v: cur.v + 1, record: { notes: [...cur.record.notes, note] } });
}

describe('the version check at write time', () => {
  it(
    'commit writes version v+1 when the record is still at v, ' +
      'and refuses (false, nothing written) when it moved on',
    async () => {
      seed(['a']);
      const store = files();
      const base = readRecord<Rec>(file)!;
      otherProcessAppends('b');
      expect(await store.commit('agent.a', file, base, { notes: ['a', 'mine'] })).toBe(false);
      expect(readRecord<Rec>(file)).toMatchObject({ v: 2, record: { notes: ['a', 'b'] } });

      const fresh = readRecord<Rec>(file)!;
      expect(await store.commit('agent.a', file, fresh, { notes: ['a', 'b', 'mine'] })).toBe(true);
      expect(readRecord<Rec>(file)).toMatchObject({ v: 3, n: 1, record: { notes: ['a', 'b', 'mine'] } });
    },
  );

  it(
    'update runs its change again on the newer record when ' + 'another writer committed in between: both writes stay',
    async () => {
      seed();
      const seen: string[][] = [];
      await files().update<Rec, void>('agent.a', file, (draft) => {
        seen.push([...draft!.notes]);
        if (seen.length === 1) otherProcessAppends('theirs');
        draft!.notes.push('mine');
      });
      expect(seen).toEqual([[], ['theirs']]);
      expect(readRecord<Rec>(file)).toMatchObject({ v: 3, record: { notes: ['theirs', 'mine'] } });
    },
  );

  it(
    `after ${OPTIMISTIC_ATTEMPTS} conflicts the change runs ` + `under the record's lock, where it cannot conflict`,
    async () => {
      seed();
      const store = files();
      const lockFile = new Locks(dir).fileFor('agent.a');
      const locked: boolean[] = [];
      await store.update<Rec, void>('agent.a', file, (draft) => {
        locked.push(fs.existsSync(lockFile));
        if (locked.length <= OPTIMISTIC_ATTEMPTS) otherProcessAppends(`theirs${locked.length}`);
        draft!.notes.push('mine');
      });
      expect(locked).toEqual([...Array<boolean>(OPTIMISTIC_ATTEMPTS).fill(false), true]);
      const notes = readRecord<Rec>(file)!.record.notes;
      expect(notes).toHaveLength(OPTIMISTIC_ATTEMPTS + 1);
      expect(notes.at(-1)).toBe('mine');
    },
  );

  it(
    'a writer whose lock was taken over while it stalled ' + 'does not write, and writes again after the new holder',
    async () => {
      seed();
      const target = file;
      let stalls = 0;
      let usurper: Promise<void> | undefined;
      const store = files({
        // the first time, another process takes the lock over (the holder looked stale); it read the
        // record then and writes its next version a moment later, then releases
        holding: (name) => {
          if (stalls++ > 0) return;
          const lock = new Locks(dir).fileFor(name);
          const theirBase = readRecord<Rec>(target)!;
          fs.writeFileSync(lock, JSON.stringify({ pid: process.pid, host: 'elsewhere.example', token: 'usurper' }));
          usurper = new Promise((resolve) =>
            setTimeout(() => {
              files().put<Rec>(target, {
                ...theirBase,
                v: theirBase.v + 1,
                record: { notes: [...theirBase.record.notes, 'theirs'] },
              });
              fs.rmSync(lock);
              resolve();
            }, 5),
          );
        },
      });
      await store.update<Rec, void>('agent.a', target, (draft) => void draft!.notes.push('mine'));
      await usurper;
      expect(readRecord<Rec>(file)).toMatchObject({ v: 3, record: { notes: ['theirs', 'mine'] } });
    },
  );

  it('a change that throws writes nothing, and a missing record reaches the change as undefined', async () => {
    seed(['a']);
    await expect(
      files().update<Rec, void>('agent.a', file, () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(readRecord<Rec>(file)).toMatchObject({ v: 1 });
    const missing = path.join(dir, 'agent.b.json');
    expect(await files().update<Rec, string>('agent.b', missing, (draft) => String(draft))).toBe('undefined');
    expect(fs.existsSync(missing)).toBe(false);
  });
});

describe('reads', () => {
  it('a read of an unchanged record costs one stat, and none more in the same event-loop turn', async () => {
    seed(['a']);
    const store = files();
    expect(store.cached<Rec>(file)?.record.notes).toEqual(['a']);
    await new Promise((r) => setImmediate(r));
    const stat = vi.spyOn(fs, 'statSync');
    const read = vi.spyOn(fs, 'readFileSync');
    await new Promise((r) => setImmediate(r));
    expect(store.cached<Rec>(file)?.record.notes).toEqual(['a']);
    expect(store.cached<Rec>(file)?.record.notes).toEqual(['a']);
    expect([stat.mock.calls.length, read.mock.calls.length]).toEqual([1, 0]);
  });

  it("sees another process's write on the next turn, and its removal", async () => {
    seed(['a']);
    const store = files();
    expect(store.cached<Rec>(file)?.record.notes).toEqual(['a']);
    otherProcessAppends('b');
    await new Promise((r) => setImmediate(r));
    expect(store.cached<Rec>(file)?.record.notes).toEqual(['a', 'b']);
    fs.rmSync(file);
    await new Promise((r) => setImmediate(r));
    expect(store.cached<Rec>(file)).toBeUndefined();
  });

  it('a record that is not a stored record is reported, not taken for empty', () => {
    fs.writeFileSync(file, '{"v":1,"record":');
    expect(() => readRecord(file)).toThrow(/is not valid/);
    const stored: Stored<Rec> = { v: 1, n: 1, record: { notes: [] } };
    fs.writeFileSync(file, JSON.stringify(stored));
    expect(readRecord<Rec>(file)).toEqual(stored);
  });
});
