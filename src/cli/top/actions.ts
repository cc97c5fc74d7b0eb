// The keys' pauses and resumes (p, r, P on `top`): sent at once (the pacer's `first`), one at a time per
// agent (a key held down queues nothing: the repeats are refused as busy), and kept until answered, so
// that top leaves only once what was asked is done (a kill switch confirmed is never dropped).
import { ConflictError } from '../../api/errors.js';
import type { KillSwitchPacer } from '../../api/rate-budget.js';
import { superagents } from '../../api/superagents.js';
import { rephrased, SuperagentError } from '../../core/errors.js';
import { actOnOne, sendTogether } from '../commands/shared/lifecycle.js';
import type { OpenedApi } from '../commands/shared/opened-api.js';
import type { Context } from '../context.js';
import { errorLine, reportError } from '../exit-codes.js';

export type Action = 'pause' | 'resume';
export interface Named {
  agent_id: string;
  name: string;
}
export interface Outcome {
  action: Action;
  done: Named[];
  /** already where the kill switch wants it (P on an agent paused meanwhile) */
  already: Named[];
  failed: Array<{ agent: Named; error: unknown }>;
}

const WANTED: Record<Action, string> = { pause: 'paused', resume: 'running' };
const PAST: Record<Action, string> = { pause: 'paused', resume: 'resumed' };
const plural = (n: number) => `${n} agent${n === 1 ? '' : 's'}`;

export class Actions {
  /** agent_id → what is on its way for it ("pausing demo") */
  private readonly busy = new Map<string, string>();
  private readonly inFlight = new Set<{ action: Action; agents: Named[]; answer: Promise<Outcome> }>();

  constructor(
    private readonly ctx: Context,
    private readonly api: OpenedApi,
    private readonly pacer: KillSwitchPacer,
    /** the status an answer gave, for the view */
    private readonly setStatus: (agentId: string, status: string) => void,
  ) {}

  /** What is on its way for the first of `agents` that has something on its way. */
  busyWith(agents: Named[]): string | undefined {
    for (const a of agents) if (this.busy.has(a.agent_id)) return this.busy.get(a.agent_id);
    return undefined;
  }

  isBusy(agentId: string): boolean {
    return this.busy.has(agentId);
  }

  /** What is on its way ("pausing alpha, beta"), or '' when nothing is. */
  get waiting(): string {
    return [...this.inFlight].map((f) => `${verb(f.action)} ${f.agents.map((a) => a.name).join(', ')}`).join('; ');
  }

  /** `all`: the kill switch (P), sent together, an agent found already paused counted as done */
  send(action: Action, agents: Named[], all = false): Promise<Outcome> {
    for (const a of agents) this.busy.set(a.agent_id, `${verb(action)} ${a.name}`);
    const entry = { action, agents, answer: this.run(action, agents, all) };
    this.inFlight.add(entry);
    return entry.answer.finally(() => {
      this.inFlight.delete(entry);
      for (const a of agents) this.busy.delete(a.agent_id);
    });
  }

  /** Every action still on its way, answered or given up after the request time-out. */
  async settle(): Promise<Outcome[]> {
    const entries = [...this.inFlight];
    if (entries.length === 0) return [];
    const stop = new AbortController();
    const seconds = Math.round(this.ctx.timeoutMs() / 1000);
    const late = this.ctx.clock.sleep(this.ctx.timeoutMs(), stop.signal).then(
      () => 'late' as const,
      () => 'late' as const,
    );
    try {
      return await Promise.all(
        entries.map(async ({ action, agents, answer }) => {
          const got = await Promise.race([answer, late]);
          if (got !== 'late') return got;
          const error = new SuperagentError(`no answer within ${seconds} s`, `'superagent list' shows where it is`);
          return { action, done: [], already: [], failed: agents.map((agent) => ({ agent, error })) };
        }),
      );
    } finally {
      stop.abort();
    }
  }

  private async run(action: Action, agents: Named[], all: boolean): Promise<Outcome> {
    // one agent: its refusal explained ("already paused"); every agent (the kill switch): sent at once
    const results = await this.pacer.first(() =>
      !all
        ? Promise.allSettled([actOnOne(this.ctx, action, agents[0]!)])
        : sendTogether(
            this.api.client,
            action,
            agents.map((a) => a.agent_id),
          ),
    );
    const out: Outcome = { action, done: [], already: [], failed: [] };
    await Promise.all(
      results.map(async (r, k) => {
        const agent = agents[k]!;
        if (r.status === 'fulfilled') {
          this.setStatus(agent.agent_id, r.value.status ?? WANTED[action]);
          return void out.done.push(agent);
        }
        // P: an agent paused since the view's last read is where P wants it
        if (all && r.reason instanceof ConflictError && (await this.statusOf(agent)) === WANTED[action]) {
          this.setStatus(agent.agent_id, WANTED[action]);
          return void out.already.push(agent);
        }
        out.failed.push({ agent, error: r.reason });
      }),
    );
    return out;
  }

  private statusOf(agent: Named): Promise<string | undefined> {
    return this.pacer
      .first(() => superagents.get(this.api.client, agent.agent_id))
      .then(
        (a) => a.status,
        () => undefined,
      );
  }
}

const verb = (action: Action) => (action === 'pause' ? 'pausing' : 'resuming');

/** An outcome as the view's message line: "demo paused", "3 agents paused, 2 already paused; x: …". */
export function outcomeLine(o: Outcome, asked: number): string {
  const n = o.done.length;
  const done =
    asked === 1 && n === 1 ? `${o.done[0]!.name} ${PAST[o.action]}` : n > 0 ? `${plural(n)} ${PAST[o.action]}` : '';
  const already = o.already.length > 0 ? `${o.already.length} already ${WANTED[o.action]}` : '';
  const failed = o.failed.map((f) => `${f.agent.name}: ${errorLine(f.error)}`);
  return [[done, already].filter(Boolean).join(', '), ...failed].filter(Boolean).join('; ');
}

/** A failure as its own error: the same class (so the same exit code), the agent named. */
function failure(action: Action, agent: Named, error: unknown): unknown {
  const text = `${agent.name} not ${PAST[action]}`;
  if (error instanceof SuperagentError) return rephrased(error, `${text}: ${error.message}`);
  return new SuperagentError(`${text}: ${errorLine(error)}`);
}

/**
 * What the actions answered while top was leaving, said on the normal screen: a line per action done
 * ("paused 2 agents"), one per failure. Gives what the command ends with: `ending` (a signal) when
 * there is one, else the last failure (reported by the caller, so still one line for it).
 */
export function sayLeaving(ctx: Context, outcomes: Outcome[], ending: unknown): unknown {
  for (const action of ['pause', 'resume'] as const) {
    const n = outcomes.filter((o) => o.action === action).reduce((k, o) => k + o.done.length + o.already.length, 0);
    if (n > 0) ctx.printer.done(`${PAST[action]} ${plural(n)}`);
  }
  const failures = outcomes.flatMap((o) => o.failed.map((f) => failure(o.action, f.agent, f.error)));
  const last = ending === undefined ? failures.pop() : undefined;
  const colour = (s: string) => ctx.printer.err.red(s);
  for (const f of failures) reportError(f, ctx.io.stderr, { json: false, debug: false, colour });
  return ending ?? last;
}
