// Answers that are not what the hosted API describes: each is
// the service's fault, exit 7 in one line naming what is wrong, never exit 1 "This is a bug" or a
// wrong word on the screen. Fields the document marks optional may be missing: shown as unknown.
import type http from 'node:http';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runLine, type RunOptions } from '../helpers/context.js';
import { AGENT_ID, hostileServices, type Routes } from '../helpers/hostile-service.js';

const h = hostileServices();
const A = `/v1/superagents/${AGENT_ID}`;
const HINT = ' (check the base URL points at a SuperAgents service)\n';
const notDescribed = (why: string) => `Error: the service's answer is not what the API describes: ${why}${HINT}`;
const LAUNCH = ['launch', '--name', 'x', '--model', 'gpt-4o'];
/** what a launch whose answer cannot be read adds, and its hint */
const REACHED =
  "; the request reached the service and may have been carried out (run 'superagent list' to see whether the agent " +
  'was launched before trying again)';

async function run(routes: Routes, argv: string[], o: RunOptions = {}) {
  return runLine(await h.serve(routes), argv, o);
}

const skill = (over: object = {}) => ({ name: 'hyperliquid', description: 'Trade perps', enabled: true, ...over });

describe('a malformed answer is exit 7 in one line', () => {
  it.each<[string, string[], Routes, string]>([
    [
      'skills: an item without a name',
      ['skills', AGENT_ID],
      { [`GET ${A}/skills`]: { body: { agent_id: AGENT_ID, skills: [{ description: 'x', enabled: true }] } } },
      'skills[0].name is missing',
    ],
    [
      'skills: [null]',
      ['skills', AGENT_ID],
      { [`GET ${A}/skills`]: { body: { skills: [null] } } },
      'skills[0] is null, not an object',
    ],
    [
      'skills: {}',
      ['skills', AGENT_ID],
      { [`GET ${A}/skills`]: { body: { skills: {} } } },
      'skills is an object, not a list',
    ],
    [
      'skills: a name that is a number',
      ['skills', AGENT_ID],
      { [`GET ${A}/skills`]: { body: { skills: [skill({ name: 5 })] } } },
      'skills[0].name is a number, not a string',
    ],
    [
      'skills: enabled "no"',
      ['skills', AGENT_ID],
      { [`GET ${A}/skills`]: { body: { skills: [skill({ enabled: 'no' })] } } },
      'skills[0].enabled is a string, not true or false',
    ],
    [
      'skills: a null body',
      ['skills', AGENT_ID],
      { [`GET ${A}/skills`]: { body: 'null' } },
      'the answer is null, not an object',
    ],
    [
      'skills enable: a null body',
      ['skills', 'enable', AGENT_ID, 'hyperliquid'],
      { [`GET ${A}/skills`]: { body: 'null' } },
      'the answer is null, not an object',
    ],
    [
      'wallet: null',
      ['wallet', AGENT_ID],
      { [`GET ${A}/wallet`]: { body: 'null' } },
      'the answer is null, not an object',
    ],
    [
      'wallet: an address that is a number',
      ['wallet', AGENT_ID],
      { [`GET ${A}/wallet`]: { body: { evm_address: 5, solana_address: 'So1' } } },
      'evm_address is a number, not a string',
    ],
    ['health: {}', ['health', AGENT_ID], { [`GET ${A}/health`]: { body: {} } }, 'healthy is missing'],
    [
      'health: null',
      ['health', AGENT_ID],
      { [`GET ${A}/health`]: { body: 'null' } },
      'the answer is null, not an object',
    ],
    [
      'health: healthy "yes"',
      ['health', AGENT_ID],
      { [`GET ${A}/health`]: { body: { healthy: 'yes' } } },
      'healthy is a string, not true or false',
    ],
    [
      'memory: null',
      ['memory', AGENT_ID],
      { [`GET ${A}/files`]: { body: 'null' } },
      'the answer is null, not an object',
    ],
    ['memory: {}', ['memory', AGENT_ID], { [`GET ${A}/files`]: { body: {} } }, 'soul_md is missing'],
    [
      'memory: memory_md 5',
      ['memory', AGENT_ID],
      { [`GET ${A}/files`]: { body: { soul_md: '', memory_md: 5 } } },
      'memory_md is a number, not a string',
    ],
    [
      'update: null',
      ['update', AGENT_ID, '--description', 'd'],
      { [`PUT ${A}/profile`]: { body: 'null' } },
      'the answer is null, not an object',
    ],
    [
      'model set: null',
      ['model', AGENT_ID, 'gpt-4o'],
      { [`PUT ${A}/model`]: { body: 'null' } },
      'the answer is null, not an object',
    ],
    [
      'get: a name that is an object',
      ['get', AGENT_ID],
      { [`GET ${A}`]: { body: { agent_id: AGENT_ID, name: { first: 'x' }, status: 'running' } } },
      'name is an object, not a string',
    ],
    [
      'list: a record without its id',
      ['list'],
      { 'GET /v1/superagents': { body: { agents: [{ name: 'x', status: 'running' }] } } },
      'agents[0].agent_id is missing',
    ],
    [
      'classic get: null',
      ['classic', 'get', AGENT_ID],
      { [`GET /v1/agents/${AGENT_ID}`]: { body: 'null' } },
      'the answer is null, not an object',
    ],
    [
      'classic get: a goal that is a number',
      ['classic', 'get', AGENT_ID],
      { [`GET /v1/agents/${AGENT_ID}`]: { body: { id: AGENT_ID, name: 'w', data: { goal: 5 } } } },
      'data.goal is a number, not a string',
    ],
    [
      'classic list: a name that is a list',
      ['classic', 'list'],
      { 'GET /v1/agents': { body: [{ id: AGENT_ID, name: ['w'] }] } },
      '[0].name is a list, not a string',
    ],
  ])('%s', async (_what, argv, routes, why) => {
    const r = await run(routes, argv);
    expect(r.stderr).toBe(notDescribed(why));
    expect(r).toMatchObject({ code: 7, stdout: '' });
  });

  it.each([
    ['{}', {}, 'agent_id is missing'],
    ['null', 'null', 'the answer is null, not an object'],
    ['{"agent_id":5}', { agent_id: 5 }, 'agent_id is a number, not a string'],
  ])('launch answered %s: said, and that the agent may have been launched', async (_what, body, why) => {
    const r = await run({ 'GET /v1/superagents': { body: { agents: [] } }, 'POST /v1/superagents': { body } }, LAUNCH);
    expect(r.stderr).toBe(`Error: the service's answer is not what the API describes: ${why}${REACHED}\n`);
    expect(r).toMatchObject({ code: 7, stdout: '' });
  });

  it.each([
    ['null', 'null', 'the answer is null, not an object'],
    ['{"agent_id":5}', { agent_id: 5 }, 'agent_id is a number, not a string'],
  ])('pause answered %s: its line for the agent says so', async (_what, body, why) => {
    const r = await run({ [`POST ${A}/pause`]: { body } }, ['pause', AGENT_ID]);
    expect(r).toMatchObject({
      code: 7,
      stdout: '',
      stderr: `✗ ${AGENT_ID}: ${notDescribed(why).slice('Error: '.length)}`,
    });
  });

  it('soul set answered null', async () => {
    const r = await run({ [`PUT ${A}/soul`]: { body: 'null' } }, ['soul', 'set', AGENT_ID, '--file', '-'], {
      input: '# soul\n',
    });
    expect(r).toMatchObject({ code: 7, stdout: '', stderr: notDescribed('the answer is null, not an object') });
  });

  it('--json on a record with a field nested 20,000 deep: refused before printing, not a stack overflow', async () => {
    const deep = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000);
    const body = `{"agent_id":"${AGENT_ID}","name":"deep","status":"running","extra":${deep}}`;
    const r = await run({ [`GET ${A}`]: { body } }, ['get', AGENT_ID, '--json']);
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      "the service's answer is not what the API describes: it nests objects or lists more than 512 deep",
    );
  });
});

describe('what the document marks optional may be missing', () => {
  it("a skill whose state is not sent is shown as unknown, never as 'on' or 'off'", async () => {
    const routes = { [`GET ${A}/skills`]: { body: { skills: [skill(), { name: 'market-intel' }] } } };
    const piped = await run(routes, ['skills', AGENT_ID]);
    expect(piped).toMatchObject({ code: 0, stdout: 'hyperliquid\ton\nmarket-intel\t\n', stderr: '' });
    const tty = await run(routes, ['skills', AGENT_ID], { tty: true });
    expect(tty.stdout).toMatch(/^market-intel +– *$/m);
  });

  it('skills enable will not send a disabled set it has to guess: exit 7, nothing sent', async () => {
    const target = await h.serve({
      [`GET ${A}/skills`]: { body: { skills: [skill({ enabled: false }), { name: 'market-intel' }] } },
    });
    const r = await runLine(target, ['skills', 'enable', AGENT_ID, 'hyperliquid']);
    expect(r).toMatchObject({ code: 7, stdout: '' });
    expect(r.stderr).toBe(
      `Error: the service did not say whether market-intel is enabled on ${AGENT_ID}; ` +
        `nothing was changed (check with 'superagent skills ${AGENT_ID}')\n`,
    );
    expect(target.seen).toEqual([`GET ${A}/skills`]);
  });

  it('a record without name or status: list shows them as unknown', async () => {
    const r = await run({ 'GET /v1/superagents': { body: { agents: [{ agent_id: AGENT_ID }] } } }, ['list'], {
      tty: true,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[1]).toMatch(/^– +a1b2c3d4 +– *$/);
  });

  it('pause answered {}: the row says done, with its id (the status left empty)', async () => {
    const r = await run({ [`POST ${A}/pause`]: { body: {} } }, ['pause', AGENT_ID]);
    expect(r).toMatchObject({ code: 0, stdout: `${AGENT_ID}\t\t\tdone\n` });
  });
});

describe('a launch answered 2xx that cannot be read: it may have been done, and the user is told to look first', () => {
  const launched = (answer: (res: http.ServerResponse) => void): Routes => ({
    'GET /v1/superagents': { body: { agents: [] } },
    'POST /v1/superagents': (_req, res) => answer(res),
  });

  it('cut short', async () => {
    const target = await h.serve(
      launched((res) => {
        res.writeHead(201, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"agent_id":', () => res.socket?.destroy());
      }),
    );
    const r = await runLine(target, LAUNCH);
    expect(r).toMatchObject({ code: 7, stdout: '' });
    const answered = `the service answered 201 to POST ${target.url}/v1/superagents`;
    expect(r.stderr).toBe(`Error: ${answered}, but its answer was cut short${REACHED}\n`);
    expect(target.seen.filter((s) => s.startsWith('POST'))).toHaveLength(1);
  });

  it('not JSON', async () => {
    const notJson = launched((res) => res.writeHead(201, { 'content-type': 'application/json' }).end('Launched!'));
    const r = await run(notJson, LAUNCH);
    expect(r).toMatchObject({ code: 7, stdout: '' });
    expect(r.stderr).toBe(`Error: the service's answer is not what the API describes: it is not JSON${REACHED}\n`);
  });
});

describe('a compressed answer the CLI did not ask for', () => {
  it('is named with its encoding (exit 7), not reported as an answer that is not what the API describes', async () => {
    const body = zlib.gzipSync(JSON.stringify({ agent_id: AGENT_ID, name: 'demo', status: 'running' }));
    const r = await run(
      {
        [`GET ${A}`]: (_req, res) =>
          res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(body),
      },
      ['get', AGENT_ID],
    );
    expect(r).toMatchObject({ code: 7, stdout: '' });
    expect(r.stderr).toBe(
      'Error: the service answered with a gzip-compressed body the client did not ask for (the ' +
        'client asks for uncompressed answers: check the base URL and any proxy on the way)\n',
    );
  });
});
