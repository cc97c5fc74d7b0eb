// One check of every guarded agent: the list (one service request, for who is guarded and their status),
// each agent's addresses (asked once per run), its figures from the sources, the decisions, the pauses
// sent together before anything else is done, then the state recorded and what the pauses left open.
import { superagents } from '../../api/superagents.js';
import { ConflictError } from '../../api/errors.js';
import type { Addresses } from '../../api/money/holdings.js';
import type { SourceName } from '../../api/money/types.js';
import type { AgentRecord } from '../../api/types.js';
import type { Context } from '../context.js';
import { errorLine } from '../exit-codes.js';
import { resolveAgentsSettled } from '../commands/shared/agent-ref.js';
import { sendTogether } from '../commands/shared/lifecycle.js';
import { agentAddresses } from '../commands/shared/money.js';
import { switchedOff } from '../commands/shared/money-off.js';
import type { OpenedApi } from '../commands/shared/opened-api.js';
import { readOpenAtPause } from '../commands/shared/paused-positions.js';
import { decide, type Agent, type Decision } from './decide.js';
import { failure, figure, type Emit } from './events.js';
import { readFigures, type Readings } from './figures.js';
import type { KillSwitchPacer } from '../../api/rate-budget.js';
import { RULE_NAMES, windowText, type Rules } from './rules.js';
import { emptyAgent, prune, type GuardState } from './state.js';

export interface GuardConfig {
  refs: string[];
  all: boolean;
  rules: Rules;
  windowMs: number;
  dryRun: boolean;
  /** pause an agent that could not be read `unreadableAfter` checks in a row */
  onUnreadable: 'report' | 'pause';
  unreadableAfter: number;
  verbose: boolean;
  /** the watchdog says a repeat (already paused, tolerated, dry run) once, not at every check */
  quietRepeats: boolean;
  /** one check and no other (--once) */
  once: boolean;
  /** the sources --min-value reads that are switched off (the total leaves them out) */
  off?: readonly SourceName[];
}

export interface RoundResult {
  breached: boolean;
  unreadable: boolean;
}

const unread = (reason: string): Readings => {
  const r = { value: null, reason };
  return { account: r, history: r, loss: r, total: r };
};

/** `work`, or the signal's reason as soon as it aborts (`work` then goes on unheard: reads, never a pause). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export class Guard {
  private readonly addresses = new Map<string, Addresses>();
  /** the agents guarded, as last seen (a list that fails: these are checked all the same) */
  private agents: Agent[] | undefined;
  private ids: string[] | undefined;
  private readonly unreadable = new Map<string, number>();
  /** from the last list read: what the state keeps of agents is pruned by it */
  private listed = { destroyed: new Set<string>(), listed: new Set<string>() };
  private readonly told = new Map<string, string>();
  /** each agent's rule not read, by `agent:rule`: the failure said and for how many checks in a row */
  private readonly failing = new Map<string, { detail: string | null; checks: number }>();
  /** said once a run: the state could not be written; --all found no agent */
  private saidUnwritable = false;
  private saidNone = false;

  constructor(
    private readonly ctx: Context,
    private readonly api: OpenedApi,
    private readonly pacer: KillSwitchPacer,
    private readonly state: GuardState,
    private readonly c: GuardConfig,
    private readonly emit: Emit,
  ) {}

  private async targets(): Promise<Agent[]> {
    let list: AgentRecord[];
    try {
      list = await superagents.list(this.api.client);
    } catch (err) {
      if (!this.agents) throw err;
      this.emit(failure(`the agent list: ${errorLine(err)}; checking the agents last seen`, 'retry'));
      return this.agents;
    }
    if (!this.c.all && !this.ids) {
      // the references, once: a name given that matches no agent ends guard before it starts
      const settled = await resolveAgentsSettled(this.api.client, this.c.refs);
      for (const s of settled) if ('error' in s) throw this.ctx.explainFailure(s.error);
      this.ids = settled.map((s) => ('agent' in s ? s.agent.agent_id : ''));
    }
    this.listed = {
      destroyed: new Set(list.filter((a) => a.status === 'destroyed').map((a) => a.agent_id)),
      listed: new Set(list.map((a) => a.agent_id)),
    };
    const byId = new Map(list.map((a) => [a.agent_id.toLowerCase(), a]));
    const chosen = this.c.all
      ? list.filter((a) => a.status !== 'destroyed')
      : this.ids!.flatMap((id) => {
          const a = byId.get(id.toLowerCase());
          if (a) return [a];
          this.emit(failure('not in the agent list (destroyed?): not checked', 'none', id));
          return [];
        });
    if (this.c.all && chosen.length === 0 && !this.saidNone) {
      this.ctx.printer.warn('no agent to guard: the service lists none (check the profile and key)');
    }
    this.saidNone = this.c.all && chosen.length === 0;
    const before = new Set((this.agents ?? []).map((a) => a.agent_id));
    this.agents = chosen.map((a) => ({ agent_id: a.agent_id, name: a.name ?? null, status: a.status ?? null }));
    for (const a of this.agents.filter((x) => !before.has(x.agent_id))) this.sayStart(a);
    return this.agents;
  }

  private sayStart(a: Agent): void {
    const limits = RULE_NAMES.filter((r) => this.c.rules[r] !== undefined).map(
      (r) => `${r} ${figure(r, this.c.rules[r]!)}`,
    );
    const windowed = this.c.rules['max-drawdown'] !== undefined || this.c.rules['max-loss'] !== undefined;
    const window = windowed ? `; window ${windowText(this.c.windowMs)}` : '';
    const off = this.c.off?.length ? `; not read, switched off: ${this.c.off.join(', ')}` : '';
    const detail = `guarded (${a.status ?? 'status unknown'}): ${limits.join(', ')}${window}${off}`;
    this.emit({ ...this.who(a), event: 'start', rule: null, value: null, limit: null, action: 'watch', detail });
  }

  private who = (a: Agent) => ({ agent_id: a.agent_id, name: a.name });

  private async readings(a: Agent, now: number, signal?: AbortSignal): Promise<Readings> {
    let addresses = this.addresses.get(a.agent_id);
    if (!addresses) {
      try {
        addresses = await agentAddresses(this.api, a.agent_id);
      } catch (err) {
        return unread(`the wallet addresses: ${errorLine(err)}`);
      }
      this.addresses.set(a.agent_id, addresses);
    }
    const o = { rules: this.c.rules, windowMs: this.c.windowMs, now, signal, off: this.c.off };
    return readFigures(this.ctx, this.api, addresses, o);
  }

  /** An agent unread `unreadableAfter` checks in a row, with --on-unreadable pause: a breach of its own. */
  private countUnreadable(a: Agent, d: Decision): void {
    const n = d.unreadable ? (this.unreadable.get(a.agent_id) ?? 0) + 1 : 0;
    this.unreadable.set(a.agent_id, n);
    if (this.c.onUnreadable !== 'pause' || n < this.c.unreadableAfter) return;
    const action = a.status === 'paused' ? 'already_paused' : this.c.dryRun ? 'dry_run' : 'pause';
    d.events.push({
      ...this.who(a),
      event: 'breach',
      rule: 'unreadable',
      value: n,
      limit: this.c.unreadableAfter,
      action,
      detail: null,
    });
    d.breached = true;
    if (action === 'pause') {
      d.pause = true;
      this.unreadable.set(a.agent_id, 0);
    }
  }

  private say(a: Agent, d: Decision): void {
    for (const e of d.events) {
      // a note on the agent's sources (history points later than now): once per agent and run
      if (e.event === 'error' && e.action === 'none') {
        if (!this.told.has(`${e.agent_id}:note`)) this.emit(e);
        this.told.set(`${e.agent_id}:note`, 'none');
        continue;
      }
      const key = `${e.agent_id}:${e.rule}`;
      if (e.event === 'error' && e.rule) {
        // an outage is one line in the journal, not one a check: the same failure is said once
        const was = this.failing.get(key);
        this.failing.set(key, { detail: e.detail, checks: (was?.checks ?? 0) + 1 });
        if (was?.detail === e.detail && this.c.quietRepeats) continue;
      }
      const repeat = e.event === 'breach' && e.action !== 'pause' && this.told.get(key) === e.action;
      if (e.event === 'breach') this.told.set(key, e.action!);
      if (!(repeat && this.c.quietRepeats)) this.emit(e);
    }
    for (const rule of RULE_NAMES) {
      const v = d.values[rule];
      if (!v || v.value === null) continue;
      const key = `${a.agent_id}:${rule}`;
      // within the limit again: a later breach is said again
      if (!d.events.some((e) => e.rule === rule)) this.told.delete(key);
      const was = this.failing.get(key);
      if (!was) continue;
      this.failing.delete(key);
      const detail = `${rule} read again after ${was.checks} check${was.checks === 1 ? '' : 's'} not read`;
      this.emit({
        ...this.who(a),
        event: 'check',
        rule,
        value: v.value,
        limit: this.c.rules[rule]!,
        action: 'none',
        detail,
      });
    }
  }

  async round(signal?: AbortSignal): Promise<RoundResult> {
    const agents = await untilAborted(this.targets(), signal);
    const now = this.ctx.clock.now();
    const snapshot = this.state.read();
    const reading = Promise.all(
      agents.map(async (a) => {
        const r = await this.readings(a, now, signal);
        const o = { rules: this.c.rules, windowMs: this.c.windowMs, now, dryRun: this.c.dryRun };
        const d = decide(a, r, { ...o, state: snapshot.agents[a.agent_id] });
        this.countUnreadable(a, d);
        return { a, d };
      }),
    );
    const checked = await untilAborted(reading, signal);
    for (const { a, d } of checked) this.say(a, d);
    // the kill switch first: every pause sent together, before anything is written or read
    const pausing = checked.filter((x) => x.d.pause);
    const sent = pausing.length
      ? await this.pacer.first(() =>
          sendTogether(
            this.api.client,
            'pause',
            pausing.map((x) => x.a.agent_id),
          ),
        )
      : [];
    const paused = new Set<string>();
    sent.forEach((result, k) => {
      const a = pausing[k]!.a;
      // a 409: someone paused it meanwhile, which is what was asked
      if (result.status === 'fulfilled' || result.reason instanceof ConflictError) {
        paused.add(a.agent_id);
        a.status = 'paused';
      } else {
        // no next check after --once or a signal: say so, not "tried again"
        const last = this.c.once || signal?.aborted;
        const why = errorLine(this.ctx.explainFailure(result.reason));
        const then = last ? 'guard stops here: see `superagent list`' : 'tried again next check';
        const detail = `the pause was not confirmed: ${why}; ${then}`;
        const action = last ? 'none' : 'retry';
        this.emit({ ...this.who(a), event: 'error', rule: null, value: null, limit: null, action, detail });
      }
    });
    await this.record(checked, paused, now);
    await this.sayPaused(checked.map((x) => x.a).filter((a) => paused.has(a.agent_id)));
    if (this.c.verbose) for (const x of checked) this.sayCheck(x.a, x.d);
    return { breached: checked.some((x) => x.d.breached), unreadable: checked.some((x) => x.d.unreadable) };
  }

  /**
   * The check's changes written to the state. One that cannot be written (a read-only data dir) is said
   * once and changes nothing else: the breaches and pauses are still said, and --once still exits 10.
   */
  private async record(checked: Array<{ a: Agent; d: Decision }>, paused: Set<string>, now: number): Promise<void> {
    try {
      await this.state.update((data) => {
        for (const { a, d } of checked) d.change((data.agents[a.agent_id] ??= emptyAgent()), paused.has(a.agent_id));
        prune(data, { ...this.listed, now });
      });
    } catch (err) {
      if (this.saidUnwritable) return;
      this.saidUnwritable = true;
      const what = 'guard goes on without recording peaks or breaches (a resumed agent is paused again)';
      this.ctx.printer.warn(`${errorLine(this.ctx.explainFailure(err))}; ${what}`);
    }
  }

  /** What each pause left open (read after every pause is sent; a failed read is said and changes nothing). */
  private async sayPaused(agents: Agent[]): Promise<void> {
    if (agents.length === 0) return;
    const open = await readOpenAtPause(
      this.ctx,
      agents.map((a) => ({ agent_id: a.agent_id, name: a.name ?? a.agent_id })),
    );
    // a market switched off was not read: nothing found there is not "nothing left open"
    const off = switchedOff(this.ctx, this.api);
    const markets = (['hyperliquid', 'polymarket'] as const).filter((m) => off.has(m));
    const unread = markets.length ? `; not read: ${markets.map((m) => `${m} (switched off)`).join(', ')}` : '';
    for (const [k, a] of agents.entries()) {
      const o = open[k]!;
      const said = o.phrase
        ? `left open: ${o.phrase} (a paused agent does not manage them)`
        : o.failure
          ? `what it left open was not read (${o.failure})`
          : o.open_positions === 0
            ? unread
              ? 'nothing found open'
              : 'nothing left open'
            : null;
      const detail = said === null ? unread.slice(2) || null : `${said}${o.failure ? '' : unread}`;
      this.emit({ ...this.who(a), event: 'paused', rule: null, value: null, limit: null, action: 'paused', detail });
    }
  }

  private sayCheck(a: Agent, d: Decision): void {
    const parts = RULE_NAMES.flatMap((rule) => {
      const v = d.values[rule];
      if (!v) return [];
      const shown = v.value === null ? 'not read' : figure(rule, v.value);
      return [`${rule} ${shown} (limit ${figure(rule, this.c.rules[rule]!)})`];
    });
    const detail = `checked: ${parts.join(', ')}`;
    this.emit({ ...this.who(a), event: 'check', rule: null, value: null, limit: null, action: 'none', detail });
  }
}
