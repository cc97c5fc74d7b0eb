// The fleet feed behind `top` (src/cli/top/feed.ts) against the embedded service: every agent's figures
// with their read times, a source down or a 429 shown as stale with the last value kept, and the service
// budget never exceeded over ten simulated minutes.
import { describe, expect, it } from 'vitest';
import { SOURCES_OFF } from '../helpers/context.js';
import { closedPortUrl } from '../helpers/sim.js';
import { launchAgent } from '../helpers/service.js';
import { perTest } from '../helpers/service-support.js';
import { feedOn } from '../helpers/top-feed.js';
import { FakeClock } from '../helpers/context.js';

const t = perTest();
/** the EVM chains and Solana off: the feed's figures come from Hyperliquid and Polymarket, sooner */
const MARKETS_ONLY = { ...SOURCES_OFF, SUPERAGENT_HYPERLIQUID_URL: '', SUPERAGENT_POLYMARKET_URL: '' };

describe('top feed', () => {
  it('one refresh: every agent with status, health, value, 24-hour PnL and open positions, read now', async () => {
    const svc = await t.service();
    for (const name of ['alpha', 'beta', 'gamma']) await launchAgent(svc, { name });
    const { feed, clock } = await feedOn(svc);
    const snap = await feed.refresh({ complete: true });
    expect(snap.agents.map((a) => a.name).sort()).toEqual(['alpha', 'beta', 'gamma']);
    for (const a of snap.agents) {
      expect(a.status).toBe('running');
      expect(a.healthy).toEqual({ value: true, readAt: clock.now(), stale: null });
      expect(a.value.stale).toBeNull();
      expect(a.value.value).toBeGreaterThan(0);
      expect(a.pnl24h).toMatchObject({ readAt: clock.now(), stale: null });
      expect(a.open).toEqual({ value: 0, readAt: clock.now(), stale: null });
      expect(a.partial).toEqual([]);
    }
    expect(snap.list).toEqual({ readAt: clock.now(), stale: null });
    // a refresh sooner than the list's pace leaves it as read, not stale
    await clock.sleep(1_000);
    expect((await feed.refresh()).list).toEqual({ readAt: clock.now() - 1_000, stale: null });
    const sum = snap.agents.reduce((s, a) => s + a.value.value!, 0);
    expect(snap.totals).toMatchObject({ agents: 3, running: 3, open: 0, complete: true });
    expect(snap.totals.value).toBeCloseTo(sum, 2);
  });

  it('what the service said is told before the chains are read', async () => {
    const svc = await t.service();
    await launchAgent(svc, { name: 'solo' });
    const { feed, clock } = await feedOn(svc, { env: MARKETS_ONLY });
    const told: Array<[string, number | null]> = [];
    const snap = await feed.refresh({
      onService: (s) => told.push(...s.agents.map((a) => [a.name, a.value.value] as [string, number | null])),
    });
    expect(told).toEqual([['solo', null]]);
    expect(snap.agents[0]!.value).toMatchObject({ readAt: clock.now(), stale: null });
  });

  it('Polymarket down: open positions stale with the reason, never zero; the value kept, partial', async () => {
    const svc = await t.service();
    await launchAgent(svc, { name: 'solo' });
    const env = { ...MARKETS_ONLY, SUPERAGENT_POLYMARKET_URL: await closedPortUrl() };
    const { feed } = await feedOn(svc, { env });
    const [a] = (await feed.refresh()).agents;
    expect(a!.open).toEqual({ value: null, readAt: null, stale: 'polymarket down' });
    expect(a!.value.value).toBeGreaterThan(0);
    expect(a!.partial).toEqual(['polymarket']);
    expect((await feed.refresh()).totals.complete).toBe(false);
  });

  it('a 429 from the service: the list and health keep their last values, marked 429', async () => {
    const clock = new FakeClock();
    const svc = await t.service({ rateLimit: 4, rateClock: () => clock.now() });
    await launchAgent(svc, { name: 'solo' });
    // the launch, then the list, the addresses and one health check: the service's four of this minute
    const { feed } = await feedOn(svc, { budget: 60, env: SOURCES_OFF, clock });
    const first = await feed.refresh();
    expect(first.agents[0]!.healthy.value).toBe(true);
    await clock.sleep(5_000);
    const snap = await feed.refresh();
    expect(snap.list).toEqual({ readAt: first.list.readAt, stale: '429' });
    expect(snap.agents.map((a) => [a.name, a.status])).toEqual([['solo', 'running']]);
    expect(snap.agents[0]!.healthy).toEqual({ ...first.agents[0]!.healthy, stale: '429' });
  });

  it('the service gone: the list says so until a read succeeds, not "rate budget" once failures fill it', async () => {
    const svc = await t.service();
    await launchAgent(svc, { name: 'solo' });
    const { feed, clock } = await feedOn(svc, { budget: 6, env: SOURCES_OFF });
    await feed.refresh();
    await svc.close();
    const reasons = new Set<string | null>();
    for (let i = 0; i < 24; i++) {
      await clock.sleep(5_000);
      const { list } = await feed.refresh();
      if (list.stale !== null || reasons.size > 0) reasons.add(list.stale);
    }
    expect([...reasons]).toEqual(['service down']);
  });

  it.each([5_000, 1_000])(
    'on schedule is not stale: with the default budget, every %i ms, the list is never "rate budget"',
    async (intervalMs) => {
      const svc = await t.service();
      for (let i = 0; i < 4; i++) await launchAgent(svc, { name: `agent-${i}` });
      const { feed, clock } = await feedOn(svc, { env: SOURCES_OFF, intervalMs });
      for (let i = 0; i < 300_000 / intervalMs; i++) {
        const { list } = await feed.refresh();
        expect(list.stale).toBeNull();
        await clock.sleep(intervalMs);
      }
    },
  );

  it('ten agents for ten simulated minutes: at most the budget in any 60 s window, every agent checked', async () => {
    const clock = new FakeClock();
    const times: number[] = [];
    // the service limits to the same figure on the same clock: a request over it would be a 429
    const svc = await t.service({
      rateLimit: 30,
      rateClock: () => clock.now(),
      onExchange: (e) => void (e.path.startsWith('/v1/') && times.push(clock.now())),
    });
    for (let i = 0; i < 10; i++) await launchAgent(svc, { name: `agent-${i}` });
    // the launches' minute over: the service counts the feed's requests alone
    await clock.sleep(60_000);
    times.length = 0;
    const { feed, budget } = await feedOn(svc, { budget: 30, env: SOURCES_OFF, clock });
    // the view never waits on its budget: it leaves out what does not fit
    const waits: number[] = [];
    budget.onWait = (ms) => waits.push(ms);
    const checked = new Set<string>();
    let listed = 0;
    for (let i = 0; i < 120; i++) {
      const snap = await feed.refresh();
      if (snap.list.readAt === clock.now()) listed++;
      for (const a of snap.agents) if (a.healthy.readAt !== null) checked.add(a.name);
      expect(snap.agents.filter((a) => a.healthy.stale !== null || a.value.stale === '429')).toEqual([]);
      await clock.sleep(5_000);
    }
    const most = Math.max(...times.map((s) => times.filter((x) => x >= s && x < s + 60_000).length));
    expect(most).toBeLessThanOrEqual(30);
    expect(waits).toEqual([]);
    expect(checked.size).toBe(10);
    // the list at most every refresh, and most of them
    expect(listed).toBeGreaterThan(100);
    expect(svc.exchanges.filter((e) => e.status === 429)).toEqual([]);
  });
});
