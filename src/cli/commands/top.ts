// `superagent top`: every agent at a glance, kept up to date within a budget of service requests; on a
// terminal a full-screen view whose keys act on the selected agent, else (or with --once) one snapshot.
import { KillSwitchPacer } from '../../api/rate-budget.js';
import { canUseScreen, Screen } from '../../ui/screen/screen.js';
import { Feed } from '../top/feed.js';
import { SIMULATION_SOURCE_BUDGET, SOURCE_BUDGET } from '../top/source-pacer.js';
import { printSnapshot } from '../top/snapshot-out.js';
import type { Context } from '../context.js';
import { paperOnly } from './shared/money.js';
import { parseNumber } from './shared/numbers.js';
import { BUDGET_OPTION, parseBudget } from './shared/request-budget.js';
import { withStop } from './shared/stop.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    'Watch every agent: status, health, value, 24-hour PnL, open positions and model, refreshed every ' +
    '--interval seconds while the service is asked at most --budget times a minute and each chain source ' +
    `host at most ${SOURCE_BUDGET} times a minute (within Hyperliquid's public limit; with many agents each ` +
    'is read less often, the oldest first). On a terminal a full-screen view: arrows or j/k select, p pauses ' +
    'and r resumes the selected agent, P pauses all (after a y), Enter shows its positions (Esc back), c ' +
    'opens the chat with it, Ctrl-Z stops top as in any shell job, q leaves. Pauses and resumes never wait on ' +
    'the budget, one at a time for an agent; q waits for those under way, and what failed is said after. ' +
    'A figure ' +
    "that could not be read again keeps its last value, marked '*' with the reason below (429, a source down, " +
    'a budget). ' +
    'Piped or with --once, one snapshot of every agent (it waits for the budgets and a 429, said on stderr): ' +
    'a tab-separated row per agent (agent_id, name, status, ' +
    "healthy or unhealthy, value_usd, pnl_24h_usd, open_positions; 'none' for a figure not read, the reason " +
    'on stderr); ' +
    '--json: {agents: [{agent_id, name, status, healthy, value_usd, pnl_24h_usd, open_positions}]}, a figure ' +
    'not read null and its reason in the agent\'s "stale" object. Exit 0 even when a figure is stale.',
  options: {
    interval: { type: 'string', value: 'seconds', description: 'seconds between refreshes (default 5)' },
    budget: BUDGET_OPTION,
    once: { type: 'boolean', description: 'one snapshot, then exit (what a pipe gets)' },
  },
  examples: ['superagent top', 'superagent top --interval 10 --budget 20', 'superagent top --once --json | jq .agents'],
} as const satisfies Spec;

export const DEFAULT_INTERVAL_S = 5;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<number | void> {
  const seconds =
    input.interval === undefined
      ? DEFAULT_INTERVAL_S
      : parseNumber('--interval', input.interval, { min: 1, max: 3600 });
  const perMinute = parseBudget(input.budget);
  // the refresh within the budget less a reserve; a pause or resume from a key goes at once
  const pacer = new KillSwitchPacer(perMinute, ctx.clock);
  const p = ctx.printer;
  const live = !input.once && !p.json && canUseScreen(ctx.io.stdout, ctx.io.stdin, ctx.env);
  // live, a 429 is shown as stale and tried again next time, nothing printed under the view; a snapshot
  // must be whole: it waits a 429 out as every command does, and waits for the budgets
  const api = await ctx.api(live ? { pacer, retry: { rateLimitRetries: 0, retries: 0 }, quiet: true } : { pacer });
  const onWait = live ? undefined : waitNotice(ctx, perMinute);
  pacer.reads.onWait = onWait?.service;
  const feed = new Feed(ctx, api, {
    budget: pacer.reads,
    intervalMs: seconds * 1000,
    onSourceWait: onWait?.sources,
    // a first look at the embedded service's paper agents is not throttled as the public sources must be
    sourceBudget: paperOnly(ctx, api) ? SIMULATION_SOURCE_BUDGET : SOURCE_BUDGET,
  });
  if (live) {
    const { runLive } = await import('../top/live.js');
    const chat = async (agent: { agent_id: string; name: string }) =>
      (await import('../chat/chat-repl.js')).runChatRepl(ctx, agent);
    const { stdout, stdin } = ctx.io;
    await runLive(
      ctx,
      api,
      feed,
      { intervalMs: seconds * 1000, pacer, chat },
      (h) => new Screen({ stdout, stdin, signals: ctx.signals, ...h }),
    );
    return;
  }
  const snapshot = await withStop(ctx, (stop) => stop.race(feed.refresh({ signal: stop.signal, complete: true })));
  // without the list there is no fleet to show: that is the failure
  if (snapshot.list.readAt === null) throw feed.listFailure;
  printSnapshot(ctx, snapshot, perMinute);
  ctx.requireEveryRecord();
}

/** A wait this long or longer is said (once for each budget): a script's log shows why the snapshot is slow. */
const SAID_WAIT_MS = 3_000;

function waitNotice(ctx: Context, perMinute: number) {
  const said = new Set<string>();
  const say = (what: string, line: string) => (ms: number) => {
    if (ms < SAID_WAIT_MS || said.has(what)) return;
    said.add(what);
    ctx.printer.warn(`Waiting ${Math.ceil(ms / 1000)} s for ${line} so that every agent is read`);
  };
  return {
    service: say('service', `the request budget (--budget ${perMinute})`),
    sources: say('sources', `the chain sources' budget (${SOURCE_BUDGET} requests a minute a host)`),
  };
}
