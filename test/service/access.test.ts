// Who may call what (docs/api.md, Keys and authentication): keys, ownership per key, unknown routes.
import { beforeEach, describe, expect, it } from 'vitest';
import {
  AGENT_ROUTES,
  agentPath,
  chat,
  expectError,
  files,
  getJson,
  KEY_A,
  KEY_B,
  launch,
  type Launched,
  listAgents,
  UNKNOWN_KEY,
  useServicePerTest,
} from '../helpers/superagent-fixtures.js';

// Every test has a service of its own and launches A's agent on it: B's list, A's list and the
// agent's state are then exactly what the test itself made them.
describe('ownership per key', () => {
  const svc = useServicePerTest();
  let agentA: Launched;
  beforeEach(async () => {
    agentA = await launch(svc(), { name: 'Owned By A' });
  });
  const snapshot = async (id: string) => ({
    record: await getJson(svc(), agentPath(id)),
    files: await files(svc(), id),
    skills: await getJson(svc(), agentPath(id, '/skills')),
  });

  it.each(AGENT_ROUTES)('B gets 403 on $method …/{A agent}$suffix', async ({ method, suffix, body }) => {
    const res = await svc().call(method, agentPath(agentA.agent_id, suffix), { body, key: KEY_B });
    expect(res.status, res.text).toBe(403);
    expect(res.json).toEqual({ statusCode: 403, message: expect.any(String), error: 'Forbidden' });
    expect(res.text).not.toContain(agentA.wallet_address);
  });

  it("B gets 403 on a chat that continues one of A's sessions", async () => {
    const first = await chat(svc(), agentA.agent_id, { message: 'hello' });
    expect(first.status, first.text).toBe(200);
    const res = await chat(
      svc(),
      agentA.agent_id,
      { message: 'hello again', session_id: first.json.session_id },
      KEY_B,
    );
    expect(res.status, res.text).toBe(403);
  });

  it("B's list does not show A's agents; A's shows only A's", async () => {
    const agentB = await launch(svc(), { name: 'Owned By B' }, KEY_B);
    const listB = await listAgents(svc(), KEY_B);
    expect(listB.map((a) => a.agent_id)).toEqual([agentB.agent_id]);
    const listA = await listAgents(svc(), KEY_A);
    expect(listA.map((a) => a.agent_id)).toEqual([agentA.agent_id]);
  });

  it("nothing B tries changes A's agent: every route and a session of A's", async () => {
    const id = agentA.agent_id;
    // A's own chat first (it writes memory), so that the snapshot is what B must leave alone
    const first = await chat(svc(), id, { message: 'hello' });
    expect(first.status, first.text).toBe(200);
    const before = await snapshot(id);
    for (const { method, suffix, body } of AGENT_ROUTES) {
      const res = await svc().call(method, agentPath(id, suffix), { body, key: KEY_B });
      expect(res.status, `${method} ${suffix}: ${res.text}`).toBe(403);
    }
    expect((await chat(svc(), id, { message: 'hello again', session_id: first.json.session_id }, KEY_B)).status).toBe(
      403,
    );
    expect(await snapshot(id)).toEqual(before);
  });
});

// A service per test: "nothing is launched" and the X-API-Key list count every agent there is.
describe('auth and routing', () => {
  const svc = useServicePerTest();

  it('no key: 401 Invalid or revoked API key', async () => {
    expectError(await svc().call('GET', '/v1/superagents', { key: null }), 401, 'Invalid or revoked API key');
    expectError(
      await svc().call('POST', '/v1/superagents', { key: null, body: { name: 'x' } }),
      401,
      'Invalid or revoked API key',
    );
  });

  it('an unknown key: 401, and nothing is launched with it', async () => {
    expectError(
      await svc().call('POST', '/v1/superagents', { key: UNKNOWN_KEY, body: { name: 'x' } }),
      401,
      'Invalid or revoked API key',
    );
    expectError(await svc().call('GET', '/v1/superagents', { key: UNKNOWN_KEY }), 401, 'Invalid or revoked API key');
    expect(await listAgents(svc())).toEqual([]);
  });

  it('X-API-Key works as well as Bearer', async () => {
    const { agent_id } = await launch(svc(), { name: 'Header Test' });
    const viaHeader = await svc().call('GET', '/v1/superagents', { key: null, headers: { 'X-API-Key': KEY_A } });
    expect(viaHeader.status, viaHeader.text).toBe(200);
    expect(viaHeader.json.agents.map((a: any) => a.agent_id)).toEqual([agent_id]);
    const bad = await svc().call('GET', '/v1/superagents', { key: null, headers: { 'X-API-Key': UNKNOWN_KEY } });
    expectError(bad, 401, 'Invalid or revoked API key');
  });

  it.each([
    ['GET', '/v1/nope'],
    ['POST', '/v1/nope'],
    ['PATCH', '/v1/superagents'],
  ])('unknown route %s %s: 404 Cannot <METHOD> <path>', async (method, path) => {
    const res = await svc().call(method, path);
    expect(res.status, res.text).toBe(404);
    expect(res.json).toEqual({ statusCode: 404, message: `Cannot ${method} ${path}`, error: 'Not Found' });
  });
});
