// `superagent top` piped, with --once and with --json, against the embedded service: one snapshot of
// every agent, stale figures null (or `none`) with their reason, exit 0 all the same.
import { describe, expect, it } from 'vitest';
import { cliFor, FakeClock, runLine } from '../helpers/context.js';
import { closedPortUrl } from '../helpers/sim.js';
import { launchAgent } from '../helpers/service.js';
import { perTest } from '../helpers/service-support.js';

const t = perTest();

async function fleet(names = ['alpha', 'beta']) {
  const svc = await t.service();
  for (const name of names) await launchAgent(svc, { name });
  return cliFor(() => svc);
}

describe('top --once', () => {
  it('--json: every agent with the documented fields, figures read', async () => {
    const cli = await fleet();
    const r = await cli('top --once --json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const { agents } = JSON.parse(r.stdout);
    expect(agents.map((a: any) => a.name).sort()).toEqual(['alpha', 'beta']);
    for (const a of agents) {
      expect(Object.keys(a)).toEqual([
        'agent_id',
        'name',
        'status',
        'healthy',
        'value_usd',
        'pnl_24h_usd',
        'open_positions',
      ]);
      expect(a).toMatchObject({ status: 'running', healthy: true, open_positions: 0 });
      expect(a.value_usd).toBeGreaterThan(0);
      expect(typeof a.pnl_24h_usd).toBe('number');
    }
  });

  it('piped: header-less rows of seven fields; a source down: none, its reason on stderr, exit 0', async () => {
    const cli = await fleet(['solo']);
    const r = await cli('top', { env: { SUPERAGENT_POLYMARKET_URL: await closedPortUrl() } });
    expect(r.code).toBe(0);
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toEqual([
      expect.stringMatching(/^[0-9a-f-]{36}$/),
      'solo',
      'running',
      'healthy',
      expect.stringMatching(/^\d+\.\d\d$/),
      expect.stringMatching(/^-?\d+\.\d\d$/),
      'none',
    ]);
    expect(r.stderr).toBe('solo: value_usd partial: polymarket not read; open_positions polymarket down\n');
    const json = JSON.parse(
      (await cli('top --json', { env: { SUPERAGENT_POLYMARKET_URL: await closedPortUrl() } })).stdout,
    );
    expect(json.agents[0]).toMatchObject({
      open_positions: null,
      stale: { open_positions: 'polymarket down', value_usd: 'partial: polymarket not read' },
    });
  });

  it('--once on a terminal: the view printed once, at the terminal width', async () => {
    const cli = await fleet();
    const r = await cli('top --once', { tty: { stdout: true, columns: 60 } });
    expect(r.code).toBe(0);
    // the title is the first left out: 60 columns keep the figures
    expect(r.stdout).toMatch(/^2 agents, 2 running {3}value \$[\d,]+\.\d\d/);
    expect(r.stdout).toMatch(/^ {2}NAME +STATUS/m);
    expect(r.stdout.split('\n').every((l) => l.length <= 60)).toBe(true);
  });

  it('a fleet beyond the budget: every agent read all the same, the wait said on stderr', async () => {
    const clock = new FakeClock();
    const cli = await fleet(['a1', 'a2', 'a3', 'a4']);
    const r = await cli('top --once --json --budget 3', { clock });
    expect(r.code).toBe(0);
    const { agents } = JSON.parse(r.stdout);
    expect(agents.map((a: any) => [a.name, a.healthy, a.stale]).sort()).toEqual(
      ['a1', 'a2', 'a3', 'a4'].map((name) => [name, true, undefined]),
    );
    expect(r.stderr).toMatch(/^! Waiting \d+ s for the request budget \(--budget 3\) so that every agent is read/);
  });

  it("the service's 429: waited out as other commands do, with their notice; the snapshot whole", async () => {
    const clock = new FakeClock();
    const svc = await t.service({ rateLimit: 3, rateClock: () => clock.now() });
    await launchAgent(svc, { name: 'solo' });
    const r = await cliFor(() => svc)('top', { clock });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^[0-9a-f-]{36}\tsolo\trunning\thealthy\t/);
    expect(r.stderr).toMatch(/rate limit/i);
  });

  it('no fleet at all (the service unreachable): the failure of the list, exit 7', async () => {
    const r = await runLine({ url: await closedPortUrl(), key: 'sk-test-top' }, 'top --once --json');
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Error: /);
  });

  it('a bad --interval or --budget: a usage error before any request', async () => {
    const cli = await fleet([]);
    expect((await cli('top --once --budget 0')).stderr).toMatch(/--budget must be a whole number from 1 to 6000/);
    expect((await cli('top --once --interval soon')).code).toBe(2);
  });
});
