// `superagent update <agent> --name/--description` through the commands layer (docs/cli.md; docs/api.md,
// Records and field rules). Refused input exits 2 and sends nothing.
import { beforeEach, describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent, type TestService } from '../helpers/service.js';

const GHOST = '00000000-0000-4000-8000-000000000000';

let service: TestService;
let id: string;
const scratch = perTest();
const cli = cliFor(() => service);

// a service and an agent per test: each test starts from name 'editable', description 'first'
beforeEach(async () => {
  service = await scratch.service();
  id = (await launchAgent(service, { name: 'editable', description: 'first' })).agent_id;
});

async function record() {
  const r = await service.call('GET', `/v1/superagents/${id}`);
  expect(r.status).toBe(200);
  return r.json;
}

/** The profile changes the CLI sent. */
function sentChanges(): unknown[] {
  return service
    .cliRequests()
    .filter((e) => e.method === 'PUT')
    .map((e) => e.body);
}

describe('update', () => {
  it('--name renames (trimmed); piped stdout is the id', async () => {
    const r = await cli(['update', 'editable', '--name', '  renamed  ']);
    expect(r).toEqual({ code: 0, stdout: `${id}\n`, stderr: '', asked: [] });
    expect(sentChanges()).toEqual([{ name: 'renamed' }]);
    expect(await record()).toMatchObject({ name: 'renamed', description: 'first' });
  });

  it('--description by id prefix with --json prints the API answer; an empty one clears it', async () => {
    const r = await cli(['update', id.slice(0, 6), '--description', 'ETH only', '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toEqual({ agent_id: id, status: 'updated' });
    expect((await record()).description).toBe('ETH only');
    const cleared = await cli(['update', id, '--description', '']);
    expect(cleared).toEqual({ code: 0, stdout: `${id}\n`, stderr: '', asked: [] });
    expect((await record()).description).toBe('');
  });

  it('both at once, in one request', async () => {
    service.cliRequests();
    const r = await cli(['update', id, '--name', 'both', '--description', 'two fields']);
    expect(r.code).toBe(0);
    expect(sentChanges()).toEqual([{ name: 'both', description: 'two fields' }]);
    expect(await record()).toMatchObject({ name: 'both', description: 'two fields' });
  });

  it('accepts exactly 100 and 500 characters', async () => {
    const r = await cli(['update', id, '--name', 'n'.repeat(100), '--description', 'd'.repeat(500)]);
    expect(r.code).toBe(0);
    expect(await record()).toMatchObject({ name: 'n'.repeat(100), description: 'd'.repeat(500) });
  });

  it('an unknown agent exits 4', async () => {
    const r = await cli(['update', 'nobody', '--name', 'x']);
    expect(r).toMatchObject({
      code: 4,
      stdout: '',
      stderr: "Error: no agent matches 'nobody' (see 'superagent list')\n",
    });
    const ghost = await cli(['update', GHOST, '--name', 'x']);
    expect([ghost.code, ghost.stdout]).toEqual([4, '']);
    expect((await record()).name).toBe('editable');
  });
});

describe('update on a terminal', () => {
  it('stdout stays empty; stderr says what changed, the new name included', async () => {
    const renamed = await cli(['update', 'editable', '--name', 'scout-v2'], { tty: true });
    expect(renamed).toEqual({ code: 0, stdout: '', stderr: '✓ Updated editable (now named scout-v2)\n', asked: [] });
    const described = await cli(['update', 'scout-v2', '--description', 'calm'], { tty: true });
    expect(described).toEqual({ code: 0, stdout: '', stderr: '✓ Updated scout-v2\n', asked: [] });
    expect(await record()).toMatchObject({ name: 'scout-v2', description: 'calm' });
  });

  it('by uuid the agent is named by its short id; --quiet says nothing', async () => {
    const r = await cli(['update', id, '--description', 'x'], { tty: true });
    expect(r.stderr).toBe(`✓ Updated ${id.slice(0, 8)}\n`);
    const quiet = await cli(['update', id, '--description', 'y', '--quiet'], { tty: true });
    expect(quiet).toEqual({ code: 0, stdout: '', stderr: '', asked: [] });
    expect((await record()).description).toBe('y');
  });
});

describe('update refuses bad input before any request', () => {
  const cases: Array<[string, string[], string]> = [
    ['no flag', [], 'nothing to update: give --name, --description or both'],
    ['an empty name', ['--name', ''], '--name: the name must not be empty'],
    ['a blank name', ['--name', ' \t '], '--name: the name must not be empty'],
    [
      'a name of 101 characters',
      ['--name', 'n'.repeat(101)],
      '--name: the name must be at most 100 characters (it has 101)',
    ],
    [
      'a description of 501 characters',
      ['--description', 'é'.repeat(501)],
      '--description must be at most 500 characters (it has 501)',
    ],
    ['--name without a value', ['--name'], '--name needs a value (e.g. --name <name>)'],
    ['an unknown option', ['--nmae', 'x'], "unknown option '--nmae' (did you mean '--name'?)"],
  ];

  it.each(cases)('%s', async (_, args, message) => {
    service.cliRequests();
    const r = await cli(['update', id, ...args]);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `Error: ${message}\n`, asked: [] });
    expect(service.cliRequests()).toEqual([]);
    expect(await record()).toMatchObject({ name: 'editable', description: 'first' });
  });

  it('a missing agent argument', async () => {
    const r = await cli(['update']);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: missing <agent> (usage: superagent update <agent> [options])\n',
      asked: [],
    });
    expect(service.cliRequests()).toEqual([]);
  });
});
