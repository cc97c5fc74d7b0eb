// The retry policy (docs/api.md, Rules the client follows: Retries) as the pure function
// src/api/retry.ts: every method × outcome × budget row, the backoff with a fixed `random`, and where a
// 429's wait comes from.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RETRY_POLICY,
  NOTHING_SPENT,
  backoffMs,
  decideRetry,
  retryAfterSeconds,
  type Decision,
  type Outcome,
  type RetryPolicy,
  type Spent,
} from '../../src/api/retry.js';

const METHODS = ['GET', 'PUT', 'DELETE', 'POST', 'PATCH'] as const;
/** safe to send twice: the only methods retried after a failure that may have reached the service */
const IDEMPOTENT = new Set(['GET', 'PUT', 'DELETE']);

const status = (s: number, retryAfterSeconds?: number): Outcome => ({ kind: 'status', status: s, retryAfterSeconds });
const REFUSED_MESSAGE = 'cannot reach http://127.0.0.1:9/v1/superagents: connection refused';
const REFUSED: Outcome = { kind: 'connection', timedOut: false, message: REFUSED_MESSAGE };
const TIMED_OUT: Outcome = {
  kind: 'connection',
  timedOut: true,
  message: 'no answer from http://127.0.0.1:9/v1/superagents within 30 s',
};

const spent = (over: Partial<Spent> = {}): Spent => ({ ...NOTHING_SPENT, ...over });
/** no jitter: the wait is the base backoff exactly */
const NO_JITTER = () => 0;

const decide = (
  method: string,
  outcome: Outcome,
  s: Spent = NOTHING_SPENT,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
) => decideRetry(method, outcome, s, policy, NO_JITTER);

it('the default policy: three 429 retries within 60 s of waiting, two retries of other failures', () => {
  expect(DEFAULT_RETRY_POLICY).toEqual({ rateLimitRetries: 3, rateLimitWaitMs: 60_000, retries: 2 });
  expect(NOTHING_SPENT).toEqual({ rateLimitRetries: 0, rateLimitWaitedMs: 0, retries: 0 });
});

describe('decideRetry: every method × outcome, nothing spent yet', () => {
  type Who = 'every method' | 'GET, PUT, DELETE' | 'none';
  const ROWS: Array<[string, Outcome, Who, Decision | null]> = [
    // 429: the request was refused, not processed, so any method may be sent again
    [
      '429 Retry-After 1',
      status(429, 1),
      'every method',
      {
        retry: true,
        waitMs: 1000,
        rateLimited: true,
        spent: spent({ rateLimitRetries: 1, rateLimitWaitedMs: 1000 }),
        notice:
          'Rate limited by the service; waiting 1 s (its Retry-After) before ' +
          'retrying (1 of 3; this command waits at most 60 s in all)',
      },
    ],
    [
      '429 without Retry-After',
      status(429),
      'every method',
      {
        retry: true,
        waitMs: 1000,
        rateLimited: true,
        spent: spent({ rateLimitRetries: 1, rateLimitWaitedMs: 1000 }),
        notice:
          'Rate limited by the service; waiting 1 s before retrying (1 of 3; this command waits at most 60 s in all)',
      },
    ],
    [
      '429 Retry-After 0',
      status(429, 0),
      'every method',
      {
        retry: true,
        waitMs: 0,
        rateLimited: true,
        spent: spent({ rateLimitRetries: 1 }),
        notice:
          'Rate limited by the service; waiting 0 s (its Retry-After) before ' +
          'retrying (1 of 3; this command waits at most 60 s in all)',
      },
    ],
    [
      '429 Retry-After below 0',
      status(429, -5),
      'every method',
      {
        retry: true,
        waitMs: 0,
        rateLimited: true,
        spent: spent({ rateLimitRetries: 1 }),
        notice:
          'Rate limited by the service; waiting 0 s (its Retry-After) before ' +
          'retrying (1 of 3; this command waits at most 60 s in all)',
      },
    ],
    [
      '429 Retry-After 60 (the whole budget)',
      status(429, 60),
      'every method',
      {
        retry: true,
        waitMs: 60_000,
        rateLimited: true,
        spent: spent({ rateLimitRetries: 1, rateLimitWaitedMs: 60_000 }),
        notice:
          'Rate limited by the service; waiting 60 s (its Retry-After) before ' +
          'retrying (1 of 3; this command waits at most 60 s in all)',
      },
    ],
    // a wait the budget has no room for is not begun, and the caller is told why
    ['429 Retry-After 61 (over the budget)', status(429, 61), 'every method', { retry: false, overBudget: true }],
    // the gateway's answers and no answer at all: only where sending twice is safe
    [
      '502',
      status(502),
      'GET, PUT, DELETE',
      {
        retry: true,
        waitMs: 500,
        rateLimited: false,
        spent: spent({ retries: 1 }),
        notice: 'The service answered 502; retrying in 0.5 s',
      },
    ],
    [
      '503',
      status(503),
      'GET, PUT, DELETE',
      {
        retry: true,
        waitMs: 500,
        rateLimited: false,
        spent: spent({ retries: 1 }),
        notice: 'The service answered 503; retrying in 0.5 s',
      },
    ],
    [
      '504',
      status(504),
      'GET, PUT, DELETE',
      {
        retry: true,
        waitMs: 500,
        rateLimited: false,
        spent: spent({ retries: 1 }),
        notice: 'The service answered 504; retrying in 0.5 s',
      },
    ],
    [
      'connection refused',
      REFUSED,
      'GET, PUT, DELETE',
      {
        retry: true,
        waitMs: 500,
        rateLimited: false,
        spent: spent({ retries: 1 }),
        notice: `${REFUSED_MESSAGE}; retrying in 0.5 s`,
      },
    ],
    // a time-out already waited the whole limit: never again
    ['a time-out', TIMED_OUT, 'none', null],
    // a certificate refused is refused again
    [
      'a certificate refused',
      {
        kind: 'connection',
        timedOut: false,
        lasting: true,
        message: 'cannot connect securely to https://h/v1/superagents: its certificate has expired',
      },
      'none',
      null,
    ],
    // every other answer stands
    ...[200, 201, 204, 400, 401, 403, 404, 408, 409, 413, 415, 422, 500, 501, 505, 599].map(
      (s): [string, Outcome, Who, null] => [String(s), status(s), 'none', null],
    ),
  ];

  const cases = ROWS.flatMap(([label, outcome, who, decision]) =>
    METHODS.map((method) => {
      const retried = who === 'every method' || (who === 'GET, PUT, DELETE' && IDEMPOTENT.has(method));
      return [method, label, outcome, retried ? decision! : { retry: false }] as const;
    }),
  );

  it.each(cases)('%s, %s', (method, _label, outcome, expected) => {
    expect(decide(method, outcome)).toEqual(expected);
  });
});

describe('decideRetry: budgets', () => {
  it.each<[string, Outcome, Spent, RetryPolicy, Decision | { retry: true; waitMs: number }]>([
    [
      '429, two retries spent: the third and last',
      status(429, 1),
      spent({ rateLimitRetries: 2, rateLimitWaitedMs: 2000 }),
      DEFAULT_RETRY_POLICY,
      { retry: true, waitMs: 1000 },
    ],
    [
      '429, three retries spent',
      status(429, 1),
      spent({ rateLimitRetries: 3, rateLimitWaitedMs: 3000 }),
      DEFAULT_RETRY_POLICY,
      { retry: false },
    ],
    [
      '429, the wait reaching 60 s exactly',
      status(429, 30),
      spent({ rateLimitRetries: 1, rateLimitWaitedMs: 30_000 }),
      DEFAULT_RETRY_POLICY,
      { retry: true, waitMs: 30_000 },
    ],
    [
      '429, the wait passing 60 s',
      status(429, 30),
      spent({ rateLimitRetries: 2, rateLimitWaitedMs: 60_000 }),
      DEFAULT_RETRY_POLICY,
      { retry: false, overBudget: true },
    ],
    [
      '429, a second more than the budget',
      status(429, 2),
      spent({ rateLimitRetries: 1, rateLimitWaitedMs: 59_000 }),
      DEFAULT_RETRY_POLICY,
      { retry: false, overBudget: true },
    ],
    [
      '429, other retries spent do not count',
      status(429, 1),
      spent({ retries: 2 }),
      DEFAULT_RETRY_POLICY,
      { retry: true, waitMs: 1000 },
    ],
    [
      '429, a policy of no rate-limit retries',
      status(429, 1),
      NOTHING_SPENT,
      { ...DEFAULT_RETRY_POLICY, rateLimitRetries: 0 },
      { retry: false },
    ],
    [
      '429, a smaller wait budget',
      status(429, 6),
      NOTHING_SPENT,
      { ...DEFAULT_RETRY_POLICY, rateLimitWaitMs: 5000 },
      { retry: false, overBudget: true },
    ],
    [
      '503, one retry spent: the second, after 1 s',
      status(503),
      spent({ retries: 1 }),
      DEFAULT_RETRY_POLICY,
      { retry: true, waitMs: 1000 },
    ],
    ['503, two retries spent', status(503), spent({ retries: 2 }), DEFAULT_RETRY_POLICY, { retry: false }],
    [
      '503, rate-limit retries spent do not count',
      status(503),
      spent({ rateLimitRetries: 3, rateLimitWaitedMs: 60_000 }),
      DEFAULT_RETRY_POLICY,
      { retry: true, waitMs: 500 },
    ],
    [
      '503, a policy of no retries',
      status(503),
      NOTHING_SPENT,
      { ...DEFAULT_RETRY_POLICY, retries: 0 },
      { retry: false },
    ],
    [
      '503, a policy of five retries, four spent',
      status(503),
      spent({ retries: 4 }),
      { ...DEFAULT_RETRY_POLICY, retries: 5 },
      { retry: true, waitMs: 8000 },
    ],
    ['refused, two retries spent', REFUSED, spent({ retries: 2 }), DEFAULT_RETRY_POLICY, { retry: false }],
  ])('GET, %s', (_what, outcome, s, policy, expected) => {
    const d = decide('GET', outcome, s, policy);
    expect(d.retry ? { retry: true, waitMs: d.waitMs } : d).toEqual(expected);
  });

  it('the notice counts the 429 retries against the policy', () => {
    const d = decide('POST', status(429, 2), spent({ rateLimitRetries: 2, rateLimitWaitedMs: 4000 }));
    expect(d).toEqual({
      retry: true,
      waitMs: 2000,
      rateLimited: true,
      spent: spent({ rateLimitRetries: 3, rateLimitWaitedMs: 6000 }),
      notice:
        'Rate limited by the service; waiting 2 s (its Retry-After) before ' +
        'retrying (3 of 3; this command waits at most 60 s in all)',
    });
  });

  /** Feeds the same outcome until the policy gives up: the waits it asked for. */
  function waitsUntilGivenUp(method: string, outcome: Outcome, policy = DEFAULT_RETRY_POLICY): number[] {
    const waits: number[] = [];
    let s = NOTHING_SPENT;
    for (let d = decide(method, outcome, s, policy); d.retry; d = decide(method, outcome, s, policy)) {
      waits.push(d.waitMs);
      s = d.spent;
      expect(waits.length).toBeLessThan(20);
    }
    return waits;
  }

  it.each<[string, string, Outcome, number[]]>([
    ['four 429s of 1 s: three retries', 'GET', status(429, 1), [1000, 1000, 1000]],
    ['429s of 30 s: two retries (a third would pass 60 s)', 'POST', status(429, 30), [30_000, 30_000]],
    ['429s of 61 s: none', 'GET', status(429, 61), []],
    ['502s on GET: two retries, 0.5 s then 1 s', 'GET', status(502), [500, 1000]],
    ['refused on DELETE: two retries', 'DELETE', REFUSED, [500, 1000]],
    ['503s on POST: none', 'POST', status(503), []],
    ['a time-out on GET: none', 'GET', TIMED_OUT, []],
  ])('%s', (_what, method, outcome, waits) => {
    expect(waitsUntilGivenUp(method, outcome)).toEqual(waits);
  });
});

describe('backoff: 0.5 s·2ⁿ, at most 8 s, less up to a quarter of jitter', () => {
  it.each<[number, number, number, number]>([
    // attempt, no jitter, half jitter, full jitter
    [0, 500, 438, 375],
    [1, 1000, 875, 750],
    [2, 2000, 1750, 1500],
    [3, 4000, 3500, 3000],
    [4, 8000, 7000, 6000],
    [5, 8000, 7000, 6000],
    [10, 8000, 7000, 6000],
  ])('attempt %i: %i ms, %i ms, %i ms', (attempt, none, half, full) => {
    expect([backoffMs(attempt, () => 0), backoffMs(attempt, () => 0.5), backoffMs(attempt, () => 0.999999)]).toEqual([
      none,
      half,
      full,
    ]);
  });

  it('decideRetry waits the backoff of the retries spent, with the jitter of `random`', () => {
    const d = decideRetry('GET', status(503), spent({ retries: 1 }), DEFAULT_RETRY_POLICY, () => 0.5);
    expect(d).toMatchObject({ retry: true, waitMs: 875, notice: 'The service answered 503; retrying in 0.9 s' });
  });

  it('a 429 waits what the service asked for, with no jitter', () => {
    expect(decideRetry('GET', status(429, 3), NOTHING_SPENT, DEFAULT_RETRY_POLICY, () => 0.9)).toMatchObject({
      waitMs: 3000,
    });
  });
});

describe('retryAfterSeconds: how long a 429 asks to wait', () => {
  const NOW = Date.parse('2026-11-22T12:00:00Z');

  it.each<[string, string | undefined, unknown, number, number]>([
    ['whole seconds', '5', undefined, NOW, 5],
    ['zero', '0', undefined, NOW, 0],
    ['a fraction', '1.5', undefined, NOW, 1.5],
    // not a delay (RFC 9110 allows digits only): as no header, so a lying service is not asked again at once
    ['below zero: as no header', '-3', undefined, NOW, 1],
    ['empty: as no header', '', undefined, NOW, 1],
    ['below zero, with a body: the body’s', '-5', { retryAfter: 4 }, NOW, 4],
    ['an HTTP date 10 s ahead', 'Sun, 22 Nov 2026 12:00:10 GMT', undefined, NOW, 10],
    ['an HTTP date, rounded up', 'Sun, 22 Nov 2026 12:00:10 GMT', undefined, NOW + 500, 10],
    ['an HTTP date in the past', 'Sun, 22 Nov 2026 11:59:00 GMT', undefined, NOW, 0],
    ['the header wins over the body', '2', { retryAfter: 9 }, NOW, 2],
    [
      'no header: the body’s retryAfter',
      undefined,
      { statusCode: 429, message: 'Rate limit exceeded', retryAfter: 7 },
      NOW,
      7,
    ],
    ['a header that is neither: the body’s', 'soon', { retryAfter: 3 }, NOW, 3],
    ['a body retryAfter below zero: 1 s', undefined, { retryAfter: -2 }, NOW, 1],
    ['a body retryAfter that is text', undefined, { retryAfter: '7' }, NOW, 1],
    ['nothing: 1 s', undefined, undefined, NOW, 1],
    ['a body of null: 1 s', undefined, null, NOW, 1],
    ['a body of text: 1 s', undefined, 'Too Many Requests', NOW, 1],
    ['a header that is neither, and no body: 1 s', 'soon', undefined, NOW, 1],
  ])('%s', (_what, header, body, now, seconds) => {
    expect(retryAfterSeconds(header, body, now)).toBe(seconds);
  });
});
