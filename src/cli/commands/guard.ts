// `superagent guard`: risk limits enforced from outside the agents. An agent past a limit is paused (the
// kill switch); --once checks once, else a watchdog checks every --interval until SIGTERM or Ctrl-C.
import type { Context } from '../context.js';
import { EXIT, errorLine } from '../exit-codes.js';
import { TerminatedError, UsageError } from '../../core/errors.js';
import { Stop } from './shared/stop.js';
import { eventWriter, failure, type Emit } from '../guard/events.js';
import { KillSwitchPacer } from '../../api/rate-budget.js';
import { Guard, type GuardConfig } from '../guard/round.js';
import { DEFAULT_WINDOW_MS, parseRules, parseWindow } from '../guard/rules.js';
import { parseInteger } from './shared/numbers.js';
import { BUDGET_OPTION, parseBudget } from './shared/request-budget.js';
import { sourcesOff } from '../guard/sources.js';
import { GuardState, guardStateFile } from '../guard/state.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    'Risk limits enforced outside the agents: an agent past a limit is paused (the kill switch), and guard says ' +
    'what the pause left open. --max-drawdown PCT: the Hyperliquid account value against its highest confirmed ' +
    "point over --window (Hyperliquid's own history and the values guard has seen, kept in the data dir, merged " +
    'in time order: the peak is the highest min(a, b) of two consecutive points, so a lone spike is never a ' +
    'peak; a fall acts on its first reading); --min-value USD: ' +
    'the wallet total as `wallet` computes it; --max-loss USD: the Hyperliquid PnL lost over --window. ' +
    'A figure that cannot be read is never taken as 0: it is an error event, and no breach. A source switched ' +
    'off (a variable or setting saying off) is not read: a rule none of whose sources is read is refused (exit ' +
    '2), and a wallet total that leaves a source out (switched off or failed) is an error below --min-value. ' +
    'One event per line (start, breach, paused, error; check with --verbose); with --json one object per line: ' +
    '{time, agent_id, name, event, rule, value, limit, action, detail}. --once checks once: exit 0 within the ' +
    'limits, 10 when a limit was breached, 7 when an agent could not be read. Otherwise a watchdog: a check ' +
    'every --interval, through outages of the service or a source (said once, tried again, and said again ' +
    'once read), until SIGTERM ' +
    '(exit 0) or Ctrl-C. An agent a person resumes after a breach is not paused again until it goes beyond ' +
    'the breach recorded by a margin (a tenth of the limit for --max-drawdown, 1 point at least, and for ' +
    '--max-loss, $1 at least; 1% of the limit for --min-value), while that record stands (a drawdown measured ' +
    'from the peak still confirmed, below 100%); the re-pause says so. Service requests stay within --budget ' +
    'a minute (a wait for it is said on stderr); a pause never waits on it.',
  args: [
    { name: 'agent', description: 'agents to guard (uuid, id prefix or name)', variadic: true, complete: 'agent' },
  ],
  options: {
    all: { type: 'boolean', description: 'guard every agent (the list is read at each check: new agents too)' },
    maxDrawdown: { type: 'string', value: 'pct', description: 'pause at a drawdown above PCT percent (0-100)' },
    minValue: { type: 'string', value: 'usd', description: 'pause when the wallet total falls below USD (above 0)' },
    maxLoss: { type: 'string', value: 'usd', description: 'pause when the PnL lost over the window is above USD' },
    window: {
      type: 'string',
      value: 'duration',
      description: "the window of drawdown and loss: '7d' (default), '24h', '90m'",
    },
    interval: { type: 'string', value: 'seconds', description: 'seconds between checks (default 60)' },
    once: { type: 'boolean', description: 'check once: exit 0 within the limits, 10 when one was breached' },
    dryRun: { type: 'boolean', description: 'report breaches, pause nothing' },
    budget: BUDGET_OPTION,
    onUnreadable: {
      type: 'string',
      value: 'what',
      choices: ['report', 'pause'],
      description: 'an agent not read --unreadable-after checks in a row: report it (default) or pause it',
    },
    unreadableAfter: {
      type: 'string',
      value: 'n',
      description: 'checks in a row unread before --on-unreadable acts (default 3)',
    },
  },
  examples: [
    'superagent guard demo --max-drawdown 20 --once',
    'superagent guard --all --max-drawdown 15 --min-value 5000 --interval 60',
    'superagent guard --all --max-loss 500 --window 24h --once --json',
  ],
} as const satisfies Spec;

function configOf(input: Input<typeof spec>, ctx: Context): GuardConfig & { intervalMs: number; budget: number } {
  const refs = input.agent;
  if (input.all && refs.length > 0) throw new UsageError('give agents or --all, not both');
  if (!input.all && refs.length === 0)
    throw new UsageError('name at least one agent to guard', 'or --all for every agent');
  const rules = parseRules(input);
  return {
    refs,
    all: input.all,
    rules,
    windowMs: input.window === undefined ? DEFAULT_WINDOW_MS : parseWindow(input.window),
    dryRun: input.dryRun,
    onUnreadable: input.onUnreadable === 'pause' ? 'pause' : 'report',
    unreadableAfter:
      input.unreadableAfter === undefined
        ? 3
        : parseInteger('--unreadable-after', input.unreadableAfter, { min: 1, max: 1000 }),
    verbose: ctx.globals.verbose,
    quietRepeats: !input.once,
    once: input.once,
    intervalMs:
      (input.interval === undefined ? 60 : parseInteger('--interval', input.interval, { min: 1, max: 86_400 })) * 1000,
    budget: parseBudget(input.budget),
  };
}

export async function run(input: Input<typeof spec>, ctx: Context): Promise<number> {
  const c = configOf(input, ctx);
  const pacer = new KillSwitchPacer(c.budget, ctx.clock);
  sayWaits(ctx, pacer, c.budget);
  const api = await ctx.api({ pacer });
  const state = new GuardState(guardStateFile(ctx.env), (line) => ctx.printer.warn(line));
  const emit = eventWriter(ctx);
  // a rule none of whose sources is read is refused here; a total that leaves some out is said at start
  const guard = new Guard(ctx, api, pacer, state, { ...c, off: sourcesOff(ctx, api, c.rules) }, emit);
  if (input.once) {
    const stop = new Stop(ctx);
    try {
      // the reads are given up at a signal; a pause under way is finished
      const r = await guard.round(stop.signal);
      return r.breached ? EXIT.breached : r.unreadable ? EXIT.service : EXIT.ok;
    } finally {
      stop.end();
    }
  }
  return watch(ctx, guard, c.intervalMs, emit);
}

/**
 * A wait for the budget said on stderr, so that a watchdog waiting is not taken for one hung: once per
 * wait (reads waiting together for the same end are one wait).
 */
function sayWaits(ctx: Context, pacer: KillSwitchPacer, budget: number): void {
  let until = 0;
  pacer.reads.onWait = (ms) => {
    const end = ctx.clock.now() + ms;
    if (end <= until) return;
    until = end;
    ctx.printer.warn(
      `over --budget ${budget} (service requests a minute): the next request waits ${Math.ceil(ms / 1000)} s`,
    );
  };
}

/** A check every interval until SIGTERM (exit 0) or Ctrl-C; a check that fails is said and tried again. */
async function watch(ctx: Context, guard: Guard, intervalMs: number, emit: Emit): Promise<number> {
  const stop = new Stop(ctx);
  try {
    while (!stop.reason) {
      try {
        // a pause under way when the signal comes is finished (the reads are given up)
        await guard.round(stop.signal);
      } catch (err) {
        if (stop.reason) break;
        const detail = `${errorLine(ctx.explainFailure(err))}; tried again in ${intervalMs / 1000} s`;
        emit(failure(detail, 'retry'));
      }
      await ctx.clock.sleep(intervalMs, stop.signal).catch(() => undefined);
    }
  } finally {
    stop.end();
  }
  if (!ctx.globals.quiet) ctx.printer.stderrWrite('Stopped\n');
  return stop.reason instanceof TerminatedError ? EXIT.ok : EXIT.interrupted;
}
