// Pacing a run of many requests (`apply` on a fleet) to the service's limit of requests a minute
// (docs/api.md, Rate limits), so it never meets a 429 of its own making. The window slides over the times the
// answers came back: the service counted each request before answering it, so a request sent a full
// window after the previous answer can never share a fixed window of the service with it.

export interface Pacer {
  /** waits, if need be, before a request is sent (every attempt counts, retries too) */
  beforeRequest(signal?: AbortSignal): Promise<void>;
  /** the request was answered (or failed) */
  afterRequest(): void;
}

export interface PacerClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const RATE_WINDOW_MS = 60_000;

export class RateBudget implements Pacer {
  private readonly answered: number[] = [];
  private inFlight = 0;
  /** requests sent through this budget */
  sent = 0;

  constructor(
    readonly perMinute: number,
    private readonly clock: PacerClock,
    /** told before each wait, with its length (the caller may change who is told) */
    public onWait?: (ms: number) => void,
  ) {}

  /** How long the next request must wait, from now. */
  waitMs(): number {
    const now = this.clock.now();
    while (this.answered.length > 0 && now - this.answered[0]! >= RATE_WINDOW_MS) this.answered.shift();
    // with nothing answered yet there is nothing to wait for (requests go one at a time)
    if (this.answered.length === 0 || this.answered.length + this.inFlight < this.perMinute) return 0;
    return this.answered[0]! + RATE_WINDOW_MS - now;
  }

  /** How many requests may be sent now without waiting (a live view plans on it and never waits). */
  room(): number {
    if (this.waitMs() > 0) return 0;
    return Math.max(0, this.perMinute - this.answered.length - this.inFlight);
  }

  async beforeRequest(signal?: AbortSignal): Promise<void> {
    for (let wait = this.waitMs(); wait > 0; wait = this.waitMs()) {
      this.onWait?.(wait);
      await this.clock.sleep(wait, signal);
    }
    this.inFlight++;
    this.sent++;
  }

  afterRequest(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.answered.push(this.clock.now());
  }
}

/**
 * A budget that the kill switch never waits on: reads are paced to the budget less a reserve kept for
 * pauses, and work run through `first` (a pause, a resume a person asked for) goes at once and is counted
 * all the same, so the reads that follow give way to it. Used by the commands that watch a fleet.
 */
export class KillSwitchPacer implements Pacer {
  readonly reads: RateBudget;
  private urgent = 0;

  constructor(
    /** the whole budget, the reserve included */
    readonly perMinute: number,
    clock: PacerClock,
  ) {
    const reserve = Math.min(5, Math.floor(perMinute / 5));
    this.reads = new RateBudget(Math.max(1, perMinute - reserve), clock);
  }

  /** `work` with its requests sent at once, whatever the budget says. */
  async first<T>(work: () => Promise<T>): Promise<T> {
    this.urgent++;
    try {
      return await work();
    } finally {
      this.urgent--;
    }
  }

  async beforeRequest(signal?: AbortSignal): Promise<void> {
    if (this.urgent > 0) this.reads.sent++;
    else await this.reads.beforeRequest(signal);
  }

  afterRequest(): void {
    this.reads.afterRequest();
  }
}
