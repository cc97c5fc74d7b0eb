// Whether to send a request again, and after how long: a pure function of the method, what came
// back, and what was already spent, so every row of the policy is tested as a table
// (test/unit/retry.test.ts). 429 for any method (the request was refused, not processed), honouring
// Retry-After within one budget of waiting for the whole command (a kill switch must not wait 20 s
// per agent); connection failures and 502/503/504 only for methods that are safe to repeat, with
// backoff 0.5 s·2ⁿ capped at 8 s and up to −25 % jitter; never anything else.

export interface RetryPolicy {
  /** 429: at most this many retries… */
  rateLimitRetries: number;
  /** …and this much waiting in all, over every request of one command (its client) */
  rateLimitWaitMs: number;
  /** connection errors and 502/503/504 on GET, PUT, DELETE */
  retries: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { rateLimitRetries: 3, rateLimitWaitMs: 60_000, retries: 2 };

/** What the attempts so far have spent (`rateLimitWaitedMs`: the whole command's). */
export interface Spent {
  rateLimitRetries: number;
  rateLimitWaitedMs: number;
  retries: number;
}

export const NOTHING_SPENT: Spent = { rateLimitRetries: 0, rateLimitWaitedMs: 0, retries: 0 };

export type Outcome =
  | { kind: 'status'; status: number; retryAfterSeconds?: number }
  /**
   * no answer: refused, reset, DNS; a time-out is never repeated (the wait would double), nor a
   * failure that would be the same again (`lasting`: a certificate refused)
   */
  | { kind: 'connection'; timedOut: boolean; lasting?: boolean; message: string };

export type Decision =
  /** `overBudget`: a 429 whose wait the command's budget has no room for (said in the error) */
  | { retry: false; overBudget?: true }
  | { retry: true; waitMs: number; spent: Spent; rateLimited: boolean; notice: string };

const IDEMPOTENT = new Set(['GET', 'PUT', 'DELETE']);
const RETRY_STATUSES = new Set([502, 503, 504]);

export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(8000, 500 * 2 ** attempt);
  return Math.round(base * (1 - random() * 0.25));
}

export function decideRetry(
  method: string,
  outcome: Outcome,
  spent: Spent,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  random: () => number = Math.random,
): Decision {
  if (outcome.kind === 'status' && outcome.status === 429) {
    const secs = Math.max(0, outcome.retryAfterSeconds ?? 1);
    const waitMs = secs * 1000;
    if (spent.rateLimitRetries >= policy.rateLimitRetries) return { retry: false };
    // past the budget the wait is not begun: the command fails at once, saying how long the service asked for
    if (spent.rateLimitWaitedMs + waitMs > policy.rateLimitWaitMs) return { retry: false, overBudget: true };
    const n = spent.rateLimitRetries + 1;
    const asked = outcome.retryAfterSeconds === undefined ? '' : ' (its Retry-After)';
    const inAll = `this command waits at most ${policy.rateLimitWaitMs / 1000} s in all`;
    const count = `${n} of ${policy.rateLimitRetries}; ${inAll}`;
    return {
      retry: true,
      waitMs,
      rateLimited: true,
      spent: { ...spent, rateLimitRetries: n, rateLimitWaitedMs: spent.rateLimitWaitedMs + waitMs },
      notice: `Rate limited by the service; waiting ${secs} s${asked} before retrying (${count})`,
    };
  }
  if (!IDEMPOTENT.has(method) || spent.retries >= policy.retries) return { retry: false };
  let why: string;
  if (outcome.kind === 'connection') {
    if (outcome.timedOut || outcome.lasting) return { retry: false };
    why = outcome.message;
  } else if (RETRY_STATUSES.has(outcome.status)) {
    why = `The service answered ${outcome.status}`;
  } else {
    return { retry: false };
  }
  const waitMs = backoffMs(spent.retries, random);
  return {
    retry: true,
    waitMs,
    rateLimited: false,
    spent: { ...spent, retries: spent.retries + 1 },
    notice: `${why}; retrying in ${(waitMs / 1000).toFixed(1)} s`,
  };
}

/** Seconds to wait from a 429: the Retry-After header (seconds or a date), else the body's retryAfter, else 1. */
export function retryAfterSeconds(header: string | undefined, body: unknown, now: number): number {
  // a delay is digits (a fraction tolerated); anything else, '-5' or '' among them, is no delay at all
  if (header !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(header)) return Number(header);
  const date = header === undefined || /^\s*-?[\d.]*\s*$/.test(header) ? NaN : Date.parse(header);
  if (!Number.isNaN(date)) return Math.max(0, Math.ceil((date - now) / 1000));
  const fromBody = (body as { retryAfter?: unknown } | null)?.retryAfter;
  return typeof fromBody === 'number' && Number.isFinite(fromBody) && fromBody >= 0 ? fromBody : 1;
}
