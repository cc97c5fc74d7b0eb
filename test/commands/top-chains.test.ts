// The chain reads behind `top` (src/cli/top/feed.ts, source-pacer.ts) against a counting loopback stand-in
// of the sources on the fake clock: a budget of requests a minute per source host, the agents read in turn
// (oldest first), never two reads of one agent at once, and a source's 429 said as such.
import { describe, expect, it } from 'vitest';
import { SOURCES_OFF } from '../helpers/context.js';
import { startChainStandIn, type ChainStandIn } from '../helpers/chain-standin.js';
import { launchAgent } from '../helpers/service.js';
import { perTest } from '../helpers/service-support.js';
import { feedOn } from '../helpers/top-feed.js';
import { SOURCE_BUDGET } from '../../src/cli/top/source-pacer.js';

const t = perTest();

/** Hyperliquid and Polymarket on one stand-in (one host, as the embedded service's /sim is); the rest off */
async function sources(): Promise<{ standIn: ChainStandIn; env: Record<string, string> }> {
  const standIn = await startChainStandIn();
  t.closeAfter(standIn);
  const env = {
    ...SOURCES_OFF,
    SUPERAGENT_HYPERLIQUID_URL: standIn.hyperliquid,
    SUPERAGENT_POLYMARKET_URL: standIn.polymarket,
  };
  return { standIn, env };
}

async function fleet(n: number) {
  const svc = await t.service();
  for (let i = 0; i < n; i++) await launchAgent(svc, { name: `agent-${i}` });
  return svc;
}

describe('top chain reads', () => {
  it('ten agents every second for five minutes: at most the budget a minute to the host, each agent read', async () => {
    const svc = await fleet(10);
    const { standIn, env } = await sources();
    const { feed, clock } = await feedOn(svc, { budget: 6000, intervalMs: 1_000, env });
    const at: number[] = [];
    const lastRead = new Map<string, number>();
    for (let i = 0; i < 300; i++) {
      const before = standIn.asked.length;
      const snap = await feed.refresh();
      for (let k = before; k < standIn.asked.length; k++) at.push(clock.now());
      for (const a of snap.agents) {
        if (a.value.readAt !== null) lastRead.set(a.name, a.value.readAt);
        // a figure not read again keeps its value: never zero, never dropped
        if (i > 60) expect(a.value.value).not.toBeNull();
        if (a.value.stale !== null) expect(a.value.stale).toBe('source budget');
      }
      await clock.sleep(1_000);
    }
    const most = Math.max(...at.map((s) => at.filter((x) => x >= s && x < s + 60_000).length));
    expect(most).toBeLessThanOrEqual(SOURCE_BUDGET);
    // spread over the minute, not all at its start (the figures would all be as old for most of it)
    const burst = Math.max(...at.map((s) => at.filter((x) => x >= s && x < s + 10_000).length));
    expect(burst).toBeLessThanOrEqual(SOURCE_BUDGET / 6);
    // every agent refreshed within the last minute: in turn, none starved
    expect(lastRead.size).toBe(10);
    for (const readAt of lastRead.values()) expect(clock.now() - readAt).toBeLessThanOrEqual(60_000);
  });

  it('never two reads of one agent at once: a refresh while one is under way leaves it be', async () => {
    const svc = await fleet(1);
    const standIn = await startChainStandIn({ delayMs: 100 });
    t.closeAfter(standIn);
    const env = { ...SOURCES_OFF, SUPERAGENT_HYPERLIQUID_URL: standIn.hyperliquid };
    const { feed } = await feedOn(svc, { env });
    await feed.refresh();
    const before = standIn.asked.filter((n) => n === 'hyperliquid-portfolio').length;
    await Promise.all([feed.refresh(), feed.refresh()]);
    expect(standIn.asked.filter((n) => n === 'hyperliquid-portfolio').length - before).toBe(1);
  });

  it("a source's 429 is said as a 429 from it, not as the source down; the last value kept", async () => {
    const svc = await fleet(1);
    const { standIn, env } = await sources();
    const { feed, clock } = await feedOn(svc, { env });
    const first = (await feed.refresh()).agents[0]!;
    expect(first.open.value).not.toBeNull();
    standIn.overrides.set('hyperliquid-clearinghouseState', { status: 429 });
    await clock.sleep(5_000);
    const a = (await feed.refresh()).agents[0]!;
    expect(a.open).toEqual({ ...first.open, stale: '429 from hyperliquid' });
  });

  it('every source read failing: the chains said failed with the reason, never read now', async () => {
    const svc = await fleet(1);
    const { standIn, env } = await sources();
    for (const name of ['portfolio', 'clearinghouseState', 'spotClearinghouseState', 'openOrders', 'allMids'])
      standIn.overrides.set(`hyperliquid-${name}`, { status: 429 });
    for (const name of ['positions', 'value']) standIn.overrides.set(`polymarket-${name}`, { status: 429 });
    const { feed } = await feedOn(svc, { env });
    const snap = await feed.refresh();
    expect(snap.chains).toEqual({ readAt: null, failed: expect.stringMatching(/^429 from (hyperliquid|polymarket)$/) });
    expect(snap.totals.read).toEqual({ value: 0, pnl24h: 0, open: 0 });
  });
});
