// SuperAgents over real HTTP against the embedded service (docs/api.md, Endpoints): launch,
// the agent limit, list, read, destroy, persistence. Every test starts its own service (fresh data
// dir), so agent counts and the 10-agent limit of one test never leak into another, in any order.
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestService, type CallResult, type TestService } from '../helpers/service.js';
import { startTestServiceOn } from '../helpers/service-support.js';
import {
  AGENT_ROUTES,
  agentPath,
  chat,
  expectError,
  expectEvmAddress,
  files,
  getJson,
  ISO_UTC,
  KEY_A,
  KEY_B,
  launch,
  type Launched,
  listAgents,
  MODEL,
  PROVIDER_MESSAGE,
  RECORD_KEYS,
  SOUL_LIMIT,
  useServicePerTest,
  UUID,
  VALID_BOT_TOKEN,
} from '../helpers/superagent-fixtures.js';

describe('POST /v1/superagents: launch', () => {
  const svc = useServicePerTest();

  it(
    'answers 200 (not 201) with exactly { agent_id, name, ' +
      'bot_username: null, wallet_address (EIP-55), status: running }',
    async () => {
      const res = await svc().call('POST', '/v1/superagents', { body: { name: 'Alpha Trader', ...MODEL } });
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json\b/);
      expect(Object.keys(res.json)).toEqual(['agent_id', 'name', 'bot_username', 'wallet_address', 'status']);
      expect(res.json.agent_id).toMatch(UUID);
      expect(res.json.name).toBe('Alpha Trader');
      expect(res.json.bot_username).toBeNull();
      expect(res.json.status).toBe('running');
      expectEvmAddress(res.json.wallet_address);
    },
  );

  it('gives every agent its own id and wallet', async () => {
    const a = await launch(svc(), { name: 'One' });
    const b = await launch(svc(), { name: 'Two' });
    expect(a.agent_id).not.toBe(b.agent_id);
    expect(a.wallet_address).not.toBe(b.wallet_address);
  });

  it(
    'the record is exactly the hosted summary: the model as ' +
      'sent, an empty description, and a soul naming the agent',
    async () => {
      const before = Date.now();
      const { agent_id } = await launch(svc(), {
        name: 'Defaulted',
        model: 'claude-sonnet-4-20250514',
        model_provider: 'anthropic',
      });
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
    },
  );

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
    const res = await svc().call('POST', '/v1/superagents', {
      body: { name: 'Token Holder', ...MODEL, telegram_bot_token: VALID_BOT_TOKEN },
    });
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
  // one agent to start from in every test, so a launch that wrongly succeeds fails only its own test
  const svc = useServicePerTest();
  beforeEach(async () => {
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
    [
      'a 501-char description',
      { ...valid, description: 'd'.repeat(501) },
      'description must be at most 500 characters',
    ],
    [
      'soul_md over 256 KiB',
      { ...valid, soul_md: 's'.repeat(SOUL_LIMIT + 1) },
      `soul_md must be at most ${SOUL_LIMIT} bytes`,
    ],
    [
      'soul_md over 256 KiB in UTF-8 bytes (fewer characters)',
      { ...valid, soul_md: 'é'.repeat(SOUL_LIMIT / 2 + 1) },
      `soul_md must be at most ${SOUL_LIMIT} bytes`,
    ],
  ])('400 for %s', async (_label, body, message) => {
    await expectRejected(() => svc().call('POST', '/v1/superagents', { body }), 400, message);
  });

  it.each([
    'not-a-token',
    '123456:short',
    'abc:AAHk3_x-ZyQw9vLmN0pRsTuVwXyZaBcDeFg',
    '123456:AAHk3_x-ZyQw9vLm N0pRsTuVwXyZaBcDeFg',
  ])('400 for the bad bot token %j', async (token) => {
    const res = await svc().call('POST', '/v1/superagents', { body: { ...valid, telegram_bot_token: token } });
    expect(res.status, res.text).toBe(400);
    expect(res.json.statusCode).toBe(400);
    expect(res.json.message).toMatch(/^telegram_bot_token is not a valid bot token/);
    expect(res.text).not.toContain(token);
    expect(await listAgents(svc())).toHaveLength(1);
  });

  it('400 for a body that is not valid JSON', async () => {
    const call = () =>
      svc().call('POST', '/v1/superagents', {
        rawBody: '{"name": "Broken"',
        headers: { 'content-type': 'application/json' },
      });
    await expectRejected(call, 400, 'Request body is not valid JSON');
  });

  it('400 for a JSON array body', async () => {
    const call = () =>
      svc().call('POST', '/v1/superagents', {
        rawBody: '[{"name":"In An Array"}]',
        headers: { 'content-type': 'application/json' },
      });
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
    const call = () =>
      svc().call('POST', '/v1/superagents', { rawBody, headers: { 'content-type': 'application/json' } });
    await expectRejected(call, 413, `Request body is larger than ${1024 * 1024} bytes`);
  });
});

describe('10 live agents per key', () => {
  const svc = useServicePerTest();
  const launchTen = async () => {
    const ids: string[] = [];
    for (let i = 1; i <= 10; i++) ids.push((await launch(svc(), { name: `Agent ${i}` })).agent_id);
    return ids;
  };
  const refusedOnce = async () => {
    expectError(
      await svc().call('POST', '/v1/superagents', { body: { name: 'Eleventh', ...MODEL } }),
      403,
      'Agent limit reached (10)',
    );
    expect(await listAgents(svc())).toHaveLength(10);
  };

  it(
    'the 11th launch is 403 and changes nothing; another ' + 'key is not affected; destroying one frees a slot',
    async () => {
      const ids = await launchTen();
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
    },
  );

  it('paused agents count as live', async () => {
    const [first] = await launchTen();
    expect((await svc().call('POST', agentPath(first!, '/pause'))).status).toBe(200);
    await refusedOnce();
  });

  describe('under concurrent launches', () => {
    it('12 launches at once: exactly 10 succeed, 2 are 403', async () => {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          svc().call('POST', '/v1/superagents', { body: { name: `Racer ${i}`, ...MODEL } }),
        ),
      );
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([...Array(10).fill(200), 403, 403]);
      expect(await listAgents(svc())).toHaveLength(10);
    });
  });
});

describe('one live agent per name and account', () => {
  const svc = useServicePerTest();
  const launchNamed = (name: string, key = KEY_A) =>
    svc().call('POST', '/v1/superagents', { body: { name, ...MODEL }, key });

  it('a second launch of a live name is 409 naming it, in any case and spacing; nothing is launched', async () => {
    const first = await launch(svc(), { name: 'Scout' });
    for (const again of ['Scout', 'scout', '  SCOUT ']) {
      expectError(await launchNamed(again), 409, `An agent named '${again.trim()}' already exists`);
    }
    expect((await listAgents(svc())).map((a) => a.agent_id)).toEqual([first.agent_id]);
  });

  it(
    'names that look the same are one name: another Unicode form (é ' +
      'as e + U+0301), full-width letters, ß as ss; kept as sent',
    async () => {
      const decomposed = 'De\u0301mo';
      const first = await launch(svc(), { name: decomposed });
      for (const again of ['Démo', 'ＤＥ\u0301ＭＯ', ' démo ']) {
        expectError(await launchNamed(again), 409, `An agent named '${again.trim()}' already exists`);
      }
      await launch(svc(), { name: 'Straße' });
      expectError(await launchNamed('STRASSE'), 409, "An agent named 'STRASSE' already exists");
      // the name as it was sent, not a normalized copy
      const named = (await listAgents(svc())).find((a) => a.agent_id === first.agent_id);
      expect(named.name).toBe(decomposed);
      expect(await listAgents(svc())).toHaveLength(2);
    },
  );

  it('two launches of one name at once: one 200, one 409, one agent', async () => {
    const answers = await Promise.all([launchNamed('Racer'), launchNamed('Racer')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expectError(
      answers.find((a) => a.status === 409)!,
      409,
      "An agent named 'Racer' already exists",
    );
    expect((await listAgents(svc())).map((a) => a.name)).toEqual(['Racer']);
  });

  it("another account may have an agent of that name; a destroyed agent's name is free again", async () => {
    const first = await launch(svc(), { name: 'Shared' });
    await launch(svc(), { name: 'Shared' }, KEY_B);
    expect((await svc().call('DELETE', agentPath(first.agent_id))).status).toBe(200);
    await launch(svc(), { name: 'Shared' });
    expect((await listAgents(svc())).map((a) => a.name)).toEqual(['Shared']);
  });
});

describe('GET /v1/superagents, GET and DELETE /v1/superagents/{id}', () => {
  const svc = useServicePerTest();

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
    expect((await svc().call('GET', '/v1/superagents')).json).toEqual({ agents: [] });
    const { agent_id } = await launch(svc(), { name: 'Only' });
    expect((await listAgents(svc())).map((a) => a.agent_id)).toEqual([agent_id]);
    expect((await svc().call('DELETE', agentPath(agent_id))).status).toBe(200);
    expect((await svc().call('GET', '/v1/superagents')).json).toEqual({ agents: [] });
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
    // each, after the describe's beforeEach has started this test's service
    beforeEach(async () => {
      destroyedId = (await launch(svc(), { name: 'Gone' })).agent_id;
      const res = await svc().call('DELETE', agentPath(destroyedId));
      expect(res.status, res.text).toBe(200);
    });

    it.each(AGENT_ROUTES)('$method …/{id}$suffix is 404 Agent not found', async ({ method, suffix, body }) => {
      expectError(await svc().call(method, agentPath(destroyedId, suffix), { body }), 404, 'Agent not found');
    });
  });
});

describe('state survives a restart', () => {
  let dataDir: string | undefined;
  let running: TestService | undefined;
  afterAll(async () => {
    await running?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a new service on the same data dir and key has the agent, its wallet, files and sessions', async () => {
    running = await startTestService({ keys: [KEY_A] });
    dataDir = running.dataDir;
    const launched = await launch(running, { name: 'Persistent', soul_md: '# Persistent\n\nYou are Persistent.\n' });
    const id = launched.agent_id;
    const first = await chat(running, id, { message: 'remember that I prefer SOL' });
    expect(first.status, first.text).toBe(200);
    const record = await getJson(running, agentPath(id));
    const wallet = await getJson(running, agentPath(id, '/wallet'));
    const filesBefore = await files(running, id);
    await running.close();
    running = undefined;

    running = await startTestServiceOn(dataDir, { keys: [KEY_A] });
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
