// classic list / get / update: the built binary against a real embedded service.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type RunOptions } from '../helpers/cli.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { perTest, stopService } from '../helpers/service-support.js';

// each run gets a config and data dir of its own, removed after its test
const temp = perTest();
const run = (args: string[], opts: RunOptions = {}) =>
  runCli(args, { configDir: temp.scratch('superagent-config-'), dataDir: temp.scratch('superagent-data-'), ...opts });

interface Created {
  agent_id: string;
  name: string;
}

async function create(svc: TestService, body: Record<string, unknown>): Promise<Created> {
  const r = await svc.call('POST', '/v1/agents', { body });
  expect(r.status, r.text).toBe(201);
  return r.json as Created;
}

async function record(svc: TestService, id: string): Promise<any> {
  const r = await svc.call('GET', `/v1/agents/${id}`);
  expect(r.status, r.text).toBe(200);
  return r.json;
}

/** What `classic get` prints when piped, field by field. */
function pipedRecord(r: any, triggers: string): string {
  return [
    ['name', r.name],
    ['id', r.id],
    ['enabled', r.enabled ? 'yes' : 'no'],
    ...(r.description ? [['description', r.description]] : []),
    ['goal', r.data.goal.replace(/\n/g, '\\n')],
    ['instructions', r.data.instructions.replace(/\n/g, '\\n')],
    ['triggers', triggers],
    ['model', r.data.model],
    ['memory', r.data.memory_enabled ? 'yes' : 'no'],
    ['trading', r.data.trading_enabled ? 'yes' : 'no'],
    ['created', r.created_at],
    ['updated', r.updated_at],
  ]
    .map(([k, v]) => `${k}\t${v}\n`)
    .join('');
}

describe('classic commands', () => {
  let svc: TestService;
  let whale: Created;
  let news: Created;

  beforeAll(async () => {
    svc = await startTestService();
    whale = await create(svc, {
      name: 'Whale Watcher',
      goal: 'Spot large wallet moves',
      instructions: 'Alert on transfers above $1M.\nIgnore exchange wallets.',
      description: 'Tracks whales',
      triggers: [{ type: 'scheduled', cron: '*/15 * * * *' }],
      enabled: true,
    });
    await new Promise((r) => setTimeout(r, 5)); // distinct created_at, so the order is certain
    news = await create(svc, {
      name: 'News Desk',
      goal: 'Summarise market news',
      instructions: 'One line per story',
      triggers: [{ type: 'alpha', match: 'ETF', min_impact_rating: 4 }],
    });
  });
  afterAll(async () => {
    await stopService(svc);
  });

  describe('classic list', () => {
    it('piped: id, name, enabled, updated, newest first', async () => {
      const [w, n] = [await record(svc, whale.agent_id), await record(svc, news.agent_id)];
      const r = await run(['classic', 'list'], { target: svc });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toBe(`${n.id}\tNews Desk\tno\t${n.updated_at}\n${w.id}\tWhale Watcher\tyes\t${w.updated_at}\n`);
    });

    it('--limit 1 shows the newest only; --json prints the API answer', async () => {
      const limited = await run(['classic', 'list', '--limit', '1'], { target: svc });
      expect(limited.exitCode, limited.stderr).toBe(0);
      expect(limited.stdout.split('\n')).toEqual([expect.stringMatching(new RegExp(`^${news.agent_id}\tNews Desk\t`)), '']);
      const api = await svc.call('GET', '/v1/agents');
      const json = await run(['classic', 'list', '--json'], { target: svc });
      expect(json.exitCode, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual(api.json);
    });

    it('--limit outside 1–100 exits 2 before any request', async () => {
      for (const value of ['0', '101', 'ten']) {
        const r = await run(['classic', 'list', '--limit', value, '--debug'], { target: svc });
        expect(r.exitCode).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toContain('--limit must be a whole number from 1 to 100');
        expect(r.stderr).not.toContain('→');
      }
    });
  });

  describe('classic get', () => {
    it('piped: every field, goal and instructions included (newlines as \\n)', async () => {
      const w = await record(svc, whale.agent_id);
      const r = await run(['classic', 'get', whale.agent_id], { target: svc });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toBe(pipedRecord(w, 'scheduled (*/15 * * * *)'));
      const n = await record(svc, news.agent_id);
      const other = await run(['classic', 'get', news.agent_id.toUpperCase()], { target: svc });
      expect(other.exitCode, other.stderr).toBe(0);
      expect(other.stdout).toBe(pipedRecord(n, 'alpha "ETF" (impact ≥ 4)'));
    });

    it('--json prints the record', async () => {
      const r = await run(['classic', 'get', whale.agent_id, '--json'], { target: svc });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(await record(svc, whale.agent_id));
    });

    it('an id that is not a uuid exits 2 without a request (no name lookup)', async () => {
      for (const id of ['Whale Watcher', whale.agent_id.slice(0, 8)]) {
        const r = await run(['classic', 'get', id, '--debug'], { target: svc });
        expect(r.exitCode).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toContain(`'${id}' is not a classic agent id: it must be a uuid`);
        expect(r.stderr).not.toContain('→');
      }
    });

    it('an unknown uuid exits 4', async () => {
      const missing = randomUUID();
      const r = await run(['classic', 'get', missing], { target: svc });
      expect(r.exitCode).toBe(4);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`no classic agent with id ${missing}`);
    });
  });

  describe('classic update', () => {
    it('changes only the given fields and prints the updated record', async () => {
      const before = await record(svc, news.agent_id);
      await new Promise((r) => setTimeout(r, 5));
      const r = await run(['classic', 'update', news.agent_id, '--name', 'News Desk 2', '--goal', 'Summarise crypto news'], { target: svc });
      expect(r.exitCode, r.stderr).toBe(0);
      const after = await record(svc, news.agent_id);
      expect(after.name).toBe('News Desk 2');
      expect(after.data.goal).toBe('Summarise crypto news');
      expect(after.data.instructions).toBe(before.data.instructions);
      expect(after.description).toBe(before.description);
      expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
      expect(r.stdout).toBe(pipedRecord(after, 'alpha "ETF" (impact ≥ 4)'));
    });

    it('--json prints the updated record; --description "" clears it', async () => {
      const r = await run(['classic', 'update', whale.agent_id, '--description', '', '--instructions', 'Only above $5M', '--json'], { target: svc });
      expect(r.exitCode, r.stderr).toBe(0);
      const after = await record(svc, whale.agent_id);
      expect(JSON.parse(r.stdout)).toEqual(after);
      expect(after.description).toBe('');
      expect(after.data.instructions).toBe('Only above $5M');
    });

    it('no flags, a bad id, an empty or too long value exit 2 before any request, and change nothing', async () => {
      const before = await record(svc, whale.agent_id);
      const cases: Array<[string[], string]> = [
        [['classic', 'update', whale.agent_id], 'nothing to update'],
        [['classic', 'update', 'whale', '--name', 'X'], "'whale' is not a classic agent id"],
        [['classic', 'update', whale.agent_id, '--name', '  '], '--name: the name must not be empty'],
        [['classic', 'update', whale.agent_id, '--goal', ''], '--goal must not be empty'],
        [['classic', 'update', whale.agent_id, '--name', 'n'.repeat(101)], '--name: the name must be at most 100 characters'],
        [['classic', 'update', whale.agent_id, '--description', 'd'.repeat(501)], '--description must be at most 500 characters'],
        [['classic', 'update', whale.agent_id, '--goal', 'g'.repeat(2001)], '--goal must be at most 2000 characters'],
        [['classic', 'update', whale.agent_id, '--instructions', 'i'.repeat(20001)], '--instructions must be at most 20000 characters'],
      ];
      for (const [args, message] of cases) {
        const r = await run([...args, '--debug'], { target: svc });
        expect(r.exitCode, args.join(' ')).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toContain(message);
        expect(r.stderr).not.toContain('→');
      }
      expect(await record(svc, whale.agent_id)).toEqual(before);
    });

    it('an unknown uuid exits 4', async () => {
      const missing = randomUUID();
      const r = await run(['classic', 'update', missing, '--name', 'Ghost'], { target: svc });
      expect(r.exitCode).toBe(4);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`no classic agent with id ${missing}`);
    });
  });
});
