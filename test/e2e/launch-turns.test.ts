// Two real processes at once (issue 19, item 2): two `launch --name X` make one X, also against a
// service that would make two (the processes take turns through a lock file), and two `apply --yes`
// of one file against the embedded service make each agent once.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startHostedMock } from '../helpers/hosted-mock.js';
import { perTest } from '../helpers/service-support.js';

const t = perTest();
const KEY = 'gb_sk_live_4f8a2b9c1d3e5f7a9b0c';

describe('two processes at once', () => {
  it('two launch --name twin against a service that allows twins: one launch request; the other exits 6 naming the first', async () => {
    const agents: Array<{ agent_id: string; name: string }> = [];
    const mock = await startHostedMock(({ method, path: p, body }) => {
      const records = agents.map((a) => ({ ...a, description: '', status: 'running', model: 'gpt-4o', created_at: '2026-03-15T10:00:00Z' }));
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
    const runs = await Promise.all([runCli(['launch', '--name', 'twin'], opts), runCli(['launch', '--name', 'twin'], opts)]);
    expect(mock.requests.filter((q) => q.method === 'POST')).toHaveLength(1);
    expect(runs.map((r) => r.exitCode).sort()).toEqual([0, 6]);
    const loser = runs.find((r) => r.exitCode === 6)!;
    expect(loser.stderr).toContain(`Error: an agent named 'twin' already exists: ${agents[0]!.agent_id} `);
  });

  it('two apply --yes of one file against the embedded service: three agents, not six', async () => {
    const dataDir = t.scratch('superagent-data-');
    const dir = t.scratch('superagent-fleet-');
    const file = path.join(dir, 'superagents.yaml');
    fs.writeFileSync(file, 'agents:\n  - name: alpha\n  - name: beta\n  - name: gamma\n');
    const opts = { dataDir, env: { XDG_CACHE_HOME: t.scratch('superagent-cache-') }, timeout: 60_000 };
    const runs = await Promise.all([runCli(['apply', '-f', file, '--yes'], opts), runCli(['apply', '-f', file, '--yes'], opts)]);
    expect(runs.map((r) => r.exitCode).sort(), runs.map((r) => r.stderr).join('\n')).toEqual([0, 6]);
    const list = await runCli(['list', '--json'], opts);
    expect(JSON.parse(list.stdout).agents.map((a: { name: string }) => a.name).sort()).toEqual(['alpha', 'beta', 'gamma']);
  });
});
