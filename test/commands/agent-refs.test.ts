// Ambiguous <agent> references (docs/cli.md: uuid, unique id prefix or unique name): destroy, update and
// model exit 4 naming the candidates, and change nothing; a longer id prefix picks one. A reference that
// is one agent's name and another's id prefix is ambiguous too; a full uuid always means the agent with
// that id.
import { beforeEach, describe, expect, it } from 'vitest';
import { accountId, hashKey } from '../../src/server/auth.js';
import { Store } from '../../src/server/index.js';
import { cliFor } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent, type TestService, UNFUNDED } from '../helpers/service.js';

const CLAUDE = { model: 'claude-sonnet-4-20250514', model_provider: 'anthropic' };
const A = 'abcd1111-1111-4111-8111-111111111111';
const B = 'abcd2222-2222-4222-8222-222222222222';

let service: TestService;
let twins: string[];
const scratch = perTest();
const cli = cliFor(() => service);

async function launch(name: string): Promise<string> {
  return (await launchAgent(service, { name, ...CLAUDE })).agent_id;
}

async function record(id: string) {
  const r = await service.call('GET', `/v1/superagents/${id}`);
  return r.status === 200 ? r.json : { status_code: r.status };
}

// per test: 'twin' and 'Twin', and alpha and beta under ids sharing the prefix abcd
beforeEach(async () => {
  service = await scratch.service(UNFUNDED); // not about money: its agents hold nothing
  twins = [await launch('twin'), await launch('Twin (not yet)')];
  // the ids: rewrite the store's records the way another process would
  const [x, y] = [await launch('alpha'), await launch('beta')];
  const store = new Store(service.dataDir).open();
  const account = accountId(hashKey(service.key));
  // the service refuses a second live 'twin': the second is renamed in its record, as a service that
  // allows twins (or state from before the check) has them
  const second = store.agents.fresh(account, twins[1]!)!;
  store.agents.write(account, twins[1]!, { ...second, record: { ...second.record, name: 'Twin' } });
  for (const [from, to] of [
    [x, A],
    [y, B],
  ] as const) {
    const stored = store.agents.fresh(account, from)!;
    store.agents.write(account, to, { ...stored, record: { ...stored.record, agent_id: to } });
    store.agents.removeNow(account, from);
  }
  expect((await record(A)).name).toBe('alpha');
  service.cliRequests();
});

/** Only the list was read: nothing was changed or destroyed. */
function onlyListed(): void {
  for (const e of service.cliRequests()) expect(`${e.method} ${e.path}`).toBe('GET /v1/superagents');
}

describe('ambiguous references exit 4 naming the candidates', () => {
  it.each([
    [['destroy', 'twin', '--yes']],
    [['update', 'TWIN', '--name', 'x']],
    [['model', 'twin', 'gpt-4o']],
    [['model', 'twin']],
  ])('a name used twice, case-insensitively: %j', async (argv) => {
    const r = await cli(argv);
    expect([r.code, r.stdout]).toEqual([4, '']);
    // the order of the twins is the list's (newest first)
    const [older, newer] = twins.map((id) => id.slice(0, 8));
    const candidates = [`Twin (${newer})`, `twin (${older})`].join(', ');
    expect(r.stderr).toBe(
      `Error: '${argv[1]}' names several agents: ${candidates} (use the id, or a longer id prefix)\n`,
    );
    onlyListed();
    for (const id of twins)
      expect(await record(id)).toMatchObject({ status: 'running', model: CLAUDE.model, description: '' });
    expect((await record(twins[0]!)).name).toBe('twin');
  });

  it('on a terminal too, before any question (destroy asks nothing)', async () => {
    const r = await cli('destroy twin', { tty: true });
    expect(r.asked).toEqual([]);
    expect([r.code, r.stdout]).toEqual([4, '']);
    expect(r.stderr).toMatch(/^Error: 'twin' names several agents: /);
    onlyListed();
  });

  it.each([[['destroy', 'abcd', '--yes']], [['update', 'abcd', '--description', 'x']], [['model', 'ABCD', 'gpt-4o']]])(
    'an id prefix that matches two agents: %j',
    async (argv) => {
      const r = await cli(argv);
      expect([r.code, r.stdout]).toEqual([4, '']);
      // candidates in list order, newest first
      expect(r.stderr).toBe(
        `Error: '${argv[1]}' matches several agents: beta (abcd2222), alpha (abcd1111) (use a longer id prefix)\n`,
      );
      onlyListed();
      expect(await record(A)).toMatchObject({ status: 'running', description: '', model: CLAUDE.model });
      expect(await record(B)).toMatchObject({ status: 'running', description: '', model: CLAUDE.model });
    },
  );

  it('a longer prefix picks one', async () => {
    const r = await cli('destroy abcd1 --yes');
    expect(r).toEqual({ code: 0, stdout: `${A}\n`, stderr: '', asked: [] });
    expect(await record(A)).toEqual({ status_code: 404 });
    expect((await record(B)).status).toBe('running');
  });
});

// The table shows 8 characters of an id: an agent may be named exactly that, by chance or by malice.
describe('a reference that is one agent name and another agent id prefix', () => {
  it.each([['pause'], ['get'], ['destroy', '--yes']])('exit 4 listing both, nothing done: %s', async (...cmd) => {
    const named = await launch('abcd1111');
    service.cliRequests();
    const r = await cli([cmd[0]!, 'ABCD1111', ...cmd.slice(1)]);
    expect([r.code, r.stdout]).toEqual([4, '']);
    // pause reports each agent on a line of its own
    const lead = cmd[0] === 'pause' ? '✗ ABCD1111' : 'Error';
    expect(r.stderr).toBe(
      `${lead}: 'ABCD1111' is the name of abcd1111 (${named}) and an id prefix of alpha (${A}) ` +
        '(give the full id of the one you mean)\n',
    );
    onlyListed();
    for (const id of [named, A]) expect((await record(id)).status).toBe('running');
  });

  it('a name that is a shorter prefix of several ids lists them all', async () => {
    const named = await launch('abcd');
    const r = await cli('pause abcd');
    expect([r.code, r.stdout]).toEqual([4, '']);
    expect(r.stderr).toBe(
      `✗ abcd: 'abcd' is the name of abcd (${named}) and an id prefix of beta (${B}), alpha (${A}) ` +
        '(give the full id of the one you mean)\n',
    );
    onlyListed();
  });

  it('the full uuid always means the agent with that id, even when another is named so', async () => {
    await launch(A);
    const r = await cli(['pause', A]);
    expect(r.code, r.stderr).toBe(0);
    expect((await record(A)).status).toBe('paused');
  });

  it('a name that is its own agent id prefix is not ambiguous', async () => {
    const id = await launch('x');
    await cli(['update', id, '--name', id.slice(0, 8)]);
    const r = await cli(['pause', id.slice(0, 8)]);
    expect(r.code, r.stderr).toBe(0);
    expect((await record(id)).status).toBe('paused');
  });
});
