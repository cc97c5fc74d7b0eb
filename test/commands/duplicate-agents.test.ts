// Two runs at once must not make two agents of one name, and the agent limit is a conflict, not a
// bad key. The embedded service refuses a second live name (409); against
// a service that does not (a hosted stand-in), launch and apply on one machine take turns (and stop
// if another run took their turn), and read the list again after their launches.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchLockDir, launchLockName } from '../../src/cli/commands/shared/launch-lock.js';
import { FakeClock, cliFor, runLine, type RunOptions } from '../helpers/context.js';
import {
  agentNamed,
  lenient,
  startHostedMock,
  type Agent,
  type HostedMock,
  type Route,
} from '../helpers/hosted-mock.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent, type TestService } from '../helpers/service.js';

const t = perTest();
const KEY = 'gb_sk_live_4f8a2b9c1d3e5f7a9b0c';

async function mockOf(route: Route): Promise<HostedMock> {
  const mock = await startHostedMock(route);
  t.closeAfter(mock);
  return mock;
}

/** A command against the stand-in, with a cache dir (where launches take turns) shared by the runs given it. */
const against =
  (mock: HostedMock, cache: string) =>
  (argv: string[], o: RunOptions = {}) =>
    runLine({ url: mock.url, key: KEY }, argv, { ...o, env: { XDG_CACHE_HOME: cache, ...o.env } });

/** Another run takes over the launch turn of the runs against `mock` with `cache` (it judged them gone). */
function takeTurnOver(mock: HostedMock, cache: string): void {
  const file = path.join(launchLockDir({ XDG_CACHE_HOME: cache }), `lock.${launchLockName(mock.url, KEY)}`);
  fs.writeFileSync(file, JSON.stringify({ pid: process.pid, host: 'elsewhere.example', token: 'usurper' }));
}

const launches = (mock: HostedMock) => mock.requests.filter((q) => q.method === 'POST' && q.path === '/v1/superagents');

function fleetFile(yaml: string): string {
  const dir = t.scratch('superagent-fleet-dupes-');
  fs.writeFileSync(path.join(dir, 'superagents.yaml'), yaml);
  return path.join(dir, 'superagents.yaml');
}

describe('the embedded service: a name a live agent has', () => {
  it(
    "launch --allow-duplicate-name skips the CLI's check, " + 'and the service refuses: exit 6 naming the live agent',
    async () => {
      const svc: TestService = await t.service();
      const demo = (await launchAgent(svc, { name: 'demo' })).agent_id;
      svc.cliRequests();
      const r = await cliFor(() => svc)(['launch', '--name', 'Demo', '--allow-duplicate-name']);
      expect(r).toEqual({
        code: 6,
        stdout: '',
        stderr: `Error: an agent named 'demo' already exists: ${demo} (choose another name)\n`,
        asked: [],
      });
      // the limit's look, the launch refused, and the list that found the id the answer did not give
      expect(svc.cliRequests().map((q) => `${q.method} ${q.path}`)).toEqual([
        'GET /v1/superagents',
        'POST /v1/superagents',
        'GET /v1/superagents',
      ]);
      expect((await svc.call('GET', '/v1/superagents')).json.agents).toHaveLength(1);
    },
  );
});

describe('launch: two at once on one machine', () => {
  it(
    'two launch --name twin at once against a service that allows ' +
      'twins: one launch request; the other exits 6 naming the first',
    async () => {
      const mock = await mockOf(lenient([], { listDelayMs: 100 }));
      const cli = against(mock, t.scratch('superagent-cache-'));
      const runs = await Promise.all([cli(['launch', '--name', 'twin']), cli(['launch', '--name', 'twin'])]);
      expect(launches(mock)).toHaveLength(1);
      expect(runs.map((r) => r.code).sort()).toEqual([0, 6]);
      const winner = runs.find((r) => r.code === 0)!;
      const loser = runs.find((r) => r.code === 6)!;
      expect(loser.stderr).toMatch(
        new RegExp(
          `Error: an agent named 'twin' already exists: ${winner.stdout.trim()} ` +
            `\\(choose another name, or pass --allow-duplicate-name\\)\\n$`,
        ),
      );
    },
  );
});

describe('launch: a twin made meanwhile by a run it could not see (another machine)', () => {
  it('the list read again after the launch finds it: exit 7 naming both ids, and what to do', async () => {
    const agents: Agent[] = [];
    let twin: Agent | undefined;
    const mock = await mockOf(lenient(agents, { onLaunch: () => void agents.push((twin = agentNamed('scout'))) }));
    const r = await against(mock, t.scratch('superagent-cache-'))(['launch', '--name', 'scout']);
    const ours = agents.find((a) => a.name === 'scout' && a !== twin)!.agent_id;
    expect([r.code, r.stdout]).toEqual([7, '']);
    expect(r.stderr).toBe(
      `Error: two live agents are named 'scout': ${ours} (just launched) and ${twin!.agent_id} ` +
        `(destroy one: superagent destroy ${ours})\n`,
    );
    // the one request this check costs: the list read again
    expect(mock.requests.map((q) => q.method)).toEqual(['GET', 'POST', 'GET']);
  });

  it('a list that fails after the launch does not hide it: its id, and a warning to check', async () => {
    const agents: Agent[] = [];
    const route = lenient(agents);
    const broken = { status: 500, json: { statusCode: 500, message: 'Internal server error' } };
    const mock = await mockOf((q) => (agents.length > 0 && q.method === 'GET' ? broken : route(q)));
    const cli = against(mock, t.scratch('superagent-cache-'));
    const r = await cli(['launch', '--name', 'scout'], { clock: new FakeClock() });
    expect([r.code, r.stdout]).toEqual([0, `${agents[0]!.agent_id}\n`]);
    expect(r.stderr).toBe(
      "! Launched, but the list read again to rule out another agent named 'scout' failed (Internal server error): " +
        "check with 'superagent list'\n",
    );
  });
});

describe('a launch turn taken over while held (a run held up for long is judged gone)', () => {
  const TAKEN = 'another superagent run took over the launch turn on this service while this one was held up';

  it('launch: exit 6 saying so, nothing launched', async () => {
    const cache = t.scratch('superagent-cache-');
    const mock: HostedMock = await mockOf(lenient([], { onList: () => takeTurnOver(mock, cache) }));
    const r = await against(mock, cache)(['launch', '--name', 'scout']);
    expect(r.code).toBe(6);
    const hint = "check with 'superagent list', then launch again";
    expect(r.stderr).toBe(`Error: ${TAKEN}, so 'scout' was not launched (${hint})\n`);
    expect(launches(mock)).toEqual([]);
  });

  it('apply: the next launch is not sent; exit 6 with what was done', async () => {
    const cache = t.scratch('superagent-cache-');
    const mock: HostedMock = await mockOf(lenient([], { onLaunch: () => takeTurnOver(mock, cache) }));
    const file = fleetFile('agents:\n  - name: alpha\n  - name: beta\n');
    const r = await against(mock, cache)(['apply', '-f', file, '--yes']);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain('Done (1 of 2): launch alpha\nNot done (1): launch beta\n');
    const stopped = 'Error: apply stopped at step 2 of 2 (launch beta)';
    expect(r.stderr).toContain(`${stopped}: ${TAKEN}, so 'beta' was not launched (run apply again`);
    expect(launches(mock)).toHaveLength(1);
  });
});

describe('apply: two at once, and twins made elsewhere', () => {
  const FILE = 'agents:\n  - name: alpha\n  - name: beta\n  - name: gamma\n';

  it(
    'two apply --yes of one file at once: three launches, not ' +
      'six; the second stops (exit 6) and a third run converges',
    async () => {
      const agents: Agent[] = [];
      const mock = await mockOf(lenient(agents, { listDelayMs: 100 }));
      const cli = against(mock, t.scratch('superagent-cache-'));
      const file = fleetFile(FILE);
      const runs = await Promise.all([cli(['apply', '-f', file, '--yes']), cli(['apply', '-f', file, '--yes'])]);
      expect(launches(mock)).toHaveLength(3);
      expect(agents.map((a) => a.name).sort()).toEqual(['alpha', 'beta', 'gamma']);
      expect(runs.map((r) => r.code).sort()).toEqual([0, 6]);
      const second = runs.find((r) => r.code === 6)!;
      const alpha = agents.find((a) => a.name === 'alpha')!.agent_id;
      expect(second.stderr).toContain(
        `Error: apply stopped at step 1 of 3 (launch alpha): an agent named ` +
          `'alpha' already exists: ${alpha} (run apply again, which plans`,
      );
      // the command to run again is this one: its file and --yes
      expect(second.stderr).toContain(`instead of launching it twice: superagent apply -f ${file} --yes)\n`);
      const plan = await cli(['plan', '-f', file, '--detailed-exit-code']);
      expect(plan.code, plan.stderr).toBe(0);
    },
  );

  it('the list read after its launches fails: exit 7, apply stopped after its last step, all done', async () => {
    const agents: Agent[] = [];
    const route = lenient(agents);
    const broken = { status: 500, json: { statusCode: 500, message: 'Internal server error' } };
    const mock = await mockOf((q) => (agents.length > 0 && q.method === 'GET' ? broken : route(q)));
    const file = fleetFile('agents:\n  - name: alpha\n');
    const cli = against(mock, t.scratch('superagent-cache-'));
    const r = await cli(['apply', '-f', file, '--yes'], { clock: new FakeClock() });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('Done (1 of 1): launch alpha\nNot done (0): nothing\n');
    expect(r.stderr).toContain('Error: apply stopped after step 1 of 1: Internal server error (run apply again');
  });

  it.each([[[]], [['--json']]])(
    'a twin of a name it launched, made meanwhile by a run it could ' +
      'not see: exit 7 naming both ids, and what to do (%j)',
    async (flags) => {
      const agents: Agent[] = [];
      let twin: Agent | undefined;
      // another machine launches beta the moment this run does
      const mock = await mockOf(
        lenient(agents, { onLaunch: (a) => a.name === 'beta' && !twin && agents.push((twin = agentNamed('beta'))) }),
      );
      const file = fleetFile(FILE);
      const r = await against(mock, t.scratch('superagent-cache-'))(['apply', '-f', file, '--yes', ...flags]);
      const ours = agents.find((a) => a.name === 'beta' && a !== twin)!.agent_id;
      const message =
        `apply stopped after step 3 of 3: two live agents are ` +
        `named 'beta': ${ours} (launched by this apply) and ${twin!.agent_id}`;
      const hint = `destroy one, then apply again: superagent destroy ${ours}, then superagent apply -f ${file} --yes`;
      expect(r.code).toBe(7);
      expect(r.stderr).toContain(`Error: ${message} (${hint})\n`);
      if (flags.length > 0) {
        const json = JSON.parse(r.stdout);
        expect([json.applied, json.not_applied]).toEqual([['launch alpha', 'launch beta', 'launch gamma'], []]);
        expect(json.failed).toEqual({
          step: null,
          message: expect.stringContaining(`two live agents are named 'beta': ${ours}`),
          exit_code: 7,
        });
      }
    },
  );
});

describe('the 10-agent limit is a conflict (exit 6), not a bad key (exit 3)', () => {
  it("launch's own check: exit 6 naming the limit and how to free a slot, nothing launched", async () => {
    const mock = await mockOf(lenient(Array.from({ length: 10 }, (_, i) => agentNamed(`a${i}`))));
    const r = await against(mock, t.scratch('superagent-cache-'))(['launch', '--name', 'eleventh']);
    expect(r).toEqual({
      code: 6,
      stdout: '',
      stderr:
        'Error: Agent limit reached (10): this account has 10 live agents (free a ' +
        "slot: superagent destroy <agent> ('superagent list' shows them))\n",
      asked: [],
    });
    expect(launches(mock)).toEqual([]);
  });

  it(
    'a --name a live agent has (in full-width letters) is ' + 'told before the limit: freeing a slot would not help',
    async () => {
      const agents = Array.from({ length: 10 }, (_, i) => agentNamed(i === 0 ? 'demo' : `a${i}`));
      const mock = await mockOf(lenient(agents));
      const r = await against(mock, t.scratch('superagent-cache-'))(['launch', '--name', '\uff44\uff45\uff4d\uff4f']);
      expect(r).toMatchObject({ code: 6, stdout: '' });
      expect(r.stderr).toMatch(
        /^Error: an agent named 'demo' already exists: .*\(choose another name, or pass --allow-duplicate-name\)\n$/,
      );
      expect(launches(mock)).toEqual([]);
    },
  );

  describe('apply: the limit reached after the plan was made (another run launched meanwhile)', () => {
    // 9 live agents, none in the file, which adds one: room for it when the plan is made
    const setUp = async (route: (agents: Agent[]) => Route) => {
      const mock = await mockOf(route(Array.from({ length: 9 }, (_, i) => agentNamed(`a${i}`))));
      const file = fleetFile('agents:\n  - name: fresh\n');
      const r = await against(mock, t.scratch('superagent-cache-'))(['apply', '-f', file, '--yes']);
      const hint =
        "free a slot: superagent destroy <agent> ('superagent list' shows them), " +
        "or let 'apply --prune' destroy the 9 agents not in the file, " +
        `then apply again: superagent apply -f ${file} --yes`;
      return { r, hint, mock };
    };

    it('seen on the list read in the launch turn: exit 6, nothing launched, how to free a slot', async () => {
      let lists = 0;
      const late = (agents: Agent[]) => () => ++lists === 2 && void agents.push(agentNamed('late'));
      const { r, hint, mock } = await setUp((agents) => lenient(agents, { onList: late(agents) }));
      expect(r.code).toBe(6);
      expect(r.stderr).toContain('Error: apply stopped at step 1 of 1 (launch fresh): Agent limit reached (10): ');
      expect(r.stderr).toContain(` (${hint})\n`);
      expect(launches(mock)).toEqual([]);
    });

    it('refused by the service (403): exit 6 with the same advice', async () => {
      const refused = { status: 403, json: { statusCode: 403, message: 'Agent limit reached (10)' } };
      const { r, hint } = await setUp((agents) => (q) => (q.method === 'POST' ? refused : lenient(agents)(q)));
      expect(r.code).toBe(6);
      const stopped = 'Error: apply stopped at step 1 of 1 (launch fresh)';
      expect(r.stderr).toContain(`${stopped}: Agent limit reached (10) (${hint})\n`);
    });
  });

  it("the service's 403 Agent limit reached (10): exit 6 with the same hint", async () => {
    const full: Route = ({ method, path: p }) => {
      if (method === 'GET' && p === '/v1/superagents') return { json: { agents: [] } }; // a list that lags behind
      if (method === 'POST' && p === '/v1/superagents')
        return { status: 403, json: { statusCode: 403, message: 'Agent limit reached (10)' } };
      return undefined;
    };
    const mock = await mockOf(full);
    const r = await against(mock, t.scratch('superagent-cache-'))(['launch', '--name', 'eleventh']);
    expect(r).toEqual({
      code: 6,
      stdout: '',
      stderr:
        "Error: Agent limit reached (10) (free a slot: superagent destroy <agent> ('superagent list' shows them))\n",
      asked: [],
    });
  });
});
