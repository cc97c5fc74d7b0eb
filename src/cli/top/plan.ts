// How the fleet view spends its service budget without ever waiting on it: each kind of optional
// request (the list, health checks) earns credit at its own rate per minute, and is sent only when
// it has a whole credit and the budget has room now. The budget it is given is the reads' share: the
// keys' pauses and resumes go at once, from a reserve the pacer keeps (KillSwitchPacer).
import type { RateBudget } from '../../api/rate-budget.js';

export type Kind = 'list' | 'health';

export class Plan {
  private readonly rate: Record<Kind, number>;
  private readonly cap: Record<Kind, number>;
  private readonly credit: Record<Kind, number>;
  private last: number | null = null;

  constructor(
    private readonly budget: Pick<RateBudget, 'room' | 'perMinute'>,
    private readonly intervalMs: number,
  ) {
    const usable = budget.perMinute;
    const perMinute = 60_000 / intervalMs;
    // the list at most once a refresh and half of what is usable; health checks the rest
    const list = Math.min(perMinute, usable / 2);
    const health = usable - list;
    this.rate = { list, health };
    // one list a refresh, but up to two in credit: a rate a little under one a refresh is kept, not halved
    this.cap = { list: 2, health: Math.max(1, Math.ceil((health * intervalMs) / 60_000)) };
    // the first refresh has something of each
    this.credit = { list: 1, health: this.cap.health };
  }

  /** Credit earned since the last call, up to each kind's cap. */
  tick(now: number): void {
    if (this.last !== null) {
      const minutes = Math.max(0, now - this.last) / 60_000;
      for (const k of ['list', 'health'] as const) {
        this.credit[k] = Math.min(this.cap[k], this.credit[k] + this.rate[k] * minutes);
      }
    }
    this.last = now;
  }

  /** How often the list is read on its own schedule (at most once a refresh). */
  listPeriodMs(): number {
    return Math.max(this.intervalMs, 60_000 / this.rate.list);
  }

  /** How many requests may be sent now. */
  room(): number {
    return this.budget.room();
  }

  /** Whether `kind` has earned a request by now (the budget's room aside). */
  due(kind: Kind): boolean {
    return this.credit[kind] >= 1;
  }

  /** Up to `wanted` requests of `kind`, as many as its credit and the room allow; they are counted as spent. */
  take(kind: Kind, wanted = 1): number {
    // health checks leave the next refresh's list its request: the list goes stale, a health check waits its turn
    const listSoon = this.credit.list + (this.rate.list * this.intervalMs) / 60_000 >= 1;
    const room = this.room() - (kind === 'health' && listSoon ? 1 : 0);
    const n = Math.max(0, Math.min(wanted, Math.floor(this.credit[kind]), room));
    this.credit[kind] -= n;
    return n;
  }

  /** Up to `wanted` requests beyond any kind's credit (the agents' addresses, asked once): room alone decides. */
  takeOnce(wanted: number): number {
    return Math.max(0, Math.min(wanted, this.room()));
  }
}
