// Fixed one-minute windows per key (per remote address without a valid key) (docs/api.md, Rate limits).
// A window opens with a bucket's first request and closes 60 s later.
const WINDOW_MS = 60_000;

interface Window {
  start: number;
  count: number;
}

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
  retryAfter: number;
  resetAt: string;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled(): boolean {
    return this.perMinute > 0;
  }

  take(bucket: string): RateDecision {
    const now = this.now();
    let w = this.windows.get(bucket);
    if (!w || now - w.start >= WINDOW_MS) {
      w = { start: now, count: 0 };
      this.windows.set(bucket, w);
      if (this.windows.size > 10_000) this.sweep(now);
    }
    w.count++;
    const reset = w.start + WINDOW_MS;
    const resetAt = new Date(reset).toISOString();
    const allowed = w.count <= this.perMinute;
    const retryAfter = Math.max(1, Math.ceil((reset - now) / 1000));
    const headers: Record<string, string> = {
      'x-ratelimit-limit-minute': String(this.perMinute),
      'x-ratelimit-remaining-minute': String(Math.max(0, this.perMinute - w.count)),
      'x-ratelimit-reset-minute': resetAt,
    };
    if (!allowed) headers['retry-after'] = String(retryAfter);
    return { allowed, headers, retryAfter, resetAt };
  }

  private sweep(now: number): void {
    for (const [bucket, w] of this.windows) if (now - w.start >= WINDOW_MS) this.windows.delete(bucket);
  }
}
