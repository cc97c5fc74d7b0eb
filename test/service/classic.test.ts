// /v1/agents (classic agents) against a real embedded service (docs/api.md, Endpoints: Classic agents).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestService, type TestService } from '../helpers/service.js';
import { stopService } from '../helpers/service-support.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CRONS = ['*/5 * * * *', '*/15 * * * *', '0 * * * *', '0 */4 * * *', '0 0 * * *'];
const KEY_A = 'sa_sk_classicAclassicAclassicAclassicA';
const KEY_B = 'sa_sk_classicBclassicBclassicBclassicB';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function badRequest(message: string) {
  return { statusCode: 400, message, error: 'Bad Request' };
}
const NOT_FOUND = { statusCode: 404, message: 'Agent not found', error: 'Not Found' };

const minimal = {
  name: 'Whale Watcher',
  goal: 'Spot large wallet moves',
  instructions: 'Alert on transfers above $1M',
};

describe('/v1/agents (classic agents)', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startTestService({ keys: [KEY_A, KEY_B] });
  });
  afterAll(async () => {
    await stopService(svc);
  });

  async function create(body: Record<string, unknown> = minimal, key = KEY_A) {
    const r = await svc.call('POST', '/v1/agents', { body, key });
    expect(r.status, r.text).toBe(201);
    return r.json;
  }

  describe('POST /v1/agents', () => {
    it('answers 201 { agent_id, name, description, goal, instructions, triggers, enabled, created_at }', async () => {
      const before = Date.now();
      const r = await svc.call('POST', '/v1/agents', {
        body: {
          ...minimal,
          description: 'Tracks whales',
          triggers: [{ type: 'scheduled', cron: '0 * * * *' }],
          enabled: true,
        },
      });
      expect(r.status).toBe(201);
      expect(Object.keys(r.json).sort()).toEqual(
        ['agent_id', 'created_at', 'description', 'enabled', 'goal', 'instructions', 'name', 'triggers'].sort(),
      );
      expect(r.json).toEqual({
        agent_id: expect.stringMatching(UUID),
        name: 'Whale Watcher',
        description: 'Tracks whales',
        goal: 'Spot large wallet moves',
        instructions: 'Alert on transfers above $1M',
        triggers: [{ type: 'scheduled', cron: '0 * * * *' }],
        enabled: true,
        created_at: expect.stringMatching(ISO),
      });
      expect(Date.parse(r.json.created_at)).toBeGreaterThanOrEqual(before - 5);
    });

    it('defaults: empty description, no triggers, disabled', async () => {
      const body = await create();
      expect(body.description).toBe('');
      expect(body.triggers).toEqual([]);
      expect(body.enabled).toBe(false);
    });

    for (const field of ['name', 'goal', 'instructions'] as const) {
      it(`${field} is required → 400 ${field} is required`, async () => {
        const body: Record<string, unknown> = { ...minimal };
        delete body[field];
        const r = await svc.call('POST', '/v1/agents', { body });
        expect(r.status).toBe(400);
        expect(r.json).toEqual(badRequest(`${field} is required`));
      });

      it(`${field} must not be blank → 400`, async () => {
        const r = await svc.call('POST', '/v1/agents', { body: { ...minimal, [field]: '  ' } });
        expect(r.status).toBe(400);
        expect(r.json).toEqual(badRequest(`${field} must not be empty`));
      });
    }

    it('a name that is not a string → 400', async () => {
      const r = await svc.call('POST', '/v1/agents', { body: { ...minimal, name: 7 } });
      expect(r.status).toBe(400);
      expect(r.json).toEqual(badRequest('name must be a string'));
    });

    it('memory_enabled / trading_enabled / enabled must be booleans', async () => {
      for (const field of ['memory_enabled', 'trading_enabled', 'enabled']) {
        const r = await svc.call('POST', '/v1/agents', { body: { ...minimal, [field]: 'true' } });
        expect(r.status).toBe(400);
        expect(r.json).toEqual(badRequest(`${field} must be a boolean`));
      }
    });

    it('a rejected create stores nothing', async () => {
      const before = await svc.call('GET', '/v1/agents?limit=100');
      await svc.call('POST', '/v1/agents', { body: { ...minimal, triggers: [{ type: 'nope' }] } });
      await svc.call('POST', '/v1/agents', { body: { name: 'x' } });
      const after = await svc.call('GET', '/v1/agents?limit=100');
      expect(after.json).toEqual(before.json);
    });

    describe('triggers', () => {
      for (const cron of CRONS) {
        it(`scheduled with cron '${cron}' is accepted`, async () => {
          const body = await create({ ...minimal, triggers: [{ type: 'scheduled', cron }] });
          expect(body.triggers).toEqual([{ type: 'scheduled', cron }]);
        });
      }

      for (const cron of ['* * * * *', '*/10 * * * *', '0 0 * * 0', '', 5]) {
        it(`scheduled with cron ${JSON.stringify(cron)} → 400`, async () => {
          const r = await svc.call('POST', '/v1/agents', {
            body: { ...minimal, triggers: [{ type: 'scheduled', cron }] },
          });
          expect(r.status).toBe(400);
          expect(r.json).toEqual(badRequest(`triggers[0].cron must be one of: ${CRONS.join(', ')}`));
        });
      }

      it('scheduled without cron → 400', async () => {
        const r = await svc.call('POST', '/v1/agents', { body: { ...minimal, triggers: [{ type: 'scheduled' }] } });
        expect(r.status).toBe(400);
        expect(r.json.message).toBe(`triggers[0].cron must be one of: ${CRONS.join(', ')}`);
      });

      for (const rating of [1, 2, 3, 4, 5]) {
        it(`alpha with min_impact_rating ${rating} is accepted`, async () => {
          const body = await create({
            ...minimal,
            triggers: [{ type: 'alpha', match: 'ETF approval', min_impact_rating: rating }],
          });
          expect(body.triggers).toEqual([{ type: 'alpha', match: 'ETF approval', min_impact_rating: rating }]);
        });
      }

      it('alpha without min_impact_rating defaults to 3', async () => {
        const body = await create({ ...minimal, triggers: [{ type: 'alpha', match: 'hack' }] });
        expect(body.triggers).toEqual([{ type: 'alpha', match: 'hack', min_impact_rating: 3 }]);
        const got = await svc.call('GET', `/v1/agents/${body.agent_id}`);
        expect(got.json.triggers).toEqual([{ type: 'alpha', match: 'hack', min_impact_rating: 3 }]);
      });

      for (const rating of [0, 6, 2.5, -1, '3']) {
        it(`alpha with min_impact_rating ${JSON.stringify(rating)} → 400`, async () => {
          const r = await svc.call('POST', '/v1/agents', {
            body: { ...minimal, triggers: [{ type: 'alpha', match: 'hack', min_impact_rating: rating }] },
          });
          expect(r.status).toBe(400);
          expect(r.json).toEqual(badRequest('triggers[0].min_impact_rating must be an integer from 1 to 5'));
        });
      }

      it('alpha without match → 400', async () => {
        const r = await svc.call('POST', '/v1/agents', {
          body: { ...minimal, triggers: [{ type: 'alpha', min_impact_rating: 3 }] },
        });
        expect(r.status).toBe(400);
        expect(r.json).toEqual(badRequest('triggers[0].match is required for an alpha trigger'));
      });

      it('an unknown trigger type → 400', async () => {
        const r = await svc.call('POST', '/v1/agents', {
          body: { ...minimal, triggers: [{ type: 'webhook', url: 'https://x' }] },
        });
        expect(r.status).toBe(400);
        expect(r.json).toEqual(badRequest('triggers[0].type must be one of: scheduled, alpha'));
      });

      it('names the failing index in a list of triggers', async () => {
        const r = await svc.call('POST', '/v1/agents', {
          body: {
            ...minimal,
            triggers: [
              { type: 'scheduled', cron: '0 0 * * *' },
              { type: 'alpha', match: 'x', min_impact_rating: 9 },
            ],
          },
        });
        expect(r.status).toBe(400);
        expect(r.json.message).toBe('triggers[1].min_impact_rating must be an integer from 1 to 5');
      });

      it('triggers that are not an array, or items that are not objects → 400', async () => {
        const notArray = await svc.call('POST', '/v1/agents', {
          body: { ...minimal, triggers: { type: 'scheduled', cron: '0 0 * * *' } },
        });
        expect(notArray.status).toBe(400);
        expect(notArray.json).toEqual(badRequest('triggers must be an array'));
        const notObject = await svc.call('POST', '/v1/agents', { body: { ...minimal, triggers: ['0 0 * * *'] } });
        expect(notObject.status).toBe(400);
        expect(notObject.json).toEqual(badRequest('triggers[0] must be an object'));
      });

      it('keeps several valid triggers in order', async () => {
        const triggers = [
          { type: 'alpha', match: 'listing', min_impact_rating: 5 },
          { type: 'scheduled', cron: '*/5 * * * *' },
        ];
        const body = await create({ ...minimal, triggers });
        expect(body.triggers).toEqual(triggers);
      });
    });
  });

  describe('GET /v1/agents', () => {
    let list: TestService;
    const ids: string[] = [];

    beforeAll(async () => {
      list = await startTestService();
      for (const name of ['first', 'second', 'third']) {
        const r = await list.call('POST', '/v1/agents', { body: { ...minimal, name } });
        expect(r.status).toBe(201);
        ids.push(r.json.agent_id);
      }
    });
    afterAll(async () => {
      await stopService(list);
    });

    it('lists the caller’s agents newest first', async () => {
      const r = await list.call('GET', '/v1/agents');
      expect(r.status).toBe(200);
      expect(Array.isArray(r.json)).toBe(true);
      expect(r.json.map((a: any) => a.id)).toEqual([...ids].reverse());
      expect(r.json.map((a: any) => a.name)).toEqual(['third', 'second', 'first']);
      for (const a of r.json) {
        expect(a.created_at).toMatch(ISO);
        expect(a.enabled).toBe(false);
      }
    });

    it('?limit=1 gives only the newest, ?limit=2 the two newest', async () => {
      const one = await list.call('GET', '/v1/agents?limit=1');
      expect(one.status).toBe(200);
      expect(one.json).toHaveLength(1);
      expect(one.json[0].id).toBe(ids[2]);
      const two = await list.call('GET', '/v1/agents?limit=2');
      expect(two.json.map((a: any) => a.id)).toEqual([ids[2], ids[1]]);
    });

    for (const bad of ['0', 'abc', '-1', '1.5', '101', '']) {
      it(`?limit=${bad} → 400`, async () => {
        const r = await list.call('GET', `/v1/agents?limit=${bad}`);
        expect(r.status).toBe(400);
        expect(r.json).toEqual(badRequest('limit must be an integer from 1 to 100'));
      });
    }

    it('an account with no agents gets an empty array; others’ agents are not listed', async () => {
      const two = await startTestService({ keys: [KEY_A, KEY_B] });
      try {
        const created = await two.call('POST', '/v1/agents', { body: minimal });
        expect(created.status).toBe(201);
        const other = await two.call('GET', '/v1/agents', { key: KEY_B });
        expect(other.status).toBe(200);
        expect(other.json).toEqual([]);
        const mine = await two.call('GET', '/v1/agents');
        expect(mine.json.map((a: any) => a.id)).toEqual([created.json.agent_id]);
      } finally {
        await stopService(two);
      }
    });
  });

  describe('GET /v1/agents/{id}', () => {
    it('answers the full record with the defaults', async () => {
      const created = await create({ ...minimal });
      const r = await svc.call('GET', `/v1/agents/${created.agent_id}`);
      expect(r.status).toBe(200);
      expect(Object.keys(r.json).sort()).toEqual(
        [
          'created_at',
          'data',
          'description',
          'enabled',
          'id',
          'name',
          'stats',
          'triggers',
          'updated_at',
          'user_id',
        ].sort(),
      );
      expect(r.json).toEqual({
        id: created.agent_id,
        user_id: expect.any(String),
        name: 'Whale Watcher',
        description: '',
        data: {
          goal: 'Spot large wallet moves',
          instructions: 'Alert on transfers above $1M',
          memory_enabled: true,
          trading_enabled: false,
          model: 'default',
        },
        triggers: [],
        enabled: false,
        stats: expect.any(Object),
        created_at: created.created_at,
        updated_at: created.created_at,
      });
      expect(r.json.user_id.length).toBeGreaterThan(0);
      expect(r.json.stats).not.toBeNull();
      expect(r.json.updated_at).toMatch(ISO);
      // never leaks the key
      expect(r.text).not.toContain(KEY_A);
    });

    it('keeps the optional fields that were sent', async () => {
      const created = await create({
        ...minimal,
        description: 'desc',
        memory_enabled: false,
        trading_enabled: true,
        model: 'gpt-4o',
        enabled: true,
        triggers: [{ type: 'scheduled', cron: '0 0 * * *' }],
      });
      const r = await svc.call('GET', `/v1/agents/${created.agent_id}`);
      expect(r.status).toBe(200);
      expect(r.json.description).toBe('desc');
      expect(r.json.data).toEqual({
        goal: minimal.goal,
        instructions: minimal.instructions,
        memory_enabled: false,
        trading_enabled: true,
        model: 'gpt-4o',
      });
      expect(r.json.enabled).toBe(true);
      expect(r.json.triggers).toEqual([{ type: 'scheduled', cron: '0 0 * * *' }]);
    });

    it('the same key always gets the same user_id; another key a different one', async () => {
      const a1 = await create();
      const a2 = await create();
      const b1 = await create(minimal, KEY_B);
      const g1 = await svc.call('GET', `/v1/agents/${a1.agent_id}`);
      const g2 = await svc.call('GET', `/v1/agents/${a2.agent_id}`);
      const gb = await svc.call('GET', `/v1/agents/${b1.agent_id}`, { key: KEY_B });
      expect(g1.json.user_id).toBe(g2.json.user_id);
      expect(gb.json.user_id).not.toBe(g1.json.user_id);
    });

    it('an unknown id → 404 Agent not found', async () => {
      const r = await svc.call('GET', `/v1/agents/${randomUUID()}`);
      expect(r.status).toBe(404);
      expect(r.json).toEqual(NOT_FOUND);
    });

    it('a malformed id → 404 Agent not found', async () => {
      for (const id of ['not-a-uuid', '12345', 'x'.repeat(36)]) {
        const r = await svc.call('GET', `/v1/agents/${id}`);
        expect(r.status).toBe(404);
        expect(r.json).toEqual(NOT_FOUND);
      }
    });

    it('a superagent id is not a classic agent → 404', async () => {
      const sa = await svc.call('POST', '/v1/superagents', {
        body: { name: 'Not Classic', model: 'gpt-4o', model_provider: 'openai' },
      });
      expect(sa.status).toBe(200);
      const r = await svc.call('GET', `/v1/agents/${sa.json.agent_id}`);
      expect(r.status).toBe(404);
      expect(r.json).toEqual(NOT_FOUND);
    });
  });

  describe('PATCH /v1/agents/{id}', () => {
    it('changes only the sent fields, answers the full record, and moves updated_at', async () => {
      const created = await create({
        ...minimal,
        description: 'original',
        triggers: [{ type: 'alpha', match: 'hack', min_impact_rating: 4 }],
      });
      const before = (await svc.call('GET', `/v1/agents/${created.agent_id}`)).json;
      await sleep(15);

      const r = await svc.call('PATCH', `/v1/agents/${created.agent_id}`, { body: { name: 'Renamed' } });
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ ...before, name: 'Renamed', updated_at: expect.stringMatching(ISO) });
      expect(Date.parse(r.json.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
      expect(r.json.created_at).toBe(before.created_at);

      // the answer is what is stored
      const got = await svc.call('GET', `/v1/agents/${created.agent_id}`);
      expect(got.json).toEqual(r.json);

      await sleep(15);
      const r2 = await svc.call('PATCH', `/v1/agents/${created.agent_id}`, {
        body: { goal: 'New goal', instructions: 'New instructions', description: 'changed' },
      });
      expect(r2.status).toBe(200);
      expect(r2.json).toEqual({
        ...r.json,
        description: 'changed',
        data: { ...r.json.data, goal: 'New goal', instructions: 'New instructions' },
        updated_at: expect.stringMatching(ISO),
      });
      expect(Date.parse(r2.json.updated_at)).toBeGreaterThan(Date.parse(r.json.updated_at));
      expect(r2.json.name).toBe('Renamed');
      expect(r2.json.triggers).toEqual([{ type: 'alpha', match: 'hack', min_impact_rating: 4 }]);
    });

    it('description can be cleared with an empty string', async () => {
      const created = await create({ ...minimal, description: 'something' });
      const r = await svc.call('PATCH', `/v1/agents/${created.agent_id}`, { body: { description: '' } });
      expect(r.status).toBe(200);
      expect(r.json.description).toBe('');
    });

    it('the changes show in the list too', async () => {
      const created = await create();
      await svc.call('PATCH', `/v1/agents/${created.agent_id}`, { body: { name: 'Listed Rename' } });
      const list = await svc.call('GET', '/v1/agents?limit=100');
      const item = list.json.find((a: any) => a.id === created.agent_id);
      expect(item.name).toBe('Listed Rename');
    });

    const badBodies: Array<[Record<string, unknown>, string]> = [
      [{ name: 123 }, 'name must be a string'],
      [{ name: '' }, 'name must not be empty'],
      [{ description: false }, 'description must be a string'],
      [{ goal: ['x'] }, 'goal must be a string'],
      [{ goal: '   ' }, 'goal must not be empty'],
      [{ instructions: { a: 1 } }, 'instructions must be a string'],
      [{ name: 'n'.repeat(101) }, 'name must be at most 100 characters'],
      [{ name: 'Fine name', goal: 5 }, 'goal must be a string'],
    ];
    for (const [body, message] of badBodies) {
      it(`PATCH ${JSON.stringify(body).slice(0, 60)} → 400 ${message}, nothing changes`, async () => {
        const created = await create({ ...minimal, description: 'keep me' });
        const before = (await svc.call('GET', `/v1/agents/${created.agent_id}`)).json;
        await sleep(5);
        const r = await svc.call('PATCH', `/v1/agents/${created.agent_id}`, { body });
        expect(r.status).toBe(400);
        expect(r.json).toEqual(badRequest(message));
        const after = await svc.call('GET', `/v1/agents/${created.agent_id}`);
        expect(after.json).toEqual(before);
      });
    }

    it('a body that is not JSON → 400, that is not an object → 400', async () => {
      const created = await create();
      const notJson = await svc.call('PATCH', `/v1/agents/${created.agent_id}`, {
        rawBody: '{"name":',
        headers: { 'content-type': 'application/json' },
      });
      expect(notJson.status).toBe(400);
      expect(notJson.json.statusCode).toBe(400);
      const array = await svc.call('PATCH', `/v1/agents/${created.agent_id}`, { body: ['name'] });
      expect(array.status).toBe(400);
      expect(array.json.statusCode).toBe(400);
    });

    it('an unknown or malformed id → 404', async () => {
      for (const id of [randomUUID(), 'nope']) {
        const r = await svc.call('PATCH', `/v1/agents/${id}`, { body: { name: 'x' } });
        expect(r.status).toBe(404);
        expect(r.json).toEqual(NOT_FOUND);
      }
    });
  });

  describe('DELETE /v1/agents/{id}', () => {
    it('answers { message }, then the agent is gone (404 for GET, PATCH, DELETE; not listed)', async () => {
      const created = await create();
      const r = await svc.call('DELETE', `/v1/agents/${created.agent_id}`);
      expect(r.status).toBe(200);
      expect(Object.keys(r.json)).toEqual(['message']);
      expect(typeof r.json.message).toBe('string');
      expect(r.json.message.length).toBeGreaterThan(0);

      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { name: 'x' }],
        ['DELETE', undefined],
      ] as const) {
        const after = await svc.call(method, `/v1/agents/${created.agent_id}`, { body });
        expect(after.status, method).toBe(404);
        expect(after.json).toEqual(NOT_FOUND);
      }
      const list = await svc.call('GET', '/v1/agents?limit=100');
      expect(list.json.some((a: any) => a.id === created.agent_id)).toBe(false);
    });

    it('an unknown or malformed id → 404', async () => {
      for (const id of [randomUUID(), 'nope']) {
        const r = await svc.call('DELETE', `/v1/agents/${id}`);
        expect(r.status).toBe(404);
        expect(r.json).toEqual(NOT_FOUND);
      }
    });
  });

  describe('ownership', () => {
    it('another key gets 403 on GET, PATCH and DELETE, and changes nothing', async () => {
      const created = await create();
      const before = (await svc.call('GET', `/v1/agents/${created.agent_id}`)).json;
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { name: 'Stolen' }],
        ['DELETE', undefined],
      ] as const) {
        const r = await svc.call(method, `/v1/agents/${created.agent_id}`, { body, key: KEY_B });
        expect(r.status, method).toBe(403);
        expect(r.json.statusCode).toBe(403);
        expect(r.json.error).toBe('Forbidden');
        expect(typeof r.json.message).toBe('string');
      }
      const after = await svc.call('GET', `/v1/agents/${created.agent_id}`);
      expect(after.status).toBe(200);
      expect(after.json).toEqual(before);
    });

    it('without a key → 401', async () => {
      const created = await create();
      for (const [method, path] of [
        ['GET', '/v1/agents'],
        ['POST', '/v1/agents'],
        ['GET', `/v1/agents/${created.agent_id}`],
      ] as const) {
        const r = await svc.call(method, path, { key: null, body: method === 'POST' ? minimal : undefined });
        expect(r.status).toBe(401);
        expect(r.json).toEqual({ statusCode: 401, message: 'Invalid or revoked API key', error: 'Unauthorized' });
      }
    });
  });
});
