// classic list / get / update through the commands layer (docs/cli.md, superagent classic …): classic
// ids are uuids (no name lookup), checked before any request like every other bad input.
import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';
import type { TestService } from '../helpers/service.js';

const RELATIVE = /^(just now|\d+ seconds ago)$/;

interface Created {
  agent_id: string;
  name: string;
}

let service: TestService;
let whale: Created;
let news: Created;
const scratch = perTest();
const cli = cliFor(() => service);

async function create(body: Record<string, unknown>): Promise<Created> {
  const r = await service.call('POST', '/v1/agents', { body });
  expect(r.status, r.text).toBe(201);
  return r.json as Created;
}

async function record(id: string): Promise<any> {
  const r = await service.call('GET', `/v1/agents/${id}`);
  expect(r.status, r.text).toBe(200);
  return r.json;
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 5)); // a later timestamp, so the order is certain

// a service per test with two classic agents: Whale Watcher, then News Desk (the newest)
beforeEach(async () => {
  service = await scratch.service();
  whale = await create({
    name: 'Whale Watcher',
    goal: 'Spot large wallet moves',
    instructions: 'Alert on transfers above $1M.\nIgnore exchange wallets.',
    description: 'Tracks whales',
    triggers: [{ type: 'scheduled', cron: '*/15 * * * *' }],
    enabled: true,
  });
  await pause();
  news = await create({
    name: 'News Desk',
    goal: 'Summarise market news',
    instructions: 'One line per story',
    triggers: [{ type: 'alpha', match: 'ETF', min_impact_rating: 4 }],
  });
});

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

/** `Label:  value` lines of a terminal, as [label, value]. */
const fieldsOf = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .map((l) => /^(\S+):\s+(.*)$/.exec(l)?.slice(1) ?? ['', l]);

/** Refused before any request: exit 2, one line on stderr, nothing sent. */
async function expectRefused(argv: string[], stderr: string): Promise<void> {
  service.cliRequests();
  const r = await cli(argv);
  expect(r, argv.join(' ')).toEqual({ code: 2, stdout: '', stderr: `Error: ${stderr}\n`, asked: [] });
  expect(service.cliRequests()).toEqual([]);
}

describe('classic list', () => {
  it('piped: id, name, enabled, updated, newest first', async () => {
    const [w, n] = [await record(whale.agent_id), await record(news.agent_id)];
    const r = await cli('classic list');
    expect(r).toEqual({
      code: 0,
      stdout: `${n.id}\tNews Desk\tno\t${n.updated_at}\n${w.id}\tWhale Watcher\tyes\t${w.updated_at}\n`,
      stderr: '',
      asked: [],
    });
  });

  it('--limit 1 shows the newest only; --json prints the API answer', async () => {
    const n = await record(news.agent_id);
    const limited = await cli('classic list --limit 1');
    expect(limited).toEqual({ code: 0, stdout: `${n.id}\tNews Desk\tno\t${n.updated_at}\n`, stderr: '', asked: [] });
    const api = await service.call('GET', '/v1/agents');
    const json = await cli('classic list --json');
    expect([json.code, json.stderr]).toEqual([0, '']);
    expect(JSON.parse(json.stdout)).toEqual(api.json);
  });

  it('on a terminal: a table with a header and relative times', async () => {
    const r = await cli('classic list', { tty: true });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split(/ {2,}/));
    expect(rows.map((row) => row.slice(0, 3))).toEqual([
      ['ID', 'NAME', 'ENABLED'],
      [news.agent_id, 'News Desk', 'no'],
      [whale.agent_id, 'Whale Watcher', 'yes'],
    ]);
    expect(rows[0]![3]).toBe('UPDATED');
    for (const row of rows.slice(1)) expect(row[3]).toMatch(RELATIVE);
  });

  it('--limit outside 1–100 exits 2 before any request', async () => {
    for (const value of ['0', '101', 'ten'])
      await expectRefused(
        ['classic', 'list', '--limit', value],
        `--limit must be a whole number from 1 to 100, not '${value}'`,
      );
  });
});

describe('classic get', () => {
  it('piped: every field, goal and instructions included (newlines as \\n); an upper-case id is fine', async () => {
    const w = await record(whale.agent_id);
    const r = await cli(['classic', 'get', whale.agent_id]);
    expect(r).toEqual({ code: 0, stdout: pipedRecord(w, 'scheduled (*/15 * * * *)'), stderr: '', asked: [] });
    const n = await record(news.agent_id);
    const other = await cli(['classic', 'get', news.agent_id.toUpperCase()]);
    expect(other).toEqual({ code: 0, stdout: pipedRecord(n, 'alpha "ETF" (impact ≥ 4)'), stderr: '', asked: [] });
  });

  it('--json prints the record', async () => {
    const r = await cli(['classic', 'get', whale.agent_id, '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toEqual(await record(whale.agent_id));
  });

  it('on a terminal: aligned fields, a long text indented under its value', async () => {
    const w = await record(whale.agent_id);
    const r = await cli(['classic', 'get', whale.agent_id], { tty: true });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const lines = r.stdout.trimEnd().split('\n');
    const at = lines.findIndex((l) => l.startsWith('Instructions:'));
    // the labels are padded to 'Instructions:' and two spaces: 15 columns
    expect(lines.slice(at, at + 2)).toEqual([
      'Instructions:  Alert on transfers above $1M.',
      `${' '.repeat(15)}Ignore exchange wallets.`,
    ]);
    const fields = Object.fromEntries(fieldsOf(lines.filter((_, i) => i !== at + 1).join('\n')));
    expect(fields).toMatchObject({
      Name: 'Whale Watcher',
      ID: w.id,
      Enabled: 'yes',
      Description: 'Tracks whales',
      Triggers: 'scheduled (*/15 * * * *)',
    });
    expect(fields.Created).toMatch(RELATIVE);
  });

  it('a name or an id prefix is looked up in one list call; no match exits 4 with a suggestion', async () => {
    const w = await record(whale.agent_id);
    for (const ref of ['Whale Watcher', 'whale watcher', whale.agent_id.slice(0, 8)]) {
      service.cliRequests();
      const r = await cli(['classic', 'get', ref]);
      expect(r, ref).toEqual({ code: 0, stdout: pipedRecord(w, 'scheduled (*/15 * * * *)'), stderr: '', asked: [] });
      expect(
        service.cliRequests().map((q) => `${q.method} ${q.path}`),
        ref,
      ).toEqual(['GET /v1/agents', `GET /v1/agents/${whale.agent_id}`]);
    }
    const r = await cli(['classic', 'get', 'Whale Wtacher']);
    expect(r).toEqual({
      code: 4,
      stdout: '',
      stderr: "Error: no classic agent matches 'Whale Wtacher' (did you mean 'Whale Watcher'?)\n",
      asked: [],
    });
    const short = await cli(['classic', 'get', 'ab1']);
    expect(short.stderr).toBe("Error: no classic agent matches 'ab1' (an id prefix needs at least 4 characters)\n");
    const unknown = await cli(['classic', 'get', 'zzzz']);
    expect(unknown.stderr).toBe("Error: no classic agent matches 'zzzz' (see 'superagent classic list')\n");
  });

  it(
    "a name that is another classic agent's id prefix is " + 'ambiguous: exit 4 naming both, the full id picks one',
    async () => {
      const prefix = whale.agent_id.slice(0, 8);
      const named = await create({ name: prefix, goal: 'g', instructions: 'i', triggers: [] });
      const r = await cli(['classic', 'get', prefix]);
      expect(r).toEqual({
        code: 4,
        stdout: '',
        stderr:
          `Error: '${prefix}' is the name of ${prefix} (${named.agent_id}) ` +
          `and an id prefix of Whale Watcher (${whale.agent_id}) ` +
          '(give the full id of the one you mean)\n',
        asked: [],
      });
      const exact = await cli(['classic', 'get', whale.agent_id]);
      expect([exact.code, exact.stdout.split('\n')[0]]).toEqual([0, 'name\tWhale Watcher']);
    },
  );

  it('an unknown uuid exits 4', async () => {
    const missing = randomUUID();
    const r = await cli(['classic', 'get', missing]);
    expect(r).toEqual({
      code: 4,
      stdout: '',
      stderr: `Error: no classic agent with id ${missing} (see 'superagent classic list')\n`,
      asked: [],
    });
  });
});

describe('classic update', () => {
  it('changes only the given fields and prints the updated record', async () => {
    const before = await record(news.agent_id);
    await pause();
    const r = await cli([
      'classic',
      'update',
      news.agent_id,
      '--name',
      'News Desk 2',
      '--goal',
      'Summarise crypto news',
    ]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(service.cliRequests().map((e) => e.body)).toEqual([{ name: 'News Desk 2', goal: 'Summarise crypto news' }]);
    const after = await record(news.agent_id);
    expect(after.name).toBe('News Desk 2');
    expect(after.data.goal).toBe('Summarise crypto news');
    expect(after.data.instructions).toBe(before.data.instructions);
    expect(after.description).toBe(before.description);
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    expect(r.stdout).toBe(pipedRecord(after, 'alpha "ETF" (impact ≥ 4)'));
  });

  it('--json prints the updated record; --description "" clears it', async () => {
    const r = await cli([
      'classic',
      'update',
      whale.agent_id,
      '--description',
      '',
      '--instructions',
      'Only above $5M',
      '--json',
    ]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const after = await record(whale.agent_id);
    expect(JSON.parse(r.stdout)).toEqual(after);
    expect(after.description).toBe('');
    expect(after.data.instructions).toBe('Only above $5M');
  });

  it('on a terminal: a success line on stderr, the record as fields on stdout', async () => {
    const r = await cli(['classic', 'update', whale.agent_id, '--name', 'Big Whale'], { tty: true });
    expect([r.code, r.stderr]).toEqual([0, '✓ Updated Big Whale\n']);
    expect(fieldsOf(r.stdout).slice(0, 2)).toEqual([
      ['Name', 'Big Whale'],
      ['ID', whale.agent_id],
    ]);
  });

  it('no flags, a bad id, an empty or too long value exit 2 before any request, and change nothing', async () => {
    const before = await record(whale.agent_id);
    const id = whale.agent_id;
    const cases: Array<[string[], string]> = [
      [[], 'nothing to update (give at least one of --name, --description, --goal, --instructions)'],
      [['--name', '  '], '--name: the name must not be empty'],
      [['--goal', ''], '--goal must not be empty'],
      [['--instructions', ' \n'], '--instructions must not be empty'],
      [['--name', 'n'.repeat(101)], '--name: the name must be at most 100 characters (it has 101)'],
      [['--description', 'd'.repeat(501)], '--description must be at most 500 characters (it has 501)'],
      [['--goal', 'g'.repeat(2001)], '--goal must be at most 2000 characters (it has 2001)'],
      [['--instructions', 'i'.repeat(20001)], '--instructions must be at most 20000 characters (it has 20001)'],
      [['--goal'], '--goal needs a value (e.g. --goal <text>)'],
    ];
    for (const [args, message] of cases) await expectRefused(['classic', 'update', id, ...args], message);
    const r = await cli(['classic', 'update', 'whale', '--name', 'X']);
    expect(r).toEqual({
      code: 4,
      stdout: '',
      stderr: "Error: no classic agent matches 'whale' (did you mean 'Whale Watcher'?)\n",
      asked: [],
    });
    expect(await record(whale.agent_id)).toEqual(before);
  });

  it('an unknown uuid exits 4', async () => {
    const missing = randomUUID();
    const r = await cli(['classic', 'update', missing, '--name', 'Ghost']);
    expect(r).toEqual({
      code: 4,
      stdout: '',
      stderr: `Error: no classic agent with id ${missing} (see 'superagent classic list')\n`,
      asked: [],
    });
  });
});
