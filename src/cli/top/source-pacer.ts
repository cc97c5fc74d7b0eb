// How the fleet view spends the chain sources' patience: at most SOURCE_BUDGET requests a minute to
// each source host (sliding over the last minute, every request counted as it goes). An agent's read
// starts only when every host it was seen to use has room for what such a read costs (the most one has
// sent there); before the first read is over, one read at a time. A host that answered 429 gets nothing
// for a minute. The public sources throttle a watcher that reads every agent at every refresh.
import { hostOf } from '../../api/money/source-http.js';
import type { JsonRequest } from '../../api/money/types.js';

/**
 * Requests a minute to one source host. Hyperliquid's public API allows 1200 "weight" a minute an IP
 * address, 2 to 20 a request (about 10 on average for an agent's read); the embedded service's /sim
 * allows 600 a minute a client.
 */
export const SOURCE_BUDGET = 120;
/** the same when every source read is the embedded service's own simulation (600 a minute a client) */
export const SIMULATION_SOURCE_BUDGET = 480;
const WINDOW_MS = 60_000;
/** after a 429 the host is left alone this long */
const BACKOFF_MS = 60_000;

export interface SourceRead {
  /** the source requests of this read, counted (and a 429 noted) */
  wrapJson(json: JsonRequest): JsonRequest;
  /** the read is over: what it did not send is given back */
  end(): void;
}

export class SourcePacer {
  private readonly times = new Map<string, number[]>();
  /** requests promised to reads under way, not sent yet */
  private readonly held = new Map<string, number>();
  /** the most requests one agent's read has sent to each host */
  private readonly cost = new Map<string, number>();
  private readonly limitedUntil = new Map<string, number>();
  private active = 0;

  constructor(
    readonly perMinute: number,
    private readonly clock: { now(): number },
  ) {}

  /**
   * How long until `cost` more requests to `host` fit in the last `windowMs` (null: not before a read under
   * way ends). A read costlier than the window's limit goes alone in it.
   */
  private windowWait(host: string, cost: number, windowMs: number, limit: number, now: number): number | null {
    const times = (this.times.get(host) ?? []).filter((t) => now - t < windowMs);
    const used = times.length + (this.held.get(host) ?? 0);
    const over = cost > limit ? used : used + cost - limit;
    if (over <= 0) return 0;
    // the oldest requests leave the window first; held ones only when their read ends
    if (over > times.length) return null;
    return times[over - 1]! + windowMs - now;
  }

  /**
   * How long until one more agent's read fits (0: now; null: not before a read under way ends). `spread`
   * (a live view): a sixth of the budget in any ten seconds too, so the reads spread over the minute
   * rather than all at its start; a one-off snapshot takes the minute's budget at once.
   */
  waitMs(spread = false): number | null {
    const now = this.clock.now();
    if (this.cost.size === 0) return this.active > 0 ? null : 0;
    let wait = 0;
    for (const [host, cost] of this.cost) {
      const times = this.times.get(host) ?? [];
      while (times.length > 0 && now - times[0]! >= WINDOW_MS) times.shift();
      wait = Math.max(wait, (this.limitedUntil.get(host) ?? 0) - now);
      const windows: Array<[number, number]> = [[WINDOW_MS, this.perMinute]];
      if (spread) windows.push([WINDOW_MS / 6, Math.ceil(this.perMinute / 6)]);
      for (const [windowMs, limit] of windows) {
        const w = this.windowWait(host, cost, windowMs, limit, now);
        if (w === null) return null;
        wait = Math.max(wait, w);
      }
    }
    return wait;
  }

  /** One agent's read, its expected requests held from the budget until it ends. */
  begin(): SourceRead {
    this.active++;
    const left = new Map(this.cost);
    for (const [host, n] of left) this.held.set(host, (this.held.get(host) ?? 0) + n);
    const sent = new Map<string, number>();
    let open = true;
    return {
      wrapJson: (json) => async (req) => {
        const host = hostOf(req.url);
        const times = this.times.get(host) ?? [];
        times.push(this.clock.now());
        this.times.set(host, times);
        sent.set(host, (sent.get(host) ?? 0) + 1);
        const mine = left.get(host) ?? 0;
        if (open && mine > 0) {
          left.set(host, mine - 1);
          this.held.set(host, (this.held.get(host) ?? 1) - 1);
        }
        try {
          return await json(req);
        } catch (err) {
          if (err instanceof Error && isRateLimited(err.message))
            this.limitedUntil.set(host, this.clock.now() + BACKOFF_MS);
          throw err;
        }
      },
      end: () => {
        if (!open) return;
        open = false;
        this.active--;
        for (const [host, n] of left) this.held.set(host, Math.max(0, (this.held.get(host) ?? 0) - n));
        for (const [host, n] of sent) this.cost.set(host, Math.max(this.cost.get(host) ?? 0, n));
      },
    };
  }
}

/** A source's 429, as source-http.ts words it. */
export function isRateLimited(message: string): boolean {
  return / answered 429\b/.test(message);
}
