// For guard's tests: agents on the in-process embedded service, their Hyperliquid accounts on a loopback
// stand-in whose account value and history the test sets per agent, a data dir of the test's own, and a
// clock the test moves (its sleeps may call back, to change the world between two checks).
import { SOURCES } from '../../src/api/money/types.js';
import type { Clock } from '../../src/cli/context.js';
import type { ServerOptions } from '../../src/server/index.js';
import { InterruptedError } from '../../src/core/errors.js';
import { endpointVariable } from '../../src/cli/commands/shared/money.js';
import { startChainStandIn, fixture } from './chain-standin.js';
import { cliFor, FakeClock } from './context.js';
import { launchAgent, type TestService } from './service.js';
import { agentPath } from './superagent-fixtures.js';
import { fakeClock } from './sim.js';
import type { perTest } from './service-support.js';

export const DAY = 86_400_000;
export const NOW = Date.parse('2026-11-22T12:00:00Z');

/** A fake clock whose every sleep first tells the test (the watchdog's checks, one by one); it may jump. */
export class SteppedClock implements Clock {
  slept: number[] = [];
  time = NOW;
  /** `n` counts the sleeps of `ms` (the client's own waits, a retry's, are other lengths) */
  constructor(private readonly onSleep: (n: number, clock: SteppedClock, ms: number) => void | Promise<void>) {}
  now(): number {
    return this.time;
  }
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    await this.onSleep(this.slept.filter((x) => x === ms).length + 1, this, ms);
    if (signal?.aborted) throw new InterruptedError();
    this.slept.push(ms);
    this.time += ms;
  }
}

/** A history that held `peak` for an hour (a confirmed peak) `ago` before now, and is at `value` now. */
export const fallFrom = (peak: number, value: number, ago = DAY): Array<[number, number]> => [
  [NOW - ago, peak],
  [NOW - ago + 3_600_000, peak],
  [NOW, value],
];

interface Account {
  value: number;
  /** [time, account value] points of Hyperliquid's history */
  history: Array<[number, number]>;
  /** an answer instead (a failure: { status: 500 }) */
  answer?: unknown;
}

function portfolio(history: Array<[number, number]>) {
  const first = history[0]?.[1] ?? 0;
  const data = {
    accountValueHistory: history.map(([t, v]) => [t, v.toFixed(2)]),
    pnlHistory: history.map(([t, v]) => [t, (v - first).toFixed(2)]),
    vlm: '0.0',
  };
  return ['day', 'week', 'month', 'allTime'].map((p) => [p, data]);
}

export async function guardFleet(t: ReturnType<typeof perTest>, names: string[], options: Partial<ServerOptions> = {}) {
  const svc: TestService = await t.service({ simClock: fakeClock().now, ...options });
  const agents: Record<string, { agent_id: string; wallet_address: string }> = {};
  for (const name of names) agents[name] = await launchAgent(svc, { name });
  const hl = await startChainStandIn();
  t.closeAfter(hl);
  const accounts = new Map<string, Account>();
  const of = (body: any) => accounts.get(String(body?.user).toLowerCase());
  hl.overrides.set('hyperliquid-clearinghouseState', (body: any) => {
    const a = of(body);
    if (!a || a.answer) return a?.answer;
    const state = fixture('hyperliquid-clearinghouseState');
    state.marginSummary.accountValue = state.crossMarginSummary.accountValue = a.value.toFixed(2);
    return state;
  });
  hl.overrides.set('hyperliquid-portfolio', (body: any) => {
    const a = of(body);
    return a?.answer ?? (a ? portfolio(a.history) : undefined);
  });
  const dataDir = t.scratch('guard-data-');
  const off = Object.fromEntries(SOURCES.map((s) => [endpointVariable(s), 'off']));
  const env = { ...off, SUPERAGENT_HYPERLIQUID_URL: hl.hyperliquid, SUPERAGENT_DATA_DIR: dataDir };
  return {
    svc,
    hl,
    agents,
    dataDir,
    env,
    cli: cliFor(() => svc, { env, clock: new FakeClock(NOW) }),
    /** the agent's account value now, and its history (default: that value alone, now) */
    set(name: string, value: number, history: Array<[number, number]> = [[NOW, value]]) {
      accounts.set(agents[name]!.wallet_address.toLowerCase(), { value, history });
    },
    fail(name: string, answer: unknown = { status: 500, raw: 'down' }) {
      accounts.set(agents[name]!.wallet_address.toLowerCase(), { value: 0, history: [], answer });
    },
    async status(name: string): Promise<string> {
      const r = await svc.call('GET', agentPath(agents[name]!.agent_id));
      return r.json.status;
    },
    async resume(name: string): Promise<void> {
      const r = await svc.call('POST', agentPath(agents[name]!.agent_id, '/resume'));
      if (r.status !== 200) throw new Error(`resume answered ${r.status}`);
    },
  };
}

/** The JSON events of a run's stdout. */
export const events = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
