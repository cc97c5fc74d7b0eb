// destroy, update and model through the built binary against a real embedded service
// (CLI.md "Commands", contract §7). Refused input exits 2 and sends nothing (request-count probe).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { PROBE_RATE_LIMIT, requestProbe, type RequestProbe } from '../helpers/request-count.js';
import { launchAgent, startTestService, type TestService } from '../helpers/service.js';
import type { Exchange } from '../../src/server/index.js';
import { perTest, stopService } from '../helpers/service-support.js';

let service: TestService;
let probe: RequestProbe;

const scratch = perTest();
const cli = (args: string[], env?: Record<string, string | undefined>) =>
  runCli(args, { target: service, env, configDir: scratch.scratch('superagent-config-'), dataDir: scratch.scratch('superagent-data-') });

/** The bodies of the model changes the service accepted, oldest first (the record does not show the provider). */
const modelChanges: unknown[] = [];
function noteModelChange(e: Exchange): void {
  if (e.method === 'PUT' && e.path.endsWith('/model') && e.status === 200) modelChanges.push(JSON.parse(e.requestBody!));
}

async function start(): Promise<void> {
  service = await startTestService({ rateLimit: PROBE_RATE_LIMIT, onExchange: noteModelChange });
  probe = await requestProbe(service);
}

async function stop(): Promise<void> {
  await stopService(service);
}

async function launch(name: string, extra: Record<string, string> = {}): Promise<string> {
  return (await launchAgent(service, { name, ...extra })).agent_id;
}

async function record(id: string) {
  const r = await service.call('GET', `/v1/superagents/${id}`);
  return r.status === 200 ? r.json : { status_code: r.status };
}

/** The command failed with `code` and a message, printed nothing on stdout and sent no request. */
async function expectRefused(args: string[], code: number, message: string, env?: Record<string, string | undefined>) {
  await probe.since();
  const r = await cli(args, env);
  expect(r.stdout).toBe('');
  expect(r.stderr).toContain(message);
  expect(r.exitCode).toBe(code);
  expect((await probe.since()).requests).toBe(0);
  return r;
}

describe('destroy', () => {
  beforeAll(start);
  afterAll(stop);

  it('refuses without --yes when not interactive, sending nothing; the agent stays', async () => {
    const id = await launch('keeper');
    const r = await expectRefused(['destroy', 'keeper'], 2, 'Error: --yes required when not running interactively');
    expect(r.stderr).toBe('Error: --yes required when not running interactively (superagent destroy keeper --yes)\n');
    await expectRefused(['destroy', id, '--no-input'], 2, '--yes required when not running interactively');
    await expectRefused(['destroy', 'keeper'], 2, '--yes required when not running interactively', { CI: 'true' });
    expect((await record(id)).status).toBe('running');
  });

  it('--yes destroys by name: piped stdout is the id, and the agent is gone (get exits 4)', async () => {
    const id = await launch('doomed');
    const r = await cli(['destroy', 'doomed', '--yes']);
    expect(r).toEqual({ exitCode: 0, stdout: `${id}\n`, stderr: '' });
    expect(await record(id)).toEqual({ status_code: 404 });
    const byId = await cli(['get', id]);
    expect(byId.exitCode).toBe(4);
    const byName = await cli(['get', 'doomed']);
    expect(byName.exitCode).toBe(4);
    expect(byName.stderr).toContain("no agent matches 'doomed'");
  });

  it('--yes --json by uuid prints the API answer; a second destroy exits 4', async () => {
    const id = await launch('json-doomed');
    const r = await cli(['destroy', id, '-y', '--json']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ agent_id: id, status: 'destroyed' });
    const again = await cli(['destroy', id, '--yes']);
    expect(again.exitCode).toBe(4);
    expect(again.stdout).toBe('');
  });

  it('an unknown agent exits 4 and destroys nothing', async () => {
    const id = await launch('bystander');
    const r = await cli(['destroy', 'nobody', '--yes']);
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("no agent matches 'nobody'");
    const ghost = await cli(['destroy', '00000000-0000-4000-8000-000000000000', '--yes']);
    expect(ghost.exitCode).toBe(4);
    expect((await record(id)).status).toBe('running');
  });

  it('a missing agent argument is a usage error', async () => {
    await expectRefused(['destroy', '--yes'], 2, "missing required argument 'agent'");
  });
});

describe('update', () => {
  let id: string;

  beforeAll(async () => {
    await start();
    id = await launch('editable', { description: 'first' });
  });
  beforeEach(async () => {
    await probe.since();
  });
  afterAll(stop);

  it('--name renames (trimmed); piped stdout is the id', async () => {
    const r = await cli(['update', 'editable', '--name', '  renamed  ']);
    expect(r).toEqual({ exitCode: 0, stdout: `${id}\n`, stderr: '' });
    expect(await record(id)).toMatchObject({ name: 'renamed', description: 'first' });
  });

  it('--description with --json prints the API answer; an empty one clears it', async () => {
    const r = await cli(['update', id.slice(0, 6), '--description', 'ETH only', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ agent_id: id, status: 'updated' });
    expect((await record(id)).description).toBe('ETH only');
    const cleared = await cli(['update', id, '--description', '']);
    expect(cleared.exitCode).toBe(0);
    expect((await record(id)).description).toBe('');
  });

  it('both at once', async () => {
    const r = await cli(['update', id, '--name', 'both', '--description', 'two fields']);
    expect(r.exitCode).toBe(0);
    expect(await record(id)).toMatchObject({ name: 'both', description: 'two fields' });
  });

  it('refuses bad input before any request', async () => {
    await expectRefused(['update', id], 2, 'nothing to update: give --name, --description or both');
    await expectRefused(['update', id, '--name', ''], 2, '--name: the name must not be empty');
    await expectRefused(['update', id, '--name', ' \t '], 2, '--name: the name must not be empty');
    await expectRefused(['update', id, '--name', 'n'.repeat(101)], 2, '--name: the name must be at most 100 characters (it has 101)');
    await expectRefused(['update', id, '--description', 'é'.repeat(501)], 2, '--description must be at most 500 characters (it has 501)');
    await expectRefused(['update', id, '--name'], 2, "option '--name <name>' argument missing");
    expect(await record(id)).toMatchObject({ name: 'both', description: 'two fields' });
  });

  it('accepts exactly 100 and 500 characters', async () => {
    const r = await cli(['update', id, '--name', 'n'.repeat(100), '--description', 'd'.repeat(500)]);
    expect(r.exitCode).toBe(0);
    expect((await record(id)).name).toBe('n'.repeat(100));
  });

  it('an unknown agent exits 4', async () => {
    const r = await cli(['update', 'nobody', '--name', 'x']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain("no agent matches 'nobody'");
    const ghost = await cli(['update', '00000000-0000-4000-8000-000000000000', '--name', 'x']);
    expect(ghost.exitCode).toBe(4);
  });
});

const CLAUDE = { model: 'claude-sonnet-4-20250514', model_provider: 'anthropic' };

describe('model', () => {
  let id: string;

  beforeAll(async () => {
    await start();
    id = await launch('modeller', CLAUDE);
    modelChanges.length = 0;
  });
  afterAll(stop);

  // the service's record has no model_provider (the hosted SuperAgentSummary): the provider is unknown, shown empty
  it('without MODEL shows model and provider: one tab-separated line piped', async () => {
    const r = await cli(['model', 'modeller']);
    expect(r).toEqual({ exitCode: 0, stdout: 'claude-sonnet-4-20250514\t\n', stderr: '' });
  });

  it('--json shows {agent_id, model} and leaves out the provider the service did not send', async () => {
    const r = await cli(['model', id, '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ agent_id: id, model: 'claude-sonnet-4-20250514' });
  });

  it.each([
    ['gpt-4o', 'openai'],
    ['o1', 'openai'],
    ['grok-4', 'xai'],
    ['anthropic/claude-sonnet-4', 'openrouter'],
    ['claude-opus-4-20250514', 'anthropic'],
  ])('MODEL %s switches with the provider inferred (%s)', async (model, provider) => {
    const r = await cli(['model', 'modeller', model]);
    expect(r).toEqual({ exitCode: 0, stdout: `${id}\n`, stderr: '' });
    expect(modelChanges.splice(0)).toEqual([{ model, model_provider: provider }]);
    expect((await record(id)).model).toBe(model);
  });

  it('--provider is sent as given; --json prints the API answer', async () => {
    const r = await cli(['model', 'modeller', 'llama-3.3-70b', '--provider', 'venice', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ agent_id: id, status: 'updated' });
    expect(modelChanges.splice(0)).toEqual([{ model: 'llama-3.3-70b', model_provider: 'venice' }]);
    expect((await record(id)).model).toBe('llama-3.3-70b');
    const shown = await cli(['model', 'modeller']);
    expect(shown.stdout).toBe('llama-3.3-70b\t\n');
  });

  it('refuses bad input before any request, and the model stays', async () => {
    const r = await expectRefused(['model', 'modeller', 'mixtral-8x7b'], 2, "cannot tell which provider serves model 'mixtral-8x7b'");
    expect(r.stderr).toContain('add --provider, one of: openai, anthropic, xai, openrouter, venice');
    await expectRefused(['model', 'modeller', 'gpt-4o', '--provider', 'mistral'], 2, 'Allowed choices are openai, anthropic, xai, openrouter, venice');
    await expectRefused(['model', 'modeller', '--provider', 'openai'], 2, '--provider needs a MODEL to switch to');
    await expectRefused(['model', 'modeller', '  '], 2, 'the model id must not be empty');
    await expectRefused(['model', 'modeller', 'gpt-' + 'x'.repeat(200)], 2, 'the model id must be at most 200 characters');
    expect(modelChanges).toEqual([]);
    expect((await record(id)).model).toBe('llama-3.3-70b');
  });

  it('an unknown agent exits 4, shown or changed', async () => {
    for (const args of [['model', 'nobody'], ['model', 'nobody', 'gpt-4o'], ['model', '00000000-0000-4000-8000-000000000000']]) {
      const r = await cli(args);
      expect(r.exitCode).toBe(4);
      expect(r.stdout).toBe('');
    }
  });
});

describe('ambiguous references exit 4 naming the candidates, and change nothing', () => {
  const A = 'abcd1111-1111-4111-8111-111111111111';
  const B = 'abcd2222-2222-4222-8222-222222222222';
  let twins: string[];

  beforeAll(async () => {
    await start();
    twins = [await launch('twin', CLAUDE), await launch('Twin', CLAUDE)];
    // two ids sharing a prefix: rewrite the store's file the way another process would (write, rename)
    const [x, y] = [await launch('alpha', CLAUDE), await launch('beta', CLAUDE)];
    const file = path.join(service.dataDir, 'state.json');
    const state = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (const [from, to] of [[x, A], [y, B]] as const) {
      state.superagents[to] = { ...state.superagents[from], agent_id: to };
      delete state.superagents[from];
    }
    fs.writeFileSync(`${file}.edit`, JSON.stringify(state));
    fs.renameSync(`${file}.edit`, file);
    expect((await record(A)).name).toBe('alpha');
  });
  afterAll(stop);

  it('a name used twice (case-insensitively)', async () => {
    for (const args of [['destroy', 'twin', '--yes'], ['update', 'TWIN', '--name', 'x'], ['model', 'twin', 'gpt-4o'], ['model', 'twin']]) {
      const r = await cli(args);
      expect(r.exitCode).toBe(4);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`'${args[1]}' names several agents: `);
      for (const id of twins) expect(r.stderr).toContain(id.slice(0, 8));
    }
    for (const id of twins) expect(await record(id)).toMatchObject({ status: 'running', model: CLAUDE.model });
    expect((await record(twins[0]!)).name).toBe('twin');
  });

  it('an id prefix that matches two agents', async () => {
    for (const args of [['destroy', 'abcd', '--yes'], ['update', 'abcd', '--description', 'x'], ['model', 'ABCD', 'gpt-4o']]) {
      const r = await cli(args);
      expect(r.exitCode).toBe(4);
      // candidates in list order, newest first
      expect(r.stderr).toBe(`Error: '${args[1]}' matches several agents: beta (abcd2222), alpha (abcd1111) (use a longer id prefix)\n`);
    }
    expect(await record(A)).toMatchObject({ status: 'running', description: '', model: CLAUDE.model });
    expect(await record(B)).toMatchObject({ status: 'running', description: '', model: CLAUDE.model });
  });

  it('a longer prefix picks one', async () => {
    const r = await cli(['destroy', 'abcd1', '--yes']);
    expect(r).toEqual({ exitCode: 0, stdout: `${A}\n`, stderr: '' });
    expect((await record(B)).status).toBe('running');
  });
});
