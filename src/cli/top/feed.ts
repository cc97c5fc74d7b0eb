// The fleet's figures, refreshed in one call per interval: the list (status, model) and health checks
// as the service budget allows (plan.ts: never a wait on it), each agent's addresses asked once, and
// the chain sources (no service request) read every time with a few agents at a time.
import type { Addresses } from '../../api/money/holdings.js';
import { ApiError, RateLimitError, TimeoutError } from '../../api/errors.js';
import type { RateBudget } from '../../api/rate-budget.js';
import { superagents } from '../../api/superagents.js';
import type { AgentRecord } from '../../api/types.js';
import { agentAddresses } from '../commands/shared/money.js';
import type { OpenedApi } from '../commands/shared/opened-api.js';
import type { Context } from '../context.js';
import { readChainFigures, type Read } from './chain-figures.js';
import { eachBounded } from './each-bounded.js';
import { fresh, staled, unread, type Figure } from './figure.js';
import { Plan } from './plan.js';
import { SOURCE_BUDGET, SourcePacer } from './source-pacer.js';

export interface AgentFigures {
  agent_id: string;
  name: string;
  model: string | null;
  /** as the last list said (the list's own read time and staleness are the snapshot's) */
  status: string | null;
  healthy: Figure<boolean>;
  value: Figure<number>;
  /** the sources a value leaves out (a partial total), empty when whole */
  partial: string[];
  pnl24h: Figure<number>;
  open: Figure<number>;
}

export interface Totals {
  agents: number;
  running: number;
  /** sums of the figures known; `complete` false when one was missing or stale */
  value: number;
  pnl24h: number;
  open: number;
  complete: boolean;
  /** how many agents each sum has a figure of (none: there is no total to show) */
  read: { value: number; pnl24h: number; open: number };
}

export interface Snapshot {
  agents: AgentFigures[];
  list: { readAt: number | null; stale: string | null };
  /** when a chain read last succeeded, and why the last pass's reads all failed (null: they did not) */
  chains: { readAt: number | null; failed: string | null };
  totals: Totals;
  /** service requests sent so far */
  sent: number;
}

export interface FeedOptions {
  budget: RateBudget;
  intervalMs: number;
  /** agents whose chain sources are read at once (default 4) */
  concurrency?: number;
  /** requests a minute to each source host (default SOURCE_BUDGET) */
  sourceBudget?: number;
  /** a one-off snapshot waits for the sources' budget: told before each wait */
  onSourceWait?: (ms: number) => void;
}

/** Why a service request failed, in a few words. */
export function staleReason(err: unknown): string {
  if (err instanceof RateLimitError) return '429';
  if (err instanceof TimeoutError) return 'service timed out';
  if (err instanceof ApiError && err.status !== undefined) return String(err.status);
  return 'service down';
}

const BUDGET = 'rate budget';
const SOURCES_BUDGET = 'source budget';

function newAgent(r: AgentRecord): AgentFigures {
  const a = { agent_id: r.agent_id, name: r.name, model: r.model ?? null, status: r.status ?? null };
  return { ...a, healthy: unread(), value: unread(), partial: [], pnl24h: unread(), open: unread() };
}

function applied<T>(f: Figure<T>, read: Read<T>, at: number): Figure<T> {
  return 'value' in read ? fresh(read.value, at) : staled(f, read.stale);
}

export class Feed {
  private readonly agents = new Map<string, AgentFigures>();
  private readonly addresses = new Map<string, Addresses>();
  private list: Snapshot['list'] = { readAt: null, stale: null };
  private chains: Snapshot['chains'] = { readAt: null, failed: null };
  private readonly sources: SourcePacer;
  /** agents whose chain read is under way (a refresh never starts a second one) */
  private readonly reading = new Set<string>();
  /** when each agent's chain read last started: the oldest goes first */
  private readonly triedAt = new Map<string, number>();
  private healthNext = 0;
  /** why the last list failed (a one-off snapshot with no list fails with it) */
  listFailure: unknown;
  private readonly plan: Plan;

  constructor(
    private readonly ctx: Context,
    private readonly api: OpenedApi,
    private readonly o: FeedOptions,
  ) {
    this.plan = new Plan(o.budget, o.intervalMs);
    this.sources = new SourcePacer(o.sourceBudget ?? SOURCE_BUDGET, ctx.clock);
  }

  /**
   * One refresh. `complete` (a one-off snapshot, which must be whole): every agent's addresses, health and
   * figures are read, waiting for the budgets where need be (the client's pacer waits; a live view's never
   * does). `onService`: told once the service's part is read.
   */
  async refresh(
    opts: { signal?: AbortSignal; complete?: boolean; onService?: (s: Snapshot) => void } = {},
  ): Promise<Snapshot> {
    const { signal } = opts;
    this.plan.tick(this.ctx.clock.now());
    await this.readList();
    await this.readAddresses(opts.complete === true);
    await this.readHealth(opts.complete === true);
    // what the service said can be shown before the chains answer (a slow source takes seconds)
    opts.onService?.(this.snapshot());
    await this.readChains(opts.complete === true, signal);
    return this.snapshot();
  }

  /** After a pause or a resume from the keys: the status the service answered, until the next list. */
  setStatus(agentId: string, status: string): void {
    const a = this.agents.get(agentId);
    if (a) a.status = status;
  }

  /** The agent's addresses, once read (the positions view reads the markets with them). */
  addressesOf(agentId: string): Addresses | undefined {
    return this.addresses.get(agentId);
  }

  snapshot(): Snapshot {
    const agents = [...this.agents.values()].map((a) => ({ ...a }));
    return {
      agents,
      list: { ...this.list },
      chains: { ...this.chains },
      totals: totalsOf(agents),
      sent: this.o.budget.sent,
    };
  }

  private async readList(): Promise<void> {
    // not due yet is no staleness: the list is read again at its own pace
    if (!this.plan.due('list')) return;
    if (this.plan.take('list') === 0) {
      // a failure's reason stays until a read succeeds (failed requests fill the budget too); a list
      // missing one turn of its own schedule is not stale: only one missing two and more
      const { readAt } = this.list;
      const behind = readAt === null || this.ctx.clock.now() - readAt > 2.5 * this.plan.listPeriodMs();
      if (this.list.stale === null && behind) this.list.stale = BUDGET;
      return;
    }
    try {
      const records = await superagents.list(this.api.client);
      const seen = new Set<string>();
      for (const r of records) {
        seen.add(r.agent_id);
        const known = this.agents.get(r.agent_id);
        if (!known) this.agents.set(r.agent_id, newAgent(r));
        else Object.assign(known, { name: r.name, model: r.model ?? null, status: r.status ?? null });
      }
      for (const id of [...this.agents.keys()]) if (!seen.has(id)) this.agents.delete(id);
      this.list = { readAt: this.ctx.clock.now(), stale: null };
    } catch (err) {
      this.list.stale = staleReason(err);
      this.listFailure = err;
    }
  }

  /** Each agent's addresses, once: they never change. */
  private async readAddresses(complete: boolean): Promise<void> {
    const missing = [...this.agents.keys()].filter((id) => !this.addresses.has(id));
    const n = complete ? missing.length : this.plan.takeOnce(missing.length);
    await eachBounded(missing.slice(0, n), 4, async (id) => {
      try {
        this.addresses.set(id, await agentAddresses(this.api, id));
      } catch (err) {
        this.markMoney(id, staleReason(err));
      }
    });
    for (const id of missing.slice(n)) this.markMoney(id, BUDGET);
  }

  private markMoney(id: string, reason: string): void {
    const a = this.agents.get(id);
    if (!a) return;
    a.value = staled(a.value, reason);
    a.pnl24h = staled(a.pnl24h, reason);
    a.open = staled(a.open, reason);
  }

  /** Health checks round the fleet, as many as the plan allows this time. */
  private async readHealth(complete: boolean): Promise<void> {
    const ids = [...this.agents.keys()];
    if (ids.length === 0) return;
    const n = complete ? ids.length : this.plan.take('health', ids.length);
    const start = this.healthNext % ids.length;
    const turn = Array.from({ length: n }, (_, k) => ids[(start + k) % ids.length]!);
    this.healthNext = start + n;
    await eachBounded(turn, 4, async (id) => {
      const a = this.agents.get(id)!;
      try {
        const h = await superagents.health(this.api.client, id);
        a.healthy = fresh(h.healthy, this.ctx.clock.now());
      } catch (err) {
        a.healthy = staled(a.healthy, staleReason(err));
      }
    });
  }

  /**
   * The agents' chain figures, oldest read first, as many as the sources' budget has room for now (a
   * one-off snapshot waits for it: it must be whole). One not read again keeps its value, stale once it
   * is older than two refreshes.
   */
  private async readChains(complete: boolean, signal?: AbortSignal): Promise<void> {
    const age = (id: string) => this.triedAt.get(id) ?? -Infinity;
    const ready = [...this.addresses.keys()]
      .filter((id) => this.agents.has(id) && !this.reading.has(id))
      .sort((a, b) => age(a) - age(b));
    const pass = { ok: false, failed: null as string | null };
    let next = 0;
    const worker = async () => {
      while (next < ready.length) {
        for (let wait = this.sources.waitMs(!complete); wait !== 0; wait = this.sources.waitMs(!complete)) {
          // the reads under way go on in their own workers; a live view reads the rest another time
          if (wait === null || !complete) return;
          this.o.onSourceWait?.(wait);
          await this.ctx.clock.sleep(wait, signal);
        }
        if (next < ready.length) await this.readOne(ready[next++]!, pass, signal);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.o.concurrency ?? 4, ready.length) }, worker));
    if (pass.ok) this.chains = { readAt: this.ctx.clock.now(), failed: null };
    else if (pass.failed !== null) this.chains.failed = pass.failed;
    const now = this.ctx.clock.now();
    for (const id of ready.slice(next)) {
      const a = this.agents.get(id);
      if (!a || this.reading.has(id)) continue;
      const old = a.value.readAt === null || now - a.value.readAt >= 2 * this.o.intervalMs;
      // a failure's reason stays until a read succeeds; on schedule is not stale
      if (old && a.value.stale === null) this.markMoney(id, SOURCES_BUDGET);
    }
  }

  private async readOne(id: string, pass: { ok: boolean; failed: string | null }, signal?: AbortSignal) {
    const addresses = this.addresses.get(id)!;
    this.reading.add(id);
    this.triedAt.set(id, this.ctx.clock.now());
    const paced = this.sources.begin();
    try {
      const read = await readChainFigures(this.ctx, this.api, addresses, { signal, wrapJson: paced.wrapJson });
      const a = this.agents.get(id);
      if (!a) return;
      const at = this.ctx.clock.now();
      a.value = applied(a.value, read.value, at);
      a.partial = 'value' in read.value ? read.partial : a.partial;
      a.pnl24h = applied(a.pnl24h, read.pnl24h, at);
      a.open = applied(a.open, read.open, at);
      const reads = [read.value, read.pnl24h, read.open];
      if (reads.some((r) => 'value' in r)) pass.ok = true;
      else pass.failed ??= reads.map((r) => ('stale' in r ? r.stale : '')).find(Boolean) ?? null;
    } finally {
      paced.end();
      this.reading.delete(id);
    }
  }
}

function totalsOf(agents: AgentFigures[]): Totals {
  const sum = (pick: (a: AgentFigures) => Figure<number>) => agents.reduce((s, a) => s + (pick(a).value ?? 0), 0);
  const whole = (f: Figure<unknown>) => f.value !== null && f.stale === null;
  return {
    agents: agents.length,
    running: agents.filter((a) => a.status === 'running').length,
    value: Math.round(sum((a) => a.value) * 100) / 100,
    pnl24h: Math.round(sum((a) => a.pnl24h) * 100) / 100,
    open: sum((a) => a.open),
    complete: agents.every((a) => whole(a.value) && a.partial.length === 0 && whole(a.pnl24h) && whole(a.open)),
    read: {
      value: agents.filter((a) => a.value.value !== null).length,
      pnl24h: agents.filter((a) => a.pnl24h.value !== null).length,
      open: agents.filter((a) => a.open.value !== null).length,
    },
  };
}
