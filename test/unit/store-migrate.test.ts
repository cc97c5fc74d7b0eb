// A data dir in the old layout (one state.json) opens in the per-record layout: everything in
// it is there afterwards, the old file is kept as state.json.migrated, and a migration cut short at
// any point is done again (or finished) by the next open without losing anything.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store, StoreCorruptError } from '../../src/server/store.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-migrate-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const A = 'a'.repeat(24);
const B = 'b'.repeat(24);
const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const AT = '2030-01-01T00:00:00.000Z';

function legacyAgent(n: number, owner: string, extra: Record<string, unknown> = {}) {
  return {
    agent_id: id(n),
    owner,
    name: `agent${n}`,
    status: 'running',
    created_at: AT,
    updated_at: AT,
    memory_md: `# Memory of agent${n}\n`,
    ...extra,
  };
}

/** An old state.json: two accounts, a destroyed agent, sessions in creation order, a classic agent. */
function legacyState() {
  const sessions: Record<string, unknown> = {};
  for (let n = 1; n <= 4; n++) {
    sessions[id(100 + n)] = {
      session_id: id(100 + n),
      owner: A,
      agent_id: n === 4 ? null : id(1),
      created_at: AT,
      turns: n,
      history: [{ role: 'user', content: `q${n}` }],
    };
  }
  return {
    version: 1,
    superagents: {
      [id(1)]: legacyAgent(1, A),
      [id(2)]: legacyAgent(2, A),
      [id(3)]: legacyAgent(3, B, { status: 'destroyed', updated_at: '2999-01-01T00:00:00.000Z' }),
    },
    sessions,
    classic: { [id(200)]: { id: id(200), owner: B, name: 'classic', created_at: AT, updated_at: AT } },
  };
}

function writeLegacy(state: unknown = legacyState()): string {
  const text = JSON.stringify(state);
  fs.writeFileSync(path.join(dir, 'state.json'), text);
  return text;
}

function expectMigrated(store: Store, legacyText: string): void {
  expect(store.liveAgents(A).map((e) => e.record.name)).toEqual(['agent1', 'agent2']); // in creation order
  expect(store.liveAgents(B)).toEqual([]);
  expect(store.agents.find(B, id(3))?.record.status).toBe('destroyed');
  expect(store.agents.find(B, id(1))).toMatchObject({ mine: false }); // someone else's: 403
  expect(store.agents.find(A, id(1))?.record).toEqual(legacyAgent(1, A));
  expect(store.sessions.get(A, id(103))?.record).toMatchObject({
    turns: 3,
    agent_id: id(1),
    history: [{ role: 'user', content: 'q3' }],
  });
  expect(store.classic.find(B, id(200))).toMatchObject({ mine: true, record: { name: 'classic' } });
  expect(fs.existsSync(path.join(dir, 'state.json'))).toBe(false);
  expect(fs.readFileSync(path.join(dir, 'state.json.migrated'), 'utf8')).toBe(legacyText);
}

describe('migrating state.json', () => {
  it('moves every agent, session and classic agent into records, and keeps the old file as state.json.migrated', () => {
    const text = writeLegacy();
    expectMigrated(new Store(dir).open(), text);
  });

  it("keeps the sessions' creation order: the cap then drops the oldest of the old ones first", async () => {
    writeLegacy();
    const store = new Store(dir, { sessionsKept: 4 }).open();
    await store.sessions.create(
      A,
      { session_id: id(999), owner: A, agent_id: null, created_at: AT, turns: 0, history: [] },
      Date.parse(AT) + 1,
    );
    expect([101, 102, 103, 104, 999].map((n) => store.sessions.get(A, id(n)) !== undefined)).toEqual([
      false,
      true,
      true,
      true,
      true,
    ]);
  });

  it('a migration killed half-way (its build directory left behind) is done again by the next open', () => {
    const text = writeLegacy();
    const dead = 999_999_999;
    const half = path.join(dir, `records.${dead}.abc.tmp`);
    fs.mkdirSync(path.join(half, 'accounts', A, 'agents'), { recursive: true });
    fs.writeFileSync(path.join(half, 'accounts', A, 'agents', `agent.${id(1)}.json`), '{"v":1,"n":1,"rec');
    expectMigrated(new Store(dir).open(), text);
    expect(fs.readdirSync(dir).sort()).toEqual(['records', 'state.json.migrated']);
  });

  it(
    'killed after the records were in place but before state.json ' + 'was renamed: the records stay as written since',
    async () => {
      const text = writeLegacy();
      const store = new Store(dir).open();
      await store.agents.update(A, id(1), (a) => {
        a!.name = 'renamed after the migration';
      });
      fs.renameSync(path.join(dir, 'state.json.migrated'), path.join(dir, 'state.json'));
      const again = new Store(dir).open();
      expect(again.agents.find(A, id(1))?.record.name).toBe('renamed after the migration');
      expect(fs.readFileSync(path.join(dir, 'state.json.migrated'), 'utf8')).toBe(text);
      expect(fs.existsSync(path.join(dir, 'state.json'))).toBe(false);
    },
  );

  it('a state.json that is not JSON stops the open and is left as it is', () => {
    fs.writeFileSync(path.join(dir, 'state.json'), '{"superagents":');
    expect(() => new Store(dir).open()).toThrow(StoreCorruptError);
    expect(fs.readdirSync(dir)).toEqual(['state.json']);
  });

  it('a data dir without state.json starts empty, and an open store is reopened as it is', async () => {
    const store = new Store(dir).open();
    expect(store.layout.accountIds()).toEqual([]);
    expect(fs.readdirSync(dir)).toEqual(['records']);
    await store.classic.insert(A, id(7), { id: id(7), owner: A, name: 'c', created_at: AT } as never);
    expect(new Store(dir).open().classic.find(A, id(7))?.mine).toBe(true);
  });
});
