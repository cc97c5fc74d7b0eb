// Chat with a SuperAgent over real HTTP (docs/api.md, Chat, sessions and the assistant): JSON answers, sessions and
// memory, and the SSE stream event by event, tool calls included.
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { accountId, hashKey } from '../../src/server/auth.js';
import { Store } from '../../src/server/store.js';
import { type TestService } from '../helpers/service.js';
import { eventNames, expectAgentStream } from '../helpers/service-support.js';
import {
  agentPath,
  chat,
  expectError,
  files,
  KEY_B,
  launch,
  memoryLines,
  MODEL,
  useService,
  useServicePerTest,
  utcDay,
  UUID,
} from '../helpers/superagent-fixtures.js';

// Fresh agents (on a fresh service) per test: the memory tests read what memory.md holds before
// they chat, which must not depend on which chats ran before them.
describe('POST …/{id}/chat (JSON)', () => {
  const svc = useServicePerTest();
  let id: string;
  let otherId: string;
  beforeEach(async () => {
    id = (await launch(svc(), { name: 'Chatter' })).agent_id;
    otherId = (await launch(svc(), { name: 'Other Chatter' })).agent_id;
  });
  const MESSAGE = 'What do you think of the BTC market right now?';

  async function say(body: Record<string, unknown>, agentId = id): Promise<{ content: string; session_id: string }> {
    const res = await chat(svc(), agentId, body);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json\b/);
    return res.json;
  }

  it('answers exactly { content, session_id } with a new session id', async () => {
    const body = await say({ message: MESSAGE });
    expect(Object.keys(body).sort()).toEqual(['content', 'session_id']);
    expect(body.session_id).toMatch(UUID);
    expect(typeof body.content).toBe('string');
    expect(body.content.trim().length).toBeGreaterThan(0);
  });

  it('continues a session (history changes the reply) and is deterministic for the same history', async () => {
    const first = await say({ message: MESSAGE });
    const second = await say({ message: MESSAGE, session_id: first.session_id });
    expect(second.session_id).toBe(first.session_id);
    expect(second.content).not.toBe(first.content);

    const fresh = await say({ message: MESSAGE });
    expect(fresh.session_id).not.toBe(first.session_id);
    expect(fresh.content).toBe(first.content);

    // …and the same turn in that fresh session repeats the second reply too
    const freshSecond = await say({ message: MESSAGE, session_id: fresh.session_id });
    expect(freshSecond.content).toBe(second.content);

    // another agent answers the same message differently
    expect((await say({ message: MESSAGE }, otherId)).content).not.toBe(first.content);
  });

  it.each([
    ['an unknown session_id', () => randomUUID()],
    ['a malformed session_id', () => 'not-a-session'],
  ])('404 Session not found for %s', async (_label, sessionId) => {
    const memory = (await files(svc(), id)).memory_md;
    expectError(
      await chat(svc(), id, { message: 'remember that I prefer SOL', session_id: sessionId() }),
      404,
      'Session not found',
    );
    expect((await files(svc(), id)).memory_md).toBe(memory);
  });

  it("404 Session not found for another agent's session", async () => {
    const other = await say({ message: 'hello' }, otherId);
    expectError(await chat(svc(), id, { message: 'hi', session_id: other.session_id }), 404, 'Session not found');
  });

  it("404 Session not found for another key's session on the caller's own agent", async () => {
    const ownB = (await launch(svc(), { name: 'B Chatter' }, KEY_B)).agent_id;
    const sessionA = await say({ message: 'hello' });
    expectError(
      await chat(svc(), ownB, { message: 'hi', session_id: sessionA.session_id }, KEY_B),
      404,
      'Session not found',
    );
  });

  it.each<[string, unknown, string]>([
    ['a missing message', {}, 'message is required'],
    ['an empty message', { message: '   ' }, 'message must not be empty'],
    ['a non-boolean stream', { message: 'hi', stream: 'yes' }, 'stream must be a boolean'],
  ])('400 for %s', async (_label, body, message) => {
    expectError(await svc().call('POST', agentPath(id, '/chat'), { body }), 400, message);
  });

  it(
    'a chat adds nothing to memory.md, new session or continued; a ' +
      'model or soul change adds one dated line, the same again none',
    async () => {
      const before = memoryLines((await files(svc(), id)).memory_md);
      const opened = await say({ message: 'hello there' });
      await say({ message: 'and again', session_id: opened.session_id });
      await say({ message: 'hello there' });
      expect(memoryLines((await files(svc(), id)).memory_md)).toEqual(before);

      const dayBefore = utcDay();
      const put = (what: string, body: Record<string, unknown>) =>
        svc().call('PUT', agentPath(id, `/${what}`), { body });
      expect((await put('model', { model: 'grok-4', model_provider: 'xai' })).status).toBe(200);
      expect((await put('model', { model: 'grok-4', model_provider: 'xai' })).status).toBe(200);
      expect((await put('soul', { soul_md: '# A new soul\n' })).status).toBe(200);
      expect((await put('soul', { soul_md: '# A new soul\n' })).status).toBe(200);
      const dayAfter = utcDay();
      const after = memoryLines((await files(svc(), id)).memory_md);
      expect(after.slice(0, before.length)).toEqual(before);
      const added = after.slice(before.length).map((line) => /^- (\d{4}-\d{2}-\d{2}): (.*)$/.exec(line)?.slice(1));
      expect(added).toEqual([
        [expect.any(String), 'model changed to grok-4 (xai)'],
        [expect.any(String), 'soul.md updated'],
      ]);
      for (const [day] of added as string[][]) expect([dayBefore, dayAfter]).toContain(day);
    },
  );

  it('"remember that I prefer SOL" adds that line to memory.md', async () => {
    const opened = await say({ message: 'hi' });
    const before = memoryLines((await files(svc(), id)).memory_md);
    expect(before.join('\n')).not.toContain('I prefer SOL');
    await say({ message: 'remember that I prefer SOL', session_id: opened.session_id });
    const after = memoryLines((await files(svc(), id)).memory_md);
    expect(after).toHaveLength(before.length + 1);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.at(-1)).toMatch(/^- \d{4}-\d{2}-\d{2}: I prefer SOL$/);
  });

  it(
    "a turn writes the agent's record only when there is " + 'something to remember (a write costs what it changes)',
    async () => {
      const version = () => new Store(svc().dataDir).open().agents.fresh(accountId(hashKey(svc().key)), id)!.v;
      const start = version();
      const opened = await say({ message: MESSAGE });
      await say({ message: MESSAGE, session_id: opened.session_id });
      expect(version()).toBe(start);
      await say({ message: 'remember that I prefer SOL', session_id: opened.session_id });
      expect(version()).toBe(start + 1);
    },
  );
});

// A fresh agent per test: the default-skills test relies on skills nobody has changed.
describe('POST …/{id}/chat with stream: true (SSE)', () => {
  const svc = useServicePerTest();
  let agent: { agent_id: string; model: string };
  beforeEach(async () => {
    agent = { agent_id: (await launch(svc(), { name: 'Streamer' })).agent_id, model: MODEL.model };
  });

  /** Streams one reply and checks it event by event (service-sse.ts); returns what it carried. */
  async function streamChat(
    target: TestService,
    who: { agent_id: string; model: string },
    body: Record<string, unknown>,
  ) {
    const res = await chat(target, who.agent_id, { ...body, stream: true });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream\b/);
    return expectAgentStream(res.text, who);
  }

  it(
    'sends data-only lines: session_info, RunStarted, RunContent…, ' +
      'RunCompleted, stream_complete, then data: [DONE]',
    async () => {
      const res = await chat(svc(), agent.agent_id, { message: 'Hello, who are you?', stream: true });
      expect(res.text).not.toMatch(/^event:/m);
      expect(res.text.endsWith('\n\ndata: [DONE]\n\n')).toBe(true);
      const s = expectAgentStream(res.text, agent);
      expect(s.tools).toEqual([]); // a greeting draws on no skill
      expect(eventNames(s.wire.events)).toEqual([
        'session_info',
        'RunStarted',
        ...s.pieces.map(() => 'RunContent'),
        'RunCompleted',
        'stream_complete',
      ]);
      expect(s.content.trim().length).toBeGreaterThan(0);
    },
  );

  it(
    'streams the same reply the JSON answer gives, continues a ' + 'session, and gives every run its own run_id',
    async () => {
      const message = 'Any news on SOL?';
      const streamed = await streamChat(svc(), agent, { message });
      const json = await chat(svc(), agent.agent_id, { message });
      expect(json.status).toBe(200);
      expect(Object.keys(json.json).sort()).toEqual(['content', 'session_id']);
      expect(streamed.content).toBe(json.json.content);

      const next = await streamChat(svc(), agent, { message, session_id: streamed.sessionId });
      expect(next.sessionId).toBe(streamed.sessionId);
      expect(next.runId).not.toBe(streamed.runId);
      const jsonNext = await chat(svc(), agent.agent_id, { message, session_id: json.json.session_id });
      expect(next.content).toBe(jsonNext.json.content);
    },
  );

  it(
    'reports a tool call per enabled skill the reply draws on: ETH ' +
      'funding with hyperliquid on → get_funding_rate {symbol: ETH}',
    async () => {
      const tooled = { agent_id: (await launch(svc(), { name: 'Tooled' })).agent_id, model: MODEL.model };
      const skills = (disabled: string[]) =>
        svc().call('PUT', agentPath(tooled.agent_id, '/skills'), { body: { disabled } });
      expect((await skills([])).status).toBe(200);
      const message = 'What is the ETH funding rate?';
      const on = await streamChat(svc(), tooled, { message });
      expect(on.tools.map((t) => [t.tool_name, t.tool_args])).toEqual([['get_funding_rate', { symbol: 'ETH' }]]);
      const found = JSON.parse(on.tools[0].result);
      expect(found).toMatchObject({ symbol: 'ETH', interval: '1h' });
      expect(on.content).toContain(`funding ${(found.funding_rate * 100).toFixed(4)}%/h`);

      // the same question in a fresh session calls the same tool with the same id and result
      expect((await streamChat(svc(), tooled, { message })).tools).toEqual(on.tools);

      expect((await skills(['hyperliquid'])).status).toBe(200);
      const off = await streamChat(svc(), tooled, { message });
      expect(off.tools).toEqual([]);
      expect(off.content).toContain('hyperliquid');
    },
  );

  it('the skills on by default draw tools too: portfolio-tracker get_positions, market-intel get_price', async () => {
    const s = await streamChat(svc(), agent, { message: 'What is the price of SOL, and how is my portfolio?' });
    expect(s.tools.map((t) => [t.tool_name, t.tool_args])).toEqual([
      ['get_positions', {}],
      ['get_price', { symbol: 'SOL' }],
    ]);
    const price = JSON.parse(s.tools[1].result);
    expect(s.content).toContain(`SOL $`);
    expect(price.symbol).toBe('SOL');
  });

  describe('with tokenDelayMs: 5', () => {
    const slow = useService({ tokenDelayMs: 5 });
    it('still completes, with the same reply as without a delay', async () => {
      const { agent_id } = await launch(slow(), { name: 'Slow Streamer' });
      const streamed = await streamChat(slow(), { agent_id, model: MODEL.model }, { message: 'How is BTC doing?' });
      const json = await chat(slow(), agent_id, { message: 'How is BTC doing?' });
      expect(streamed.content).toBe(json.json.content);
    });
  });
});
