// SuperAgents over real HTTP against the embedded service (API-CONTRACT.md §1, §2, §7, §9).
// Every describe starts its own service (fresh data dir) so agent counts and the 10-agent
// limit of one describe never leak into another.
import fs from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { randomUUID } from 'node:crypto';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ServerOptions } from '../../src/server/index.js';
import { startTestService, tempDir, type CallResult, type TestService } from '../helpers/service.js';
import { eventNames, expectAgentStream, parseWire, stopService } from './service-support.js';

// ---------------------------------------------------------------------------------------------
// Fixtures and helpers

const KEY_A = 'sa_sk_' + 'Aa1Bb2Cc3Dd4Ee5Ff6Gg7Hh8Ii9Jj0Kk'.slice(0, 32);
const KEY_B = 'sa_sk_' + 'Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp'.slice(0, 32);
const UNKNOWN_KEY = 'sa_sk_' + 'M'.repeat(32);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;
const PROVIDERS = ['openai', 'anthropic', 'xai', 'openrouter', 'venice'];
const PROVIDER_MESSAGE = 'model_provider must be one of: openai, anthropic, xai, openrouter, venice';
const VALID_BOT_TOKEN = '7123456789:AAHk3_x-ZyQw9vLmN0pRsTuVwXyZaBcDeFg';
const SOUL_LIMIT = 256 * 1024;
/** the hosted `SuperAgentSummary`, in its order */
const RECORD_KEYS = ['agent_id', 'name', 'description', 'status', 'model', 'created_at'];
/** what every launch here sends besides its name: both are required (hosted-openapi.json) */
const MODEL = { model: 'gpt-4o', model_provider: 'openai' };
const SKILL_CATALOGUE = [
  'hyperliquid',
  'polymarket',
  'polymarket-deep-research',
  'evm-wallet',
  'solana-wallet',
  'solana-swap',
  'portfolio-tracker',
  'chain-registry',
  'market-intel',
];

interface Launched {
  agent_id: string;
  name: string;
  bot_username: string | null;
  wallet_address: string;
  status: string;
}

/** Starts a service for the enclosing describe (keys A and B) and closes it, data dir and all, afterwards. */
function useService(options: Partial<ServerOptions> = {}): () => TestService {
  let service: TestService | undefined;
  beforeAll(async () => {
    service = await startTestService({ keys: [KEY_A, KEY_B], ...options });
  });
  afterAll(() => stopService(service));
  return () => service!;
}

async function launch(svc: TestService, body: Record<string, unknown> = {}, key: string = KEY_A): Promise<Launched> {
  const res = await svc.call('POST', '/v1/superagents', { body: { name: 'Test Agent', ...MODEL, ...body }, key });
  expect(res.status, res.text).toBe(200);
  return res.json as Launched;
}

/** The list, which must be exactly `{ agents: [...] }`. */
async function listAgents(svc: TestService, key: string = KEY_A): Promise<any[]> {
  const res = await svc.call('GET', '/v1/superagents', { key });
  expect(res.status, res.text).toBe(200);
  expect(Object.keys(res.json)).toEqual(['agents']);
  expect(Array.isArray(res.json.agents)).toBe(true);
  return res.json.agents as any[];
}

async function getJson(svc: TestService, path: string, key: string = KEY_A): Promise<any> {
  const res = await svc.call('GET', path, { key });
  expect(res.status, `GET ${path}: ${res.text}`).toBe(200);
  return res.json;
}

const agentPath = (id: string, suffix = '') => `/v1/superagents/${id}${suffix}`;
const files = (svc: TestService, id: string, key?: string) => getJson(svc, agentPath(id, '/files'), key);

async function destroyAll(svc: TestService, key: string = KEY_A): Promise<void> {
  for (const agent of await listAgents(svc, key)) {
    const res = await svc.call('DELETE', agentPath(agent.agent_id), { key });
    expect(res.status, res.text).toBe(200);
  }
}

async function chat(svc: TestService, id: string, body: Record<string, unknown>, key: string = KEY_A): Promise<CallResult> {
  return svc.call('POST', agentPath(id, '/chat'), { body, key });
}

/** An error answer exactly as §2 describes it: `{ statusCode, message, error }`, nothing else. */
function expectError(res: CallResult, status: number, message: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json\b/);
  expect(res.json).toEqual({ statusCode: status, message, error: STATUS_CODES[status] });
}

/** EIP-55, computed here rather than trusted from the service. */
function eip55(address: string): string {
  const lower = address.slice(2).toLowerCase();
  const hash = Buffer.from(keccak_256(new TextEncoder().encode(lower))).toString('hex');
  return '0x' + [...lower].map((c, i) => (parseInt(hash[i]!, 16) >= 8 ? c.toUpperCase() : c)).join('');
}

function expectEvmAddress(address: unknown): void {
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  expect(address).toBe(eip55(address as string));
}

/** Base58 (Bitcoin alphabet) decoder, independent of the service's library. */
function base58Decode(text: string): Uint8Array {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let n = 0n;
  for (const c of text) {
    const digit = alphabet.indexOf(c);
    if (digit < 0) throw new Error(`not base58: ${c}`);
    n = n * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n % 256n));
    n /= 256n;
  }
  for (const c of text) {
    if (c !== '1') break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

const memoryLines = (memory: string) => memory.split('\n').filter((l) => l.startsWith('- '));
const utcDay = () => new Date().toISOString().slice(0, 10);

/**
 * Every route that acts on one agent, with a body that would be accepted on a live running agent
 * of the caller's own. In this order they all succeed on such an agent (pause before resume,
 * DELETE last).
 */
const AGENT_ROUTES: Array<{ method: string; suffix: string; body?: Record<string, unknown> }> = [
  { method: 'GET', suffix: '' },
  { method: 'POST', suffix: '/pause' },
  { method: 'POST', suffix: '/resume' },
  { method: 'POST', suffix: '/restart' },
  { method: 'POST', suffix: '/chat', body: { message: 'How is the SOL market today?' } },
  { method: 'POST', suffix: '/chat', body: { message: 'Stream me a BTC update', stream: true } },
  { method: 'PUT', suffix: '/profile', body: { name: 'Renamed Agent', description: 'changed' } },
  { method: 'PUT', suffix: '/soul', body: { soul_md: '# Intruder\n\nYou are someone else.\n' } },
  { method: 'PUT', suffix: '/model', body: { model: 'gpt-4o', model_provider: 'openai' } },
  { method: 'GET', suffix: '/skills' },
  { method: 'PUT', suffix: '/skills', body: { disabled: ['polymarket'] } },
  { method: 'GET', suffix: '/files' },
  { method: 'GET', suffix: '/wallet' },
  { method: 'GET', suffix: '/health' },
  { method: 'DELETE', suffix: '' },
];

// ---------------------------------------------------------------------------------------------

describe('POST /v1/superagents: launch', () => {
  const svc = useService();
  afterEach(() => destroyAll(svc()));

  it('answers 200 (not 201) with exactly { agent_id, name, bot_username: null, wallet_address (EIP-55), status: running }', async () => {
    const res = await svc().call('POST', '/v1/superagents', { body: { name: 'Alpha Trader', ...MODEL } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(Object.keys(res.json)).toEqual(['agent_id', 'name', 'bot_username', 'wallet_address', 'status']);
    expect(res.json.agent_id).toMatch(UUID);
    expect(res.json.name).toBe('Alpha Trader');
    expect(res.json.bot_username).toBeNull();
    expect(res.json.status).toBe('running');
    expectEvmAddress(res.json.wallet_address);
  });

  it('gives every agent its own id and wallet', async () => {
    const a = await launch(svc(), { name: 'One' });
    const b = await launch(svc(), { name: 'Two' });
    expect(a.agent_id).not.toBe(b.agent_id);
    expect(a.wallet_address).not.toBe(b.wallet_address);
  });

  it('the record is exactly the hosted summary: the model as sent, an empty description, and a soul naming the agent', async () => {
    const before = Date.now();
    const { agent_id } = await launch(svc(), { name: 'Defaulted', model: 'claude-sonnet-4-20250514', model_provider: 'anthropic' });
    const record = await getJson(svc(), agentPath(agent_id));
    expect(Object.keys(record)).toEqual(RECORD_KEYS);
    expect(record).toMatchObject({
      agent_id,
      name: 'Defaulted',
      description: '',
      status: 'running',
      model: 'claude-sonnet-4-20250514',
    });
    expect(record.created_at).toMatch(ISO_UTC);
    const created = Date.parse(record.created_at);
    expect(created).toBeGreaterThanOrEqual(before - 1000);
    expect(created).toBeLessThanOrEqual(Date.now() + 1000);
    const { soul_md } = await files(svc(), agent_id);
    expect(soul_md).toContain('Defaulted');
  });

  it.each([
    ['openai', 'gpt-4o'],
    ['anthropic', 'claude-sonnet-4-20250514'],
    ['xai', 'grok-4'],
    ['openrouter', 'anthropic/claude-sonnet-4'],
    ['venice', 'llama-3.3-70b'],
  ])('launches on %s with the model id exactly as given (%s), and memory names both', async (provider, model) => {
    const { agent_id } = await launch(svc(), { model, model_provider: provider });
    expect((await getJson(svc(), agentPath(agent_id))).model).toBe(model);
    expect((await files(svc(), agent_id)).memory_md).toContain(`launched on ${model} (${provider})`);
  });

  it('stores description and soul_md as sent', async () => {
    const soul = '# Satoshi Scalper\n\nYou are Satoshi Scalper.\n\n## Rules\n- Never use more than 2x leverage.\n';
    const { agent_id } = await launch(svc(), { name: 'Scalper', description: 'Scalps majors', soul_md: soul });
    expect((await getJson(svc(), agentPath(agent_id))).description).toBe('Scalps majors');
    expect((await files(svc(), agent_id)).soul_md).toBe(soul);
  });

  it('accepts the limits exactly: a 100-char name, a 500-char description, a 256 KiB soul', async () => {
    const name = 'n'.repeat(100);
    const description = 'd'.repeat(500);
    const soul = 's'.repeat(SOUL_LIMIT);
    const launched = await launch(svc(), { name, description, soul_md: soul });
    expect(launched.name).toBe(name);
    expect((await getJson(svc(), agentPath(launched.agent_id))).description).toBe(description);
    expect((await files(svc(), launched.agent_id)).soul_md).toBe(soul);
  });

  it('with a valid bot token: the launch answers bot_username <slug>_bot; the record does not carry it', async () => {
    const launched = await launch(svc(), { name: 'Alpha Trader', telegram_bot_token: VALID_BOT_TOKEN });
    expect(launched.bot_username).toBe('alpha_trader_bot');
    expect(Object.keys(await getJson(svc(), agentPath(launched.agent_id)))).toEqual(RECORD_KEYS);
  });

  it('never returns the bot token, in any answer of any route', async () => {
    const secret = VALID_BOT_TOKEN.split(':')[1]!;
    const texts: string[] = [];
    const res = await svc().call('POST', '/v1/superagents', { body: { name: 'Token Holder', ...MODEL, telegram_bot_token: VALID_BOT_TOKEN } });
    expect(res.status, res.text).toBe(200);
    texts.push(res.text);
    const id = res.json.agent_id as string;
    texts.push((await svc().call('GET', '/v1/superagents')).text);
    for (const route of AGENT_ROUTES) {
      const answer = await svc().call(route.method, agentPath(id, route.suffix), { body: route.body });
      expect(answer.status, `${route.method} ${route.suffix}: ${answer.text}`).toBe(200);
      texts.push(answer.text);
    }
    expect(texts).toHaveLength(AGENT_ROUTES.length + 2);
    for (const text of texts) {
      expect(text).not.toContain(VALID_BOT_TOKEN);
      expect(text).not.toContain(secret);
      expect(text).not.toMatch(/telegram_bot_token|bot_token/);
    }
  });
});

describe('POST /v1/superagents: rejected launches change nothing', () => {
  const svc = useService();
  beforeAll(async () => {
    await launch(svc(), { name: 'Existing' });
  });

  /** Runs `call`, expects the error, and checks the list is exactly what it was. */
  async function expectRejected(call: () => Promise<CallResult>, status: number, message: string): Promise<void> {
    const before = await listAgents(svc());
    expect(before).toHaveLength(1);
    expectError(await call(), status, message);
    expect(await listAgents(svc())).toEqual(before);
  }

  const name = 'Valid Name';
  const valid = { name, ...MODEL };
  it.each<[string, Record<string, unknown>, string]>([
    ['missing name', { description: 'no name', ...MODEL }, 'name is required'],
    ['an empty body (name is checked first)', {}, 'name is required'],
    ['an empty name', { ...valid, name: '' }, 'name must not be empty'],
    ['a whitespace name', { ...valid, name: '  \t\n ' }, 'name must not be empty'],
    ['a 101-char name', { ...valid, name: 'n'.repeat(101) }, 'name must be at most 100 characters'],
    ['a non-string name', { ...valid, name: 42 }, 'name must be a string'],
    ['missing model', { name, model_provider: 'openai' }, 'model is required'],
    ['missing model and model_provider (model is checked first)', { name }, 'model is required'],
    ['a blank model', { ...valid, model: '  ' }, 'model must not be empty'],
    ['missing model_provider', { name, model: 'gpt-4o' }, 'model_provider is required'],
    ['a null model_provider', { ...valid, model_provider: null }, 'model_provider is required'],
    ['an unknown provider', { ...valid, model_provider: 'google' }, PROVIDER_MESSAGE],
    ['a 501-char description', { ...valid, description: 'd'.repeat(501) }, 'description must be at most 500 characters'],
    ['soul_md over 256 KiB', { ...valid, soul_md: 's'.repeat(SOUL_LIMIT + 1) }, `soul_md must be at most ${SOUL_LIMIT} bytes`],
    ['soul_md over 256 KiB in UTF-8 bytes (fewer characters)', { ...valid, soul_md: 'é'.repeat(SOUL_LIMIT / 2 + 1) }, `soul_md must be at most ${SOUL_LIMIT} bytes`],
  ])('400 for %s', async (_label, body, message) => {
    await expectRejected(() => svc().call('POST', '/v1/superagents', { body }), 400, message);
  });

  it.each(['not-a-token', '123456:short', 'abc:AAHk3_x-ZyQw9vLmN0pRsTuVwXyZaBcDeFg', '123456:AAHk3_x-ZyQw9vLm N0pRsTuVwXyZaBcDeFg'])(
    '400 for the bad bot token %j',
    async (token) => {
      const res = await svc().call('POST', '/v1/superagents', { body: { ...valid, telegram_bot_token: token } });
      expect(res.status, res.text).toBe(400);
      expect(res.json.statusCode).toBe(400);
      expect(res.json.message).toMatch(/^telegram_bot_token is not a valid bot token/);
      expect(res.text).not.toContain(token);
      expect(await listAgents(svc())).toHaveLength(1);
    },
  );

  it('400 for a body that is not valid JSON', async () => {
    const call = () =>
      svc().call('POST', '/v1/superagents', { rawBody: '{"name": "Broken"', headers: { 'content-type': 'application/json' } });
    await expectRejected(call, 400, 'Request body is not valid JSON');
  });

  it('400 for a JSON array body', async () => {
    const call = () =>
      svc().call('POST', '/v1/superagents', { rawBody: '[{"name":"In An Array"}]', headers: { 'content-type': 'application/json' } });
    await expectRejected(call, 400, 'Request body must be a JSON object');
  });

  it('415 for a JSON body sent as text/plain', async () => {
    const call = () =>
      svc().call('POST', '/v1/superagents', { rawBody: '{"name":"Plain"}', headers: { 'content-type': 'text/plain' } });
    await expectRejected(call, 415, 'Content-Type must be application/json');
  });

  it('413 for a body over 1 MiB', async () => {
    const rawBody = JSON.stringify({ name: 'Huge', soul_md: 'x'.repeat(1024 * 1024) });
    expect(Buffer.byteLength(rawBody)).toBeGreaterThan(1024 * 1024);
    const call = () => svc().call('POST', '/v1/superagents', { rawBody, headers: { 'content-type': 'application/json' } });
    await expectRejected(call, 413, `Request body is larger than ${1024 * 1024} bytes`);
  });
});

describe('10 live agents per key', () => {
  const svc = useService();

  it('the 11th launch is 403 and changes nothing; another key is not affected; destroying one frees a slot', async () => {
    const ids: string[] = [];
    for (let i = 1; i <= 10; i++) ids.push((await launch(svc(), { name: `Agent ${i}` })).agent_id);

    const refusedOnce = async () => {
      expectError(await svc().call('POST', '/v1/superagents', { body: { name: 'Eleventh', ...MODEL } }), 403, 'Agent limit reached (10)');
      expect(await listAgents(svc())).toHaveLength(10);
    };
    await refusedOnce();

    // the limit is per key: B still launches
    await launch(svc(), { name: 'B agent' }, KEY_B);

    const del = await svc().call('DELETE', agentPath(ids[3]!));
    expect(del.status, del.text).toBe(200);
    expect(await listAgents(svc())).toHaveLength(9);
    const replacement = await launch(svc(), { name: 'Replacement' });
    expect(await listAgents(svc())).toHaveLength(10);
    expect((await listAgents(svc())).map((a) => a.agent_id)).toContain(replacement.agent_id);

    await refusedOnce();
  });

  it('paused agents count as live', async () => {
    const [first] = await listAgents(svc());
    expect((await svc().call('POST', agentPath(first.agent_id, '/pause'))).status).toBe(200);
    expectError(await svc().call('POST', '/v1/superagents', { body: { name: 'Eleventh', ...MODEL } }), 403, 'Agent limit reached (10)');
  });

  describe('under concurrent launches', () => {
    const fresh = useService();
    it('12 launches at once: exactly 10 succeed, 2 are 403', async () => {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => fresh().call('POST', '/v1/superagents', { body: { name: `Racer ${i}`, ...MODEL } })),
      );
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([...Array(10).fill(200), 403, 403]);
      expect(await listAgents(fresh())).toHaveLength(10);
    });
  });
});

describe('ownership per key', () => {
  const svc = useService();
  let agentA: Launched;
  let snapshot: { record: any; files: any; skills: any };

  beforeAll(async () => {
    agentA = await launch(svc(), { name: 'Owned By A' });
    const id = agentA.agent_id;
    snapshot = {
      record: await getJson(svc(), agentPath(id)),
      files: await files(svc(), id),
      skills: await getJson(svc(), agentPath(id, '/skills')),
    };
  });

  it.each(AGENT_ROUTES)('B gets 403 on $method …/{A agent}$suffix', async ({ method, suffix, body }) => {
    const res = await svc().call(method, agentPath(agentA.agent_id, suffix), { body, key: KEY_B });
    expect(res.status, res.text).toBe(403);
    expect(res.json).toEqual({ statusCode: 403, message: expect.any(String), error: 'Forbidden' });
    expect(res.text).not.toContain(agentA.wallet_address);
  });

  it('B gets 403 on a chat that continues one of A\'s sessions', async () => {
    const first = await chat(svc(), agentA.agent_id, { message: 'hello' });
    expect(first.status, first.text).toBe(200);
    const res = await chat(svc(), agentA.agent_id, { message: 'hello again', session_id: first.json.session_id }, KEY_B);
    expect(res.status, res.text).toBe(403);
  });

  it("B's list does not show A's agents; A's shows only A's", async () => {
    const agentB = await launch(svc(), { name: 'Owned By B' }, KEY_B);
    const listB = await listAgents(svc(), KEY_B);
    expect(listB.map((a) => a.agent_id)).toEqual([agentB.agent_id]);
    const listA = await listAgents(svc(), KEY_A);
    expect(listA.map((a) => a.agent_id)).toEqual([agentA.agent_id]);
  });

  it("nothing B tried changed A's agent", async () => {
    const id = agentA.agent_id;
    expect(await getJson(svc(), agentPath(id))).toEqual(snapshot.record);
    expect(await getJson(svc(), agentPath(id, '/skills'))).toEqual(snapshot.skills);
    const now = await files(svc(), id);
    expect(now.soul_md).toBe(snapshot.files.soul_md);
  });
});

describe('GET /v1/superagents, GET and DELETE /v1/superagents/{id}', () => {
  const svc = useService();

  it('lists records newest first, each with exactly the record fields', async () => {
    const launched: Launched[] = [];
    for (const name of ['First', 'Second', 'Third', 'Fourth']) launched.push(await launch(svc(), { name }));
    const list = await listAgents(svc());
    expect(list.map((a) => a.agent_id)).toEqual(launched.map((a) => a.agent_id).reverse());
    for (const item of list) {
      expect(Object.keys(item)).toEqual(RECORD_KEYS);
      expect(item.created_at).toMatch(ISO_UTC);
    }
    const times = list.map((a) => Date.parse(a.created_at));
    expect([...times].sort((x, y) => y - x)).toEqual(times);
  });

  it('GET {id} answers the same record as the list, and the launch answer agrees with it', async () => {
    const launched = await launch(svc(), { name: 'Reader', description: 'reads', telegram_bot_token: VALID_BOT_TOKEN });
    const record = await getJson(svc(), agentPath(launched.agent_id));
    expect(record).toEqual({
      agent_id: launched.agent_id,
      name: 'Reader',
      description: 'reads',
      status: 'running',
      model: 'gpt-4o',
      created_at: expect.stringMatching(ISO_UTC),
    });
    expect(Object.keys(record)).toEqual(RECORD_KEYS);
    expect(launched.bot_username).toBe('reader_bot');
    const listed = (await listAgents(svc())).find((a) => a.agent_id === launched.agent_id);
    expect(listed).toEqual(record);
    expect((await listAgents(svc()))[0].agent_id).toBe(launched.agent_id);
  });

  it.each([
    ['an unknown uuid', () => randomUUID()],
    ['a malformed id', () => 'not-a-uuid'],
    ['a uuid with a trailing character', () => randomUUID() + 'a'],
  ])('404 Agent not found for %s', async (_label, id) => {
    expectError(await svc().call('GET', agentPath(id())), 404, 'Agent not found');
  });

  it('the list leaves destroyed agents out and is { agents: [] } when none is left', async () => {
    const own = await startTestService({ keys: [KEY_A] });
    try {
      expect((await own.call('GET', '/v1/superagents')).json).toEqual({ agents: [] });
      const { agent_id } = await launch(own, { name: 'Only' });
      expect((await listAgents(own)).map((a) => a.agent_id)).toEqual([agent_id]);
      expect((await own.call('DELETE', agentPath(agent_id))).status).toBe(200);
      expect((await own.call('GET', '/v1/superagents')).json).toEqual({ agents: [] });
    } finally {
      await stopService(own);
    }
  });

  it('DELETE answers { agent_id, status: destroyed } and the agent leaves the list', async () => {
    const keep = await launch(svc(), { name: 'Keeper' });
    const doomed = await launch(svc(), { name: 'Doomed' });
    const before = await listAgents(svc());
    const res = await svc().call('DELETE', agentPath(doomed.agent_id));
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ agent_id: doomed.agent_id, status: 'destroyed' });
    const after = await listAgents(svc());
    expect(after).toHaveLength(before.length - 1);
    expect(after.map((a) => a.agent_id)).not.toContain(doomed.agent_id);
    expect(after.map((a) => a.agent_id)).toContain(keep.agent_id);
  });

  describe('every later call on a destroyed agent', () => {
    let destroyedId: string;
    beforeAll(async () => {
      destroyedId = (await launch(svc(), { name: 'Gone' })).agent_id;
      const res = await svc().call('DELETE', agentPath(destroyedId));
      expect(res.status, res.text).toBe(200);
    });

    it.each(AGENT_ROUTES)('$method …/{id}$suffix is 404 Agent not found', async ({ method, suffix, body }) => {
      expectError(await svc().call(method, agentPath(destroyedId, suffix), { body }), 404, 'Agent not found');
    });
  });
});

describe('pause, resume, restart', () => {
  const svc = useService();
  let id: string;
  beforeAll(async () => {
    id = (await launch(svc(), { name: 'Lifecycle' })).agent_id;
  });
  const act = (action: string) => svc().call('POST', agentPath(id, `/${action}`));
  const status = async () => (await getJson(svc(), agentPath(id))).status;

  it('pause answers { agent_id, status: paused }; pausing again is 409 Agent is not running', async () => {
    const res = await act('pause');
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ agent_id: id, status: 'paused' });
    expect(await status()).toBe('paused');
    expectError(await act('pause'), 409, 'Agent is not running');
    expect(await status()).toBe('paused');
  });

  it('chat with a paused agent is 409 Agent is paused (JSON and stream) and opens no session', async () => {
    const memory = (await files(svc(), id)).memory_md;
    expectError(await chat(svc(), id, { message: 'hello' }), 409, 'Agent is paused');
    expectError(await chat(svc(), id, { message: 'hello', stream: true }), 409, 'Agent is paused');
    expect((await files(svc(), id)).memory_md).toBe(memory);
  });

  it('resume answers { agent_id, status: running }; resuming again is 409 Agent is not paused', async () => {
    const res = await act('resume');
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ agent_id: id, status: 'running' });
    expect(await status()).toBe('running');
    expectError(await act('resume'), 409, 'Agent is not paused');
    expect(await status()).toBe('running');
  });

  it('restart from running answers { agent_id, status: running } and keeps soul and memory', async () => {
    const first = await chat(svc(), id, { message: 'remember that I like ETH' });
    expect(first.status, first.text).toBe(200);
    const before = await files(svc(), id);
    const res = await act('restart');
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ agent_id: id, status: 'running' });
    expect(await files(svc(), id)).toEqual(before);
    // the session survives the restart too
    const next = await chat(svc(), id, { message: 'still there?', session_id: first.json.session_id });
    expect(next.status, next.text).toBe(200);
    expect(next.json.session_id).toBe(first.json.session_id);
  });

  it('restart from paused brings the agent back to running', async () => {
    expect((await act('pause')).status).toBe(200);
    const res = await act('restart');
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ agent_id: id, status: 'running' });
    expect(await status()).toBe('running');
    expect((await chat(svc(), id, { message: 'hello' })).status).toBe(200);
  });
});

describe('PUT profile, soul, model', () => {
  const svc = useService();
  let id: string;
  beforeAll(async () => {
    id = (await launch(svc(), { name: 'Configurable', description: 'original' })).agent_id;
  });
  const put = (suffix: string, body: unknown) => svc().call('PUT', agentPath(id, suffix), { body });
  const record = () => getJson(svc(), agentPath(id));
  const updated = () => ({ agent_id: id, status: 'updated' });

  it('profile: name only changes the name', async () => {
    const res = await put('/profile', { name: 'New Name' });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual(updated());
    expect(await record()).toMatchObject({ name: 'New Name', description: 'original' });
  });

  it('profile: description only changes the description', async () => {
    const res = await put('/profile', { description: 'rewritten' });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual(updated());
    expect(await record()).toMatchObject({ name: 'New Name', description: 'rewritten' });
  });

  it('profile: both at once', async () => {
    expect((await put('/profile', { name: 'Both', description: 'both changed' })).json).toEqual(updated());
    expect(await record()).toMatchObject({ name: 'Both', description: 'both changed' });
  });

  it.each<[string, unknown, string]>([
    ['neither name nor description', {}, 'name or description is required'],
    ['an empty name', { name: '  ' }, 'name must not be empty'],
    ['a 101-char name', { name: 'n'.repeat(101) }, 'name must be at most 100 characters'],
    ['a 501-char description', { description: 'd'.repeat(501) }, 'description must be at most 500 characters'],
  ])('profile: 400 for %s, nothing changes', async (_label, body, message) => {
    const before = await record();
    expectError(await put('/profile', body), 400, message);
    expect(await record()).toEqual(before);
  });

  it('soul: replaces soul.md whole, as GET files shows', async () => {
    const first = '# First Soul\n\nYou are First.\n\n## Rules\n- Never short.\n';
    const second = '# Second\n\nShorter.\n';
    expect((await put('/soul', { soul_md: first })).json).toEqual(updated());
    expect((await files(svc(), id)).soul_md).toBe(first);
    expect((await put('/soul', { soul_md: second })).json).toEqual(updated());
    expect((await files(svc(), id)).soul_md).toBe(second);
  });

  it.each<[string, unknown, string]>([
    ['missing soul_md', {}, 'soul_md is required'],
    ['soul_md over 256 KiB', { soul_md: 's'.repeat(SOUL_LIMIT + 1) }, `soul_md must be at most ${SOUL_LIMIT} bytes`],
    ['a non-string soul_md', { soul_md: ['# list'] }, 'soul_md must be a string'],
  ])('soul: 400 for %s, soul unchanged', async (_label, body, message) => {
    const before = (await files(svc(), id)).soul_md;
    expectError(await put('/soul', body), 400, message);
    expect((await files(svc(), id)).soul_md).toBe(before);
  });

  it('model: answers { agent_id, status: updated } and changes the model (the record shows it, the chat stream runs on it)', async () => {
    const res = await put('/model', { model: 'grok-4', model_provider: 'xai' });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual(updated());
    expect((await record()).model).toBe('grok-4');
    const streamed = await chat(svc(), id, { message: 'hi', stream: true });
    expect(parseWire(streamed.text).events.find((e) => e.event === 'RunStarted')?.model).toBe('grok-4');
  });

  it.each<[string, unknown, string]>([
    ['an empty body (model is checked first)', {}, 'model is required'],
    ['missing model', { model_provider: 'openai' }, 'model is required'],
    ['missing model_provider', { model: 'claude-opus-4-20250514' }, 'model_provider is required'],
    ['an unknown provider', { model: 'gemini-2.5-pro', model_provider: 'google' }, PROVIDER_MESSAGE],
  ])('model: 400 for %s, nothing changes', async (_label, body, message) => {
    const before = await record();
    expectError(await put('/model', body), 400, message);
    expect(await record()).toEqual(before);
  });
});

describe('skills, files, wallet, health', () => {
  const svc = useService();
  let agent: Launched;
  beforeAll(async () => {
    agent = await launch(svc(), { name: 'Inspector' });
  });
  const skillsPath = () => agentPath(agent.agent_id, '/skills');
  const enabledMap = (skills: Array<{ name: string; enabled: boolean }>) => Object.fromEntries(skills.map((s) => [s.name, s.enabled]));
  const enabledNow = async () => enabledMap((await getJson(svc(), skillsPath())).skills);

  it('GET skills lists all nine catalogue skills with name, description and enabled', async () => {
    const body = await getJson(svc(), skillsPath());
    expect(Object.keys(body).sort()).toEqual(['agent_id', 'skills']);
    expect(body.agent_id).toBe(agent.agent_id);
    expect(body.skills.map((s: any) => s.name).sort()).toEqual([...SKILL_CATALOGUE].sort());
    for (const skill of body.skills) {
      expect(Object.keys(skill).sort()).toEqual(['description', 'enabled', 'name']);
      expect(typeof skill.description).toBe('string');
      expect(skill.description.trim().length).toBeGreaterThan(10);
      expect(typeof skill.enabled).toBe('boolean');
    }
  });

  const putSkills = (body: unknown) => svc().call('PUT', skillsPath(), { body });
  const onlyDisabled = (names: string[]) => Object.fromEntries(SKILL_CATALOGUE.map((s) => [s, !names.includes(s)]));

  it('PUT skills { disabled } answers { agent_id, status: updated } and disables exactly those, enabling every other', async () => {
    const res = await putSkills({ disabled: ['polymarket', 'market-intel'] });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ agent_id: agent.agent_id, status: 'updated' });
    expect(await enabledNow()).toEqual(onlyDisabled(['polymarket', 'market-intel']));
    // the whole set each time: a skill left out of the next list is enabled again
    expect((await putSkills({ disabled: ['hyperliquid'] })).json).toEqual({ agent_id: agent.agent_id, status: 'updated' });
    expect(await enabledNow()).toEqual(onlyDisabled(['hyperliquid']));
  });

  it('PUT skills { disabled: [] } enables all; duplicates are fine; all nine can be disabled', async () => {
    expect((await putSkills({ disabled: [] })).status).toBe(200);
    expect(await enabledNow()).toEqual(onlyDisabled([]));
    expect((await putSkills({ disabled: ['solana-swap', 'solana-swap'] })).status).toBe(200);
    expect(await enabledNow()).toEqual(onlyDisabled(['solana-swap']));
    expect((await putSkills({ disabled: SKILL_CATALOGUE })).status).toBe(200);
    expect(await enabledNow()).toEqual(onlyDisabled(SKILL_CATALOGUE));
  });

  it.each<[string, unknown, string]>([
    ['an unknown skill (even next to a valid one)', { disabled: ['solana-swap', 'teleport'] }, `Unknown skill 'teleport'; available: ${SKILL_CATALOGUE.join(', ')}`],
    ['a name in the wrong case', { disabled: ['Hyperliquid'] }, `Unknown skill 'Hyperliquid'; available: ${SKILL_CATALOGUE.join(', ')}`],
    ['a missing disabled field', {}, 'disabled is required'],
    ['the old { skills: [{ name, enabled }] } shape', { skills: [{ name: 'hyperliquid', enabled: true }] }, 'disabled is required'],
    ['a string instead of an array', { disabled: 'polymarket' }, 'disabled must be an array of strings'],
    ['an array with a non-string', { disabled: ['polymarket', 3] }, 'disabled must be an array of strings'],
  ])('PUT skills: 400 for %s, nothing changes', async (_label, body, message) => {
    const before = await getJson(svc(), skillsPath());
    expectError(await svc().call('PUT', skillsPath(), { body }), 400, message);
    expect(await getJson(svc(), skillsPath())).toEqual(before);
  });

  it('GET files answers exactly { agent_id, soul_md, memory_md }', async () => {
    const body = await files(svc(), agent.agent_id);
    expect(Object.keys(body).sort()).toEqual(['agent_id', 'memory_md', 'soul_md']);
    expect(body.agent_id).toBe(agent.agent_id);
    expect(body.soul_md).toContain('Inspector');
    expect(typeof body.memory_md).toBe('string');
  });

  it('GET wallet: exactly { evm_address, solana_address }: EIP-55 and equal to the launch one, a 32-byte base58 key', async () => {
    const body = await getJson(svc(), agentPath(agent.agent_id, '/wallet'));
    expect(Object.keys(body)).toEqual(['evm_address', 'solana_address']);
    expectEvmAddress(body.evm_address);
    expect(body.evm_address).toBe(agent.wallet_address);
    expect(body.solana_address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(base58Decode(body.solana_address)).toHaveLength(32);
    // stable: the same addresses every time
    expect(await getJson(svc(), agentPath(agent.agent_id, '/wallet'))).toEqual(body);
  });

  it('GET health answers { agent_id, healthy: true }', async () => {
    expect(await getJson(svc(), agentPath(agent.agent_id, '/health'))).toEqual({ agent_id: agent.agent_id, healthy: true });
  });

  describe('with faults: { unhealthy: true }', () => {
    const sick = useService({ faults: { unhealthy: true } });
    it('GET health answers { agent_id, healthy: false }', async () => {
      const { agent_id } = await launch(sick(), { name: 'Sick' });
      expect(await getJson(sick(), agentPath(agent_id, '/health'))).toEqual({ agent_id, healthy: false });
    });
  });
});

describe('POST …/{id}/chat (JSON)', () => {
  const svc = useService();
  let id: string;
  let otherId: string;
  beforeAll(async () => {
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
    expectError(await chat(svc(), id, { message: 'hi', session_id: sessionId() }), 404, 'Session not found');
    expect((await files(svc(), id)).memory_md).toBe(memory);
  });

  it("404 Session not found for another agent's session", async () => {
    const other = await say({ message: 'hello' }, otherId);
    expectError(await chat(svc(), id, { message: 'hi', session_id: other.session_id }), 404, 'Session not found');
  });

  it("404 Session not found for another key's session on the caller's own agent", async () => {
    const ownB = (await launch(svc(), { name: 'B Chatter' }, KEY_B)).agent_id;
    const sessionA = await say({ message: 'hello' });
    expectError(await chat(svc(), ownB, { message: 'hi', session_id: sessionA.session_id }, KEY_B), 404, 'Session not found');
  });

  it.each<[string, unknown, string]>([
    ['a missing message', {}, 'message is required'],
    ['an empty message', { message: '   ' }, 'message must not be empty'],
    ['a non-boolean stream', { message: 'hi', stream: 'yes' }, 'stream must be a boolean'],
  ])('400 for %s', async (_label, body, message) => {
    expectError(await svc().call('POST', agentPath(id, '/chat'), { body }), 400, message);
  });

  it('each new session adds one dated line to memory.md; continuing a session adds none', async () => {
    const before = memoryLines((await files(svc(), id)).memory_md);
    const dayBefore = utcDay();
    const opened = await say({ message: 'hello there' });
    const dayAfter = utcDay();
    const afterOpen = memoryLines((await files(svc(), id)).memory_md);
    expect(afterOpen.slice(0, before.length)).toEqual(before);
    expect(afterOpen).toHaveLength(before.length + 1);
    const line = afterOpen.at(-1)!;
    const m = /^- (\d{4}-\d{2}-\d{2}): .*$/.exec(line);
    expect(m, line).not.toBeNull();
    expect([dayBefore, dayAfter]).toContain(m![1]);
    expect(line).toContain(opened.session_id.slice(0, 8));

    await say({ message: 'and again', session_id: opened.session_id });
    expect(memoryLines((await files(svc(), id)).memory_md)).toEqual(afterOpen);

    const another = await say({ message: 'hello there' });
    const afterSecond = memoryLines((await files(svc(), id)).memory_md);
    expect(afterSecond).toHaveLength(afterOpen.length + 1);
    expect(afterSecond.at(-1)).toContain(another.session_id.slice(0, 8));
  });

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
});

describe('POST …/{id}/chat with stream: true (SSE)', () => {
  const svc = useService();
  let agent: { agent_id: string; model: string };
  beforeAll(async () => {
    agent = { agent_id: (await launch(svc(), { name: 'Streamer' })).agent_id, model: MODEL.model };
  });

  /** Streams one reply and checks it event by event (service-sse.ts); returns what it carried. */
  async function streamChat(target: TestService, who: { agent_id: string; model: string }, body: Record<string, unknown>) {
    const res = await chat(target, who.agent_id, { ...body, stream: true });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream\b/);
    return expectAgentStream(res.text, who);
  }

  it('sends data-only lines: session_info, RunStarted, RunContent…, RunCompleted, stream_complete, then data: [DONE]', async () => {
    const res = await chat(svc(), agent.agent_id, { message: 'Hello, who are you?', stream: true });
    expect(res.text).not.toMatch(/^event:/m);
    expect(res.text.endsWith('\n\ndata: [DONE]\n\n')).toBe(true);
    const s = expectAgentStream(res.text, agent);
    expect(s.tools).toEqual([]); // a greeting draws on no skill
    expect(eventNames(s.wire.events)).toEqual(['session_info', 'RunStarted', ...s.pieces.map(() => 'RunContent'), 'RunCompleted', 'stream_complete']);
    expect(s.content.trim().length).toBeGreaterThan(0);
  });

  it('streams the same reply the JSON answer gives, continues a session, and gives every run its own run_id', async () => {
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
  });

  it('reports a tool call per enabled skill the reply draws on: ETH funding with hyperliquid on → get_funding_rate {symbol: ETH}', async () => {
    const tooled = { agent_id: (await launch(svc(), { name: 'Tooled' })).agent_id, model: MODEL.model };
    const skills = (disabled: string[]) => svc().call('PUT', agentPath(tooled.agent_id, '/skills'), { body: { disabled } });
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
  });

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

describe('auth and routing', () => {
  const svc = useService();

  it('no key: 401 Invalid or revoked API key', async () => {
    expectError(await svc().call('GET', '/v1/superagents', { key: null }), 401, 'Invalid or revoked API key');
    expectError(await svc().call('POST', '/v1/superagents', { key: null, body: { name: 'x' } }), 401, 'Invalid or revoked API key');
  });

  it('an unknown key: 401, and nothing is launched with it', async () => {
    expectError(await svc().call('POST', '/v1/superagents', { key: UNKNOWN_KEY, body: { name: 'x' } }), 401, 'Invalid or revoked API key');
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

describe('state survives a restart', () => {
  const dataDir = tempDir();
  let running: TestService | undefined;
  afterAll(async () => {
    await running?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a new service on the same data dir and key has the agent, its wallet, files and sessions', async () => {
    running = await startTestService({ dataDir, keys: [KEY_A] });
    const launched = await launch(running, { name: 'Persistent', soul_md: '# Persistent\n\nYou are Persistent.\n' });
    const id = launched.agent_id;
    const first = await chat(running, id, { message: 'remember that I prefer SOL' });
    expect(first.status, first.text).toBe(200);
    const record = await getJson(running, agentPath(id));
    const wallet = await getJson(running, agentPath(id, '/wallet'));
    const filesBefore = await files(running, id);
    await running.close();
    running = undefined;

    running = await startTestService({ dataDir, keys: [KEY_A] });
    expect(await listAgents(running)).toEqual([record]);
    expect(await getJson(running, agentPath(id))).toEqual(record);
    expect(await getJson(running, agentPath(id, '/wallet'))).toEqual(wallet);
    expect(wallet.evm_address).toBe(launched.wallet_address);
    expect(await files(running, id)).toEqual(filesBefore);
    const next = await chat(running, id, { message: 'what do I prefer?', session_id: first.json.session_id });
    expect(next.status, next.text).toBe(200);
    expect(next.json.session_id).toBe(first.json.session_id);
  });
});
