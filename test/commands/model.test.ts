// `superagent model <agent> [MODEL] [--provider P]` through the commands layer (docs/cli.md,
// superagent model): show the model, or switch it with the provider sent too. Refused input exits 2 and
// sends nothing.
import { beforeEach, describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/core/errors.js';
import { cliFor } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent, type TestService } from '../helpers/service.js';

const GHOST = '00000000-0000-4000-8000-000000000000';
const CLAUDE = { model: 'claude-sonnet-4-20250514', model_provider: 'anthropic' };

let service: TestService;
let id: string;
const scratch = perTest();
const cli = cliFor(() => service);

// a service and an agent on Claude per test
beforeEach(async () => {
  service = await scratch.service();
  id = (await launchAgent(service, { name: 'modeller', ...CLAUDE })).agent_id;
});

async function modelOf(): Promise<string> {
  return (await service.call('GET', `/v1/superagents/${id}`)).json.model;
}

/** The model changes the CLI sent (the record does not show the provider), taken out. */
function modelChanges(): unknown[] {
  return service
    .cliRequests()
    .filter((e) => e.method === 'PUT' && e.path.endsWith('/model'))
    .map((e) => e.body);
}

// the service's record has no model_provider (the hosted SuperAgentSummary): the provider is unknown
describe('model <agent> shows', () => {
  it('piped: one line, model<TAB>provider, the provider left empty', async () => {
    const r = await cli('model modeller');
    expect(r).toEqual({ code: 0, stdout: 'claude-sonnet-4-20250514\n', stderr: '', asked: [] });
  });

  it('--json: {agent_id, model}, without the provider the service did not send', async () => {
    const r = await cli(['model', id, '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toEqual({ agent_id: id, model: 'claude-sonnet-4-20250514' });
  });

  it('on a terminal: aligned fields, the unknown provider shown as –', async () => {
    const r = await cli('model modeller', { tty: true });
    expect(r).toEqual({
      code: 0,
      stdout: 'Model:     claude-sonnet-4-20250514\nProvider:  –\n',
      stderr: '',
      asked: [],
    });
  });
});

describe('model <agent> MODEL switches', () => {
  it.each([
    ['gpt-4o', 'openai'],
    ['o1', 'openai'],
    ['grok-4', 'xai'],
    ['anthropic/claude-sonnet-4', 'openrouter'],
    ['claude-opus-4-20250514', 'anthropic'],
  ])(
    '%s, with the provider inferred (%s); piped stdout is the model set, as `model AGENT` then prints it',
    async (model, provider) => {
      const r = await cli(['model', 'modeller', model]);
      expect(r).toEqual({ code: 0, stdout: `${model}\n`, stderr: '', asked: [] });
      expect(modelChanges()).toEqual([{ model, model_provider: provider }]);
      expect(await modelOf()).toBe(model);
      expect((await cli(['model', 'modeller'])).stdout).toBe(r.stdout);
    },
  );

  it('--provider is sent as given; --json prints the API answer; the new model is shown after', async () => {
    const r = await cli('model modeller llama-3.3-70b --provider venice --json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toEqual({ agent_id: id, status: 'updated' });
    expect(modelChanges()).toEqual([{ model: 'llama-3.3-70b', model_provider: 'venice' }]);
    expect(await modelOf()).toBe('llama-3.3-70b');
    expect((await cli('model modeller')).stdout).toBe('llama-3.3-70b\n');
  });

  it('on a terminal: stdout stays empty, stderr names the model and provider', async () => {
    const r = await cli('model modeller gpt-4o', { tty: true });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '✓ modeller now uses gpt-4o (openai)\n', asked: [] });
    expect(await modelOf()).toBe('gpt-4o');
  });

  it('on a terminal a model whose provider cannot be told asks for it', async () => {
    const r = await cli('model modeller mixtral-8x7b', { tty: true, answers: ['venice'] });
    expect(r).toEqual({
      code: 0,
      stdout: '',
      stderr: '✓ modeller now uses mixtral-8x7b (venice)\n',
      asked: ['Provider of mixtral-8x7b'],
    });
    expect(modelChanges()).toEqual([{ model: 'mixtral-8x7b', model_provider: 'venice' }]);
  });

  it('Ctrl-C at the provider question: exit 130, nothing sent', async () => {
    service.cliRequests();
    const r = await cli('model modeller mixtral-8x7b', { tty: true, answers: [new InterruptedError()] });
    expect([r.code, r.stdout, r.asked]).toEqual([130, '', ['Provider of mixtral-8x7b']]);
    expect(service.cliRequests()).toEqual([]);
    expect(await modelOf()).toBe(CLAUDE.model);
  });
});

describe('model refuses bad input before any request, and the model stays', () => {
  const cases: Array<[string, string[], string]> = [
    [
      'a model whose provider cannot be told (piped)',
      ['mixtral-8x7b'],
      "cannot tell which provider serves model 'mixtral-8x7b' (add --provider, " +
        'one of: openai, anthropic, xai, openrouter, venice)',
    ],
    [
      'an unknown provider',
      ['gpt-4o', '--provider', 'mistral'],
      "--provider must be one of: openai, anthropic, xai, openrouter, venice; not 'mistral'",
    ],
    [
      '--provider without a MODEL',
      ['--provider', 'openai'],
      '--provider needs a MODEL to switch to (e.g. superagent model modeller gpt-4o --provider openai)',
    ],
    ['a blank model id', ['  '], 'the model id must not be empty'],
    ['a model id of 204 characters', ['gpt-' + 'x'.repeat(200)], 'the model id must be at most 200 characters'],
    [
      'too many arguments',
      ['gpt-4o', 'extra'],
      "too many arguments: 'extra' (usage: superagent model <agent> [model] [options])",
    ],
  ];

  it.each(cases)('%s', async (_, args, message) => {
    service.cliRequests();
    const r = await cli(['model', 'modeller', ...args]);
    expect(r).toEqual({ code: 2, stdout: '', stderr: `Error: ${message}\n`, asked: [] });
    expect(service.cliRequests()).toEqual([]);
    expect(await modelOf()).toBe(CLAUDE.model);
  });
});

describe('model: an unknown agent exits 4, shown or changed', () => {
  it.each([
    ['model nobody', "Error: no agent matches 'nobody' (see 'superagent list')\n"],
    ['model nobody gpt-4o', "Error: no agent matches 'nobody' (see 'superagent list')\n"],
    // a uuid costs no lookup: the service's 404 says it
    [`model ${GHOST}`, 'Error: Agent not found\n'],
    [`model ${GHOST} gpt-4o`, 'Error: Agent not found\n'],
  ])('%s', async (line, stderr) => {
    const r = await cli(line);
    expect(r).toEqual({ code: 4, stdout: '', stderr, asked: [] });
    expect(await modelOf()).toBe(CLAUDE.model);
  });
});
