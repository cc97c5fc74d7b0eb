// `superagent destroy` through the commands layer (docs/cli.md, superagent destroy): a script says
// --yes, a person on a terminal types the agent's name. Refused input exits 2 and sends nothing.
import { beforeEach, describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/core/errors.js';
import { cliFor } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent, UNFUNDED, type TestService } from '../helpers/service.js';

const GHOST = '00000000-0000-4000-8000-000000000000';

let service: TestService;
const scratch = perTest();
const cli = cliFor(() => service);

// a service per test: destroying is for good, and no test may lean on another's agents; the agents hold
// nothing (what destroy does with funds: destroy-funds.test.ts)
beforeEach(async () => {
  service = await scratch.service(UNFUNDED);
});

async function launch(name: string): Promise<string> {
  return (await launchAgent(service, { name })).agent_id;
}

async function statusOf(id: string): Promise<string | number> {
  const r = await service.call('GET', `/v1/superagents/${id}`);
  return r.status === 200 ? r.json.status : r.status;
}

const confirmation = (name: string) =>
  `Destroying ${name} cannot be undone; it holds nothing (superagent wallet ${name}). Type its name to confirm:`;

describe('destroy --yes (scripts)', () => {
  it('by name: piped stdout is the id, and the agent is gone (get exits 4, by id and by name)', async () => {
    const id = await launch('doomed');
    const r = await cli('destroy doomed --yes');
    expect(r).toEqual({ code: 0, stdout: `${id}\n`, stderr: '', asked: [] });
    expect(await statusOf(id)).toBe(404);
    const byId = await cli(['get', id]);
    expect([byId.code, byId.stdout]).toEqual([4, '']);
    const byName = await cli('get doomed');
    expect(byName).toMatchObject({
      code: 4,
      stdout: '',
      stderr: "Error: no agent matches 'doomed' (see 'superagent list')\n",
    });
  });

  it('-y --json by uuid prints the API answer; a second destroy exits 4', async () => {
    const id = await launch('json-doomed');
    const r = await cli(['destroy', id, '-y', '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toEqual({ agent_id: id, status: 'destroyed' });
    const again = await cli(['destroy', id, '--yes']);
    expect([again.code, again.stdout]).toEqual([4, '']);
  });

  it('an unknown agent exits 4 and destroys nothing', async () => {
    const id = await launch('bystander');
    const r = await cli('destroy nobody --yes');
    expect(r).toMatchObject({
      code: 4,
      stdout: '',
      stderr: "Error: no agent matches 'nobody' (see 'superagent list')\n",
    });
    const ghost = await cli(['destroy', GHOST, '--yes']);
    expect([ghost.code, ghost.stdout]).toEqual([4, '']);
    expect(await statusOf(id)).toBe('running');
  });

  it('on a terminal --yes asks nothing: stdout stays empty, a success line on stderr', async () => {
    const id = await launch('quick');
    const r = await cli('destroy quick --yes', { tty: true });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '✓ Destroyed quick\n', asked: [] });
    expect(await statusOf(id)).toBe(404);
  });
});

describe('destroy refuses before any request', () => {
  async function expectRefused(argv: string, stderr: string, o: Parameters<typeof cli>[1] = {}) {
    service.cliRequests();
    const r = await cli(argv, o);
    expect(r).toEqual({ code: 2, stdout: '', stderr, asked: [] });
    expect(service.cliRequests()).toEqual([]);
  }

  it('without --yes when nobody can answer: piped, --no-input, CI=true (a terminal too)', async () => {
    const id = await launch('keeper');
    const refusal = 'Error: --yes required when not running interactively (superagent destroy keeper --yes)\n';
    await expectRefused('destroy keeper', refusal);
    await expectRefused(
      `destroy ${id} --no-input`,
      `Error: --yes required when not running interactively (superagent destroy ${id} --yes)\n`,
    );
    await expectRefused('destroy keeper', refusal, { env: { CI: 'true' } });
    await expectRefused('destroy keeper', refusal, { tty: true, env: { CI: 'true' } });
    await expectRefused('destroy keeper --no-input', refusal, { tty: true });
    // a terminal on stdout alone is not someone to ask: the question would go to a pipe
    await expectRefused('destroy keeper', refusal, { tty: { stdout: true, stderr: false, stdin: false } });
    expect(await statusOf(id)).toBe('running');
  });

  it('a missing agent argument is a usage error', async () => {
    await expectRefused('destroy --yes', 'Error: missing <agent> (usage: superagent destroy <agent> [options])\n');
  });

  it('the service sees a request that was sent (so an empty list above means something)', async () => {
    await launch('seen');
    service.cliRequests();
    expect((await cli('destroy seen --yes')).code).toBe(0);
    // the lookup, the wallet's addresses (what it holds is read before it is destroyed), the destroy
    expect(service.cliRequests().map((e) => `${e.method} ${e.path.replace(/[0-9a-f-]{36}/, 'ID')}`)).toEqual([
      'GET /v1/superagents',
      'GET /v1/superagents/ID/wallet',
      'DELETE /v1/superagents/ID',
    ]);
  });
});

describe('destroy on a terminal: type the name to confirm', () => {
  it('the name typed destroys it (the name is asked once, the wallet hint in the question)', async () => {
    const id = await launch('scout');
    const r = await cli('destroy scout', { tty: true, answers: ['scout'] });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '✓ Destroyed scout\n', asked: [confirmation('scout')] });
    expect(await statusOf(id)).toBe(404);
  });

  it('by uuid the question names the agent (looked up first); surrounding blanks are forgiven', async () => {
    const id = await launch('by-id');
    const r = await cli(['destroy', id], { tty: true, answers: ['  by-id \n'] });
    expect(r.asked).toEqual([confirmation('by-id')]);
    expect([r.code, r.stderr]).toEqual([0, '✓ Destroyed by-id\n']);
    expect(await statusOf(id)).toBe(404);
  });

  it('a name with a space is quoted in the wallet hint', async () => {
    const id = await launch('big fish');
    const r = await cli(['destroy', 'big fish'], { tty: true, answers: ['big fish'] });
    expect(r.asked).toEqual([
      'Destroying big fish cannot be undone; it holds nothing ' +
        "(superagent wallet 'big fish'). Type its name to confirm:",
    ]);
    expect(r.code).toBe(0);
    expect(await statusOf(id)).toBe(404);
  });

  it('a name kept with a combining accent is confirmed by the same name typed as one character', async () => {
    const stored = 'de\u0301mo';
    const id = await launch(stored);
    const r = await cli(['destroy', id], { tty: true, answers: ['d\u00e9mo'] });
    expect([r.code, r.stderr]).toEqual([0, `✓ Destroyed ${stored}\n`]);
    expect(await statusOf(id)).toBe(404);
  });

  it('another name (or the wrong case) exits 2 and the agent stays', async () => {
    const id = await launch('keeper');
    for (const typed of ['keep', 'KEEPER', '']) {
      service.cliRequests();
      const r = await cli('destroy keeper', { tty: true, answers: [typed] });
      expect(r).toEqual({
        code: 2,
        stdout: '',
        stderr: 'Error: the name typed does not match; keeper not destroyed\n',
        asked: [confirmation('keeper')],
      });
      // the lookup and the wallet, no DELETE
      expect(service.cliRequests().map((e) => e.method)).toEqual(['GET', 'GET']);
    }
    expect(await statusOf(id)).toBe('running');
  });

  it('Ctrl-C at the question: exit 130, nothing destroyed', async () => {
    const id = await launch('spared');
    service.cliRequests();
    const r = await cli('destroy spared', { tty: true, answers: [new InterruptedError()] });
    expect([r.code, r.stdout]).toEqual([130, '']);
    expect(r.asked).toEqual([confirmation('spared')]);
    expect(service.cliRequests().map((e) => e.method)).toEqual(['GET', 'GET']);
    expect(await statusOf(id)).toBe('running');
  });

  it('an unknown agent exits 4 before asking anything', async () => {
    const r = await cli('destroy nobody', { tty: true });
    expect(r).toEqual({
      code: 4,
      stdout: '',
      stderr: "Error: no agent matches 'nobody' (see 'superagent list')\n",
      asked: [],
    });
  });
});
