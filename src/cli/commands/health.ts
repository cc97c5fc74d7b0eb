// `superagent health <agent> [--watch [SECONDS]]`: one check (exit 8 when unhealthy), or a check
// every few seconds until Ctrl-C.
import type { ApiClient } from '../../api/client.js';
import { NotFoundError } from '../../api/errors.js';
import { superagents } from '../../api/superagents.js';
import type { HealthResult } from '../../api/types.js';
import type { Printer } from '../../ui/printer.js';
import { clipText, oneLine, tsvRow } from '../../ui/format.js';
import { shellWord } from '../../ui/shell-word.js';
import { maskSecrets } from '../../ui/mask.js';
import { ours } from '../../ui/terminal-safe.js';
import { resolveAgent } from './shared/agent-ref.js';
import type { Context } from '../context.js';
import { UnhealthyError } from '../../core/errors.js';
import { EXIT, exitCodeFor } from '../exit-codes.js';
import { parseInteger, parseNumber } from './shared/numbers.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    "Check an agent's health: prints healthy or unhealthy and exits 8 " +
    'when unhealthy. With --watch, checks again every ' +
    'SECONDS (default 2) until Ctrl-C: on a terminal one line kept up to date, piped one line per check ' +
    "('TIME<TAB>healthy|unhealthy|error'); a failed check is shown and the watch goes on.",
  args: [
    {
      name: 'agent',
      description: 'uuid, unique id prefix (4+ characters) or unique name',
      required: true,
      complete: 'agent',
    },
  ],
  options: {
    watch: {
      type: 'count',
      value: 'seconds',
      description: 'check again every SECONDS (default 2, at least 1) until Ctrl-C',
    },
    // for tests and scripts: a watch that ends by itself
    count: { type: 'string', value: 'n', hidden: true, description: 'stop after N checks (implies --watch)' },
  },
  examples: [
    'superagent health demo',
    'superagent health demo --watch',
    'superagent health demo --watch 10',
    'superagent health demo || superagent restart demo',
  ],
} as const satisfies Spec;

const DEFAULT_WATCH_SECONDS = 2;
const MAX_WATCH_SECONDS = 86_400;

interface Watch {
  intervalMs: number;
  /** stop after this many checks; otherwise until Ctrl-C */
  count?: number;
}

/** Checked before any request: a bad --watch or --count is a usage error. */
function watchFrom(input: Input<typeof spec>): Watch | null {
  if (input.watch === undefined && input.count === undefined) return null;
  const seconds =
    input.watch === undefined || input.watch === true
      ? DEFAULT_WATCH_SECONDS
      : parseNumber('--watch', input.watch, { min: 1, max: MAX_WATCH_SECONDS });
  const count = input.count === undefined ? undefined : parseInteger('--count', input.count, { min: 1 });
  return { intervalMs: seconds * 1000, count };
}

export async function run(input: Input<typeof spec>, ctx: Context): Promise<number | void> {
  const ref = input.agent;
  const watch = watchFrom(input);
  const { client } = await ctx.api();
  const agent = await resolveAgent(client, ref!);
  const target: Target = { id: agent.agent_id, label: agent.name ?? ref!, ref: ref! };
  if (!watch) return checkOnce(client, target, ctx.printer);
  return watchHealth(client, target, watch, ctx);
}

interface Target {
  id: string;
  /** how the agent is named in output */
  label: string;
  /** what the user typed, for hints */
  ref: string;
}

function healthWord(p: Printer, healthy: boolean): string {
  return healthy ? p.out.green('healthy') : p.out.red('unhealthy');
}

function unhealthyError(t: Target): UnhealthyError {
  return new UnhealthyError(
    `${t.label} is unhealthy`,
    `'superagent restart ${shellWord(t.ref)}' starts it in a fresh container`,
  );
}

async function checkOnce(client: ApiClient, t: Target, p: Printer): Promise<void> {
  const answer = await superagents.health(client, t.id);
  const healthy = answer.healthy === true;
  if (p.json) p.printJson(answer);
  else if (p.stdoutIsTTY) p.data(`${t.label} is ${healthWord(p, healthy)}`);
  else p.data(healthy ? 'healthy' : 'unhealthy');
  if (!healthy) throw unhealthyError(t);
}

// ---------------------------------------------------------------------------------------------
// --watch

interface Check {
  at: Date;
  answer?: HealthResult;
  /** the check failed (service down, time-out…): shown, and the watch goes on */
  error?: unknown;
}

interface Tally {
  checks: number;
  failures: number;
}

/** How a watch shows its checks: a line redrawn in place, a line per check, or JSON lines. */
interface WatchView {
  show(check: Check, tally: Tally): void;
  end(): void;
}

const INTERRUPTED = Symbol('interrupted');

async function watchHealth(client: ApiClient, t: Target, watch: Watch, ctx: Context): Promise<number> {
  const controller = new AbortController();
  const stopListening = ctx.signals.onInterrupt(() => controller.abort());
  const view = viewFor(ctx.printer, t);
  const tally: Tally = { checks: 0, failures: 0 };
  try {
    for (;;) {
      const check = await unlessAborted(
        runCheck(client, t.id, () => ctx.clock.now()),
        controller.signal,
      );
      if (check === INTERRUPTED) return EXIT.interrupted;
      tally.checks++;
      if (!isHealthy(check)) tally.failures++;
      view.show(check, tally);
      // an agent destroyed elsewhere will not come back: the watch ends (exit 4), other failures pass
      if (check.error instanceof NotFoundError) throw check.error;
      if (watch.count !== undefined && tally.checks >= watch.count) {
        if (check.error !== undefined) throw check.error;
        if (!isHealthy(check)) throw unhealthyError(t);
        return EXIT.ok;
      }
      await ctx.clock.sleep(watch.intervalMs, controller.signal).catch(() => undefined);
      if (controller.signal.aborted) return EXIT.interrupted;
    }
  } finally {
    stopListening();
    view.end();
  }
}

function isHealthy(check: Check): boolean {
  return check.answer?.healthy === true;
}

/** One check that never rejects: a failure becomes part of the result. */
async function runCheck(client: ApiClient, id: string, now: () => number): Promise<Check> {
  try {
    return { answer: await superagents.health(client, id), at: new Date(now()) };
  } catch (error) {
    return { error, at: new Date(now()) };
  }
}

/** `work`, or INTERRUPTED as soon as the signal fires (the request is dropped when the client closes). */
function unlessAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | typeof INTERRUPTED> {
  if (signal.aborted) return Promise.resolve(INTERRUPTED);
  return new Promise((resolve) => {
    const onAbort = () => resolve(INTERRUPTED);
    signal.addEventListener('abort', onAbort, { once: true });
    void work.then((value) => {
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    });
  });
}

/** A failed check's words, secrets masked (the service may echo a key or a URL with a password). */
function errorText(error: unknown): string {
  return maskSecrets(error instanceof Error ? error.message : String(error));
}

function viewFor(p: Printer, t: Target): WatchView {
  if (p.json) return jsonView(p);
  return p.stdoutIsTTY ? lineView(p, t) : pipeView(p);
}

/** --json: each answer as one compact JSON line on stdout; a failed check as a JSON error on stderr. */
function jsonView(p: Printer): WatchView {
  return {
    show(check) {
      if (check.error === undefined) p.printJsonLine(check.answer);
      else
        p.printJsonLine({ error: { message: errorText(check.error), exit_code: exitCodeFor(check.error) } }, 'stderr');
    },
    end() {},
  };
}

/** Piped: `ISO-TIME<TAB>healthy|unhealthy|error[<TAB>message]`, one line per check. */
function pipeView(p: Printer): WatchView {
  return {
    show(check) {
      const fields = [
        check.at.toISOString(),
        check.error !== undefined ? 'error' : isHealthy(check) ? 'healthy' : 'unhealthy',
      ];
      if (check.error !== undefined) fields.push(oneLine(errorText(check.error)));
      p.data(tsvRow(fields));
    },
    end() {},
  };
}

/** A terminal: one status line rewritten in place (carriage return + clear line), ended on exit. */
function lineView(p: Printer, t: Target): WatchView {
  let drawn = false;
  return {
    show(check, tally) {
      const failed = check.error !== undefined;
      const plain = failed ? 'error' : isHealthy(check) ? 'healthy' : 'unhealthy';
      const word = failed ? p.out.yellow(plain) : healthWord(p, isHealthy(check));
      const parts = [
        failed ? oneLine(errorText(check.error)) : '',
        `${tally.checks} check${tally.checks === 1 ? '' : 's'}, ${tally.failures} failed`,
        `last at ${check.at.toTimeString().slice(0, 8)}`,
        t.label,
        'Ctrl-C to stop',
      ].filter(Boolean);
      // never wider than the terminal (80 when it reports no size),
      // or the carriage return would redraw only the last row
      const rest = clipText(`  ${parts.join(' · ')}`, p.columns - 1 - plain.length);
      p.write(`${ours('\r\x1b[2K')}${word}${p.out.dim(rest)}`);
      drawn = true;
    },
    end() {
      if (drawn) p.write('\n');
      drawn = false;
    },
  };
}
