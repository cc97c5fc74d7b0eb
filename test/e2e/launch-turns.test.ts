// Two real processes at once: two `launch --name X` make one X, also against a
// service that would make two (the processes take turns through a lock file), and two `apply --yes`
// of one file against the embedded service make each agent once. And the real SIGINT and SIGTERM
// while a launch is on its way: handled by our code (the commands layer shows the rest with
// FakeSignals), the lock file removed before the process ends.
import { execa } from 'execa';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchLockDir } from '../../src/cli/commands/shared/launch-lock.js';
import { BIN, cleanEnv, runCli } from '../helpers/cli.js';
import { lenient, startHostedMock, type Agent } from '../helpers/hosted-mock.js';
import { perTest } from '../helpers/service-support.js';

const t = perTest();
const KEY = 'gb_sk_live_4f8a2b9c1d3e5f7a9b0c';

describe('two processes at once', () => {
  it(
    'two launch --name twin against a service that allows twins: ' +
      'one launch request; the other exits 6 naming the first',
    async () => {
      const agents: Array<{ agent_id: string; name: string }> = [];
      const mock = await startHostedMock(({ method, path: p, body }) => {
        const records = agents.map((a) => ({
          ...a,
          description: '',
          status: 'running',
          model: 'gpt-4o',
          created_at: '2026-03-15T10:00:00Z',
        }));
        // both processes read the list before either could launch, were they not taking turns
        if (method === 'GET' && p === '/v1/superagents') return { json: { agents: records }, delayMs: 300 };
        if (method === 'POST' && p === '/v1/superagents') {
          const agent = { agent_id: `c3d4e5f6-7890-12ab-cdef-34567890120${agents.length}`, name: body.name };
          agents.push(agent);
          return { json: { ...agent, bot_username: null, wallet_address: '0x1234...abcd', status: 'running' } };
        }
        return undefined;
      });
      t.closeAfter(mock);
      const opts = { target: { url: mock.url, key: KEY }, env: { XDG_CACHE_HOME: t.scratch('superagent-cache-') } };
      const runs = await Promise.all([
        runCli(['launch', '--name', 'twin'], opts),
        runCli(['launch', '--name', 'twin'], opts),
      ]);
      expect(mock.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
      expect(runs.map((r) => r.exitCode).sort()).toEqual([0, 6]);
      const loser = runs.find((r) => r.exitCode === 6)!;
      expect(loser.stderr).toContain(`Error: an agent named 'twin' already exists: ${agents[0]!.agent_id} `);
    },
  );

  it('two apply --yes of one file against the embedded service: three agents, not six', async () => {
    const dataDir = t.scratch('superagent-data-');
    const dir = t.scratch('superagent-fleet-');
    const file = path.join(dir, 'superagents.yaml');
    fs.writeFileSync(file, 'agents:\n  - name: alpha\n  - name: beta\n  - name: gamma\n');
    const opts = { dataDir, env: { XDG_CACHE_HOME: t.scratch('superagent-cache-') }, timeout: 60_000 };
    const runs = await Promise.all([
      runCli(['apply', '-f', file, '--yes'], opts),
      runCli(['apply', '-f', file, '--yes'], opts),
    ]);
    // the second, after its turn, finds the fleet applied (nothing to do, 0) or meets a name taken (6)
    const codes = runs.map((r) => r.exitCode).sort();
    expect(
      [
        [0, 0],
        [0, 6],
      ],
      runs.map((r) => r.stderr).join('\n'),
    ).toContainEqual(codes);
    const list = await runCli(['list', '--json'], opts);
    expect(
      JSON.parse(list.stdout)
        .agents.map((a: { name: string }) => a.name)
        .sort(),
    ).toEqual(['alpha', 'beta', 'gamma']);
  });
});

describe('SIGINT or SIGTERM while a launch is on its way', () => {
  const SIGNALS = [
    ['SIGINT', 130, 'Interrupted'],
    ['SIGTERM', 143, 'Terminated'],
  ] as const;

  /** `argv` against a service whose launch of `held` is not answered until the process has had `signal` */
  async function signalledAt(held: string, signal: NodeJS.Signals, argv: string[]) {
    let arrived!: () => void;
    const launching = new Promise<void>((resolve) => (arrived = resolve));
    const late = (a: Agent) => a.name === held;
    // answered long after the signal: the process does not wait for it
    const onLaunch = (a: Agent) => late(a) && arrived();
    const mock = await startHostedMock(lenient([], { onLaunch, launchDelayMs: (a) => (late(a) ? 20_000 : undefined) }));
    t.closeAfter(mock);
    const cache = t.scratch('superagent-cache-');
    const env = cleanEnv({ target: { url: mock.url, key: KEY }, env: { XDG_CACHE_HOME: cache } });
    const options = { env, extendEnv: false, reject: false, timeout: 15_000, stripFinalNewline: false };
    const child = execa(process.execPath, [BIN, ...argv], options);
    await launching;
    child.kill(signal);
    const r = await child;
    return { r, stderr: String(r.stderr), lockFiles: fs.readdirSync(launchLockDir({ XDG_CACHE_HOME: cache })) };
  }

  it.each(SIGNALS)(
    'launch, %s: exit %i from our code, saying it may have launched; the lock file gone',
    async (signal, code, word) => {
      const { r, stderr, lockFiles } = await signalledAt('scout', signal, ['launch', '--name', 'scout']);
      expect([r.isTerminated, r.exitCode]).toEqual([false, code]);
      const maybe =
        "the launch of 'scout' may have reached the service (check with 'superagent list' before launching again)";
      expect(stderr).toBe(`${word}: ${maybe}\n`);
      expect(lockFiles).toEqual([]);
    },
  );

  it.each(SIGNALS)(
    'apply, %s at its second launch: exit %i, what was done, the lock file gone',
    async (signal, code, word) => {
      const file = path.join(t.scratch('superagent-fleet-'), 'superagents.yaml');
      fs.writeFileSync(file, 'agents:\n  - name: alpha\n  - name: beta\n');
      const { r, stderr, lockFiles } = await signalledAt('beta', signal, ['apply', '-f', file, '--yes']);
      expect([r.isTerminated, r.exitCode]).toEqual([false, code]);
      expect(stderr).toContain('Done (1 of 2): launch alpha\nNot done (1): launch beta\n');
      const stopped = 'apply stopped at step 2 of 2 (launch beta)';
      expect(stderr).toContain(`${word}: ${stopped}, whose request may have reached the service (`);
      expect(lockFiles).toEqual([]);
    },
  );
});
