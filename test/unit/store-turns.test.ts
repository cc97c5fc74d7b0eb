// A chat turn (src/server/sessions.ts takeTurn): the reply is composed with no lock held, and the
// turn is written only on the session it was composed on; if another writer added a turn meanwhile,
// the reply is composed again on the newer history, and nobody's turn is lost.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RECOMPOSE_ATTEMPTS, takeTurn } from '../../src/server/sessions.js';
import { Store, type StoredSession } from '../../src/server/store.js';
import { Locks } from '../../src/core/file-lock.js';
import { RecordFiles, readRecord } from '../../src/server/store/records.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-turns-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const ACCOUNT = 'a'.repeat(24);
const SESSION = '00000000-0000-4000-8000-000000000001';

async function withSession(store: Store): Promise<void> {
  const s: StoredSession = {
    session_id: SESSION,
    owner: ACCOUNT,
    agent_id: null,
    created_at: new Date().toISOString(),
    turns: 0,
    history: [],
  };
  await store.sessions.create(ACCOUNT, s, Date.now());
}

/** Another process's turn, committed between this one's read and its write (the next version, whole). */
function otherProcessTurn(store: Store, note: string): void {
  const file = store.layout.file(ACCOUNT, 'session', SESSION);
  const cur = readRecord<StoredSession>(file)!;
  cur.record.turns += 1;
  cur.record.history.push({ role: 'user', content: note }, { role: 'agent', content: `re ${note}` });
  new RecordFiles(new Locks(store.layout.locks)).put(file, { ...cur, v: cur.v + 1 });
}

describe('takeTurn', () => {
  it('composes again on the newer history when another writer added a turn meanwhile; both turns stay', async () => {
    const store = new Store(dir).open();
    await withSession(store);
    const seen: string[][] = [];
    const { reply } = await takeTurn(store, {
      sessionId: SESSION,
      owner: ACCOUNT,
      agentId: null,
      message: 'mine',
      compose: (history) => {
        seen.push(history.map((t) => t.content));
        if (seen.length === 1) otherProcessTurn(store, 'theirs');
        return { content: `reply after ${history.length} lines` };
      },
    });
    expect(seen).toEqual([[], ['theirs', 're theirs']]);
    expect(reply.content).toBe('reply after 2 lines');
    const stored = store.sessions.get(ACCOUNT, SESSION)!.record;
    expect(stored.turns).toBe(2);
    expect(stored.history.map((t) => t.content)).toEqual(['theirs', 're theirs', 'mine', 'reply after 2 lines']);
  });

  it(
    `after ${RECOMPOSE_ATTEMPTS} compositions overtaken by other ` +
      `writers, the last reply is added to the newest history`,
    async () => {
      const store = new Store(dir).open();
      await withSession(store);
      let calls = 0;
      await takeTurn(store, {
        sessionId: SESSION,
        owner: ACCOUNT,
        agentId: null,
        message: 'mine',
        compose: () => {
          calls += 1;
          otherProcessTurn(store, `theirs${calls}`);
          return { content: `reply ${calls}` };
        },
      });
      expect(calls).toBe(RECOMPOSE_ATTEMPTS);
      const stored = store.sessions.get(ACCOUNT, SESSION)!.record;
      expect(stored.turns).toBe(RECOMPOSE_ATTEMPTS + 1);
      expect(stored.history.slice(-2).map((t) => t.content)).toEqual(['mine', `reply ${RECOMPOSE_ATTEMPTS}`]);
    },
  );

  it('a session that is gone (dropped by the cap) is 404 Session not found, and nothing is written', async () => {
    const store = new Store(dir).open();
    await expect(
      takeTurn(store, {
        sessionId: SESSION,
        owner: ACCOUNT,
        agentId: null,
        message: 'x',
        compose: () => ({ content: 'y' }),
      }),
    ).rejects.toMatchObject({ statusCode: 404, message: 'Session not found' });
    expect(store.sessions.get(ACCOUNT, SESSION)).toBeUndefined();
  });
});
