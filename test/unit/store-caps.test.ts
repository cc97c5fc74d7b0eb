// What the store keeps (src/server/store/caps.ts and its users): memory.md under 64 KiB with its
// newest lines, a session's last turns, an account's newest sessions, and destroyed agents purged
// after their grace time. The store's clock is injected.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordTurn } from '../../src/server/sessions.js';
import { Store, TIDY_INTERVAL_MS, type StoredAgent, type StoredSession } from '../../src/server/store.js';
import {
  DESTROYED_GRACE_MS,
  HISTORY_KEPT,
  MEMORY_MAX_BYTES,
  MEMORY_TRIMMED_NOTE,
  SESSIONS_KEPT,
  appendMemory,
  capMemory,
} from '../../src/server/store/caps.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-caps-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const ACCOUNT = 'a'.repeat(24);
const T0 = Date.parse('2030-01-01T00:00:00Z');

function agent(id: string, over: Partial<StoredAgent> = {}): StoredAgent {
  const at = new Date(T0).toISOString();
  return {
    agent_id: id,
    owner: ACCOUNT,
    name: id,
    description: '',
    status: 'running',
    model: 'gpt-4o',
    model_provider: 'openai',
    created_at: at,
    updated_at: at,
    bot_username: null,
    telegram_bot_token: null,
    evm_address: '0x0',
    solana_address: 'x',
    soul_md: '',
    memory_md: '',
    skills: {},
    container_started_at: at,
    restarts: 0,
    ...over,
  };
}

function session(id: string, agentId: string | null): StoredSession {
  return {
    session_id: id,
    owner: ACCOUNT,
    agent_id: agentId,
    created_at: new Date(T0).toISOString(),
    turns: 0,
    history: [],
  };
}

describe('memory.md', () => {
  const title = '# Memory of Capped';
  const line = (i: number) => `- 2030-01-01: note number ${String(i).padStart(6, '0')} ${'é'.repeat(20)}`;

  it('is unchanged while it fits', () => {
    const memory = `${title}\n\n${line(1)}\n`;
    expect(capMemory(memory)).toBe(memory);
    expect(appendMemory(memory, 'x')).toBe(`${memory}- x\n`);
  });

  it(
    'past 64 KiB (in UTF-8 bytes) keeps its title, says at its ' +
      'top that it was trimmed, and keeps the newest lines',
    () => {
      let memory = `${title}\n\n`;
      let n = 0;
      while (Buffer.byteLength(memory) <= MEMORY_MAX_BYTES) memory += `${line(++n)}\n`;
      const capped = capMemory(memory);
      expect(Buffer.byteLength(capped)).toBeLessThanOrEqual(MEMORY_MAX_BYTES);
      expect(capped.startsWith(`${title}\n\n${MEMORY_TRIMMED_NOTE}\n- `)).toBe(true);
      expect(capped.endsWith(`${line(n)}\n`)).toBe(true);
      // whole lines, contiguous up to the newest
      const kept = capped.split('\n').slice(3, -1);
      const first = Number(/number (\d+)/.exec(kept[0]!)![1]);
      expect(kept).toEqual(Array.from({ length: n - first + 1 }, (_, i) => line(first + i)));
      expect(first).toBeGreaterThan(1);
    },
  );

  it('stays capped as lines keep coming, with one note', () => {
    let memory = `${title}\n\n`;
    for (let i = 1; i <= 3000; i++) memory = appendMemory(memory, line(i).slice(2));
    expect(Buffer.byteLength(memory)).toBeLessThanOrEqual(MEMORY_MAX_BYTES);
    expect(memory.split(MEMORY_TRIMMED_NOTE)).toHaveLength(2);
    expect(memory.endsWith(`${line(3000)}\n`)).toBe(true);
  });
});

describe('sessions', () => {
  it(`keep the last ${HISTORY_KEPT} turns of history`, () => {
    const s = session('s', null);
    for (let i = 0; i < 30; i++) recordTurn(s, `q${i}`, `a${i}`);
    expect(s.turns).toBe(30);
    expect(s.history).toHaveLength(HISTORY_KEPT);
    expect(s.history.at(-1)).toEqual({ role: 'agent', content: 'a29' });
  });

  it(`an account keeps its newest sessions (${SESSIONS_KEPT} by default; 3 here): the oldest are dropped`, async () => {
    const store = new Store(dir, { sessionsKept: 3 }).open();
    const ids = ['s1', 's2', 's3', 's4', 's5'];
    // created in this order, some in the same millisecond
    for (const [i, id] of ids.entries())
      await store.sessions.create(ACCOUNT, session(id, null), T0 + Math.floor(i / 2));
    expect(ids.map((id) => store.sessions.get(ACCOUNT, id) !== undefined)).toEqual([false, false, true, true, true]);
    expect(fs.readdirSync(store.layout.orderDir(ACCOUNT))).toHaveLength(3);
    expect(new Store(dir).sessions.get('b'.repeat(24), 's5')).toBeUndefined(); // another account's is not found
  });

  it("a destroyed agent's sessions go, the others stay", async () => {
    const store = new Store(dir).open();
    await store.sessions.create(ACCOUNT, session('mine', 'agent-1'), T0);
    await store.sessions.create(ACCOUNT, session('other', 'agent-2'), T0);
    await store.sessions.create(ACCOUNT, session('assistant', null), T0);
    await store.sessions.forgetAgent(ACCOUNT, 'agent-1');
    expect(['mine', 'other', 'assistant'].map((id) => store.sessions.get(ACCOUNT, id) !== undefined)).toEqual([
      false,
      true,
      true,
    ]);
  });
});

describe('destroyed agents', () => {
  async function destroyedAt(store: Store, id: string, at: number): Promise<void> {
    await store.launchAgent(ACCOUNT, agent(id), () => undefined);
    await store.agents.update(ACCOUNT, id, (a) => {
      a!.status = 'destroyed';
      a!.destroyed_at = new Date(at).toISOString();
    });
  }

  it(
    `are kept for ${DESTROYED_GRACE_MS / 3_600_000} h, then purged ` +
      `(record and owner file) by the next look at the account`,
    async () => {
      let now = T0;
      const store = new Store(dir, { now: () => now }).open();
      await destroyedAt(store, 'gone', T0);
      await store.launchAgent(ACCOUNT, agent('alive'), () => undefined);
      const file = store.layout.file(ACCOUNT, 'agent', 'gone');

      now = T0 + DESTROYED_GRACE_MS - 1;
      expect(store.liveAgents(ACCOUNT).map((e) => e.id)).toEqual(['alive']);
      expect(fs.existsSync(file)).toBe(true);
      expect(store.agents.find(ACCOUNT, 'gone')?.record.status).toBe('destroyed'); // the routes answer 404

      now = T0 + DESTROYED_GRACE_MS + 1;
      expect(store.liveAgents(ACCOUNT).map((e) => e.id)).toEqual(['alive']);
      expect(fs.existsSync(file)).toBe(false);
      expect(fs.existsSync(store.layout.ownerFile('agent', 'gone'))).toBe(false);
      expect(store.agents.find(ACCOUNT, 'gone')).toBeUndefined();
      expect(store.agents.find('b'.repeat(24), 'gone')).toBeUndefined(); // not 403 either
    },
  );

  it(
    'are purged by a store opening past their grace time, at most once an hour (an ' +
      'agent destroyed with no destruction time recorded counts from its last update)',
    async () => {
      const first = new Store(dir, { now: () => T0 }).open();
      await destroyedAt(first, 'recent', T0);
      await first.launchAgent(
        ACCOUNT,
        agent('old', { status: 'destroyed', updated_at: new Date(T0 - DESTROYED_GRACE_MS).toISOString() }),
        () => undefined,
      );
      const old = first.layout.file(ACCOUNT, 'agent', 'old');
      new Store(dir, { now: () => T0 + TIDY_INTERVAL_MS - 1 }).open();
      expect(fs.existsSync(old)).toBe(true); // tidied by the first open, under an hour ago
      new Store(dir, { now: () => T0 + TIDY_INTERVAL_MS }).open();
      expect(fs.existsSync(old)).toBe(false);
      expect(fs.existsSync(first.layout.file(ACCOUNT, 'agent', 'recent'))).toBe(true);
    },
  );

  it('do not count toward the live-agent limit the launch guard sees', async () => {
    const store = new Store(dir, { now: () => T0 }).open();
    await destroyedAt(store, 'gone', T0);
    let seen: string[] = [];
    await store.launchAgent(ACCOUNT, agent('new'), (live) => {
      seen = live.map((a) => a.agent_id);
    });
    expect(seen).toEqual([]);
  });
});
