// Several calls at once (src/api/together.ts, what the kill switch sends its pauses with): at most
// AT_ONCE in flight, results in the calls' order, and the calls a 429 refused waiting once together
// for the longest Retry-After among them, within the client's budget. Waits go to a fake `sleep`.
import { describe, expect, it } from 'vitest';
import * as errors from '../../src/api/errors.js';
import { AT_ONCE } from '../../src/api/transport.js';
import { together } from '../../src/api/together.js';
import { InterruptedError } from '../../src/core/errors.js';
import { httpHarness, type Handler } from '../helpers/http-scripted.js';

const h = httpHarness();

/**
 * Answers POST /n/<i>: 429 with `refuse(i, nth)` seconds when
 * that gives a number, else 200 {i}; counts what is in flight.
 */
function server(refuse: (i: number, nth: number) => number | undefined, delayMs = 20) {
  const asked = new Map<number, number>();
  const seen = { inFlight: 0, most: 0 };
  const handler: Handler = (req, res) => {
    const i = Number(req.url!.split('/').pop());
    const nth = (asked.get(i) ?? 0) + 1;
    asked.set(i, nth);
    seen.inFlight++;
    seen.most = Math.max(seen.most, seen.inFlight);
    setTimeout(() => {
      seen.inFlight--;
      const secs = refuse(i, nth);
      if (secs === undefined)
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ i }));
      res
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': String(secs) })
        .end(JSON.stringify({ statusCode: 429, message: 'Rate limit exceeded' }));
    }, delayMs);
  };
  return { handler, seen };
}

const calls = (client: ReturnType<typeof h.client>['client'], n: number) =>
  Array.from(
    { length: n },
    (_, i) => (o: { waitOnRateLimit: boolean }) =>
      client.json<{ i: number }>({ method: 'POST', path: `/n/${i}`, ...o }),
  );

describe('together', () => {
  it(
    `12 calls: ${AT_ONCE} in flight at once (the server answers ` +
      `none before it holds ${AT_ONCE}), results in order`,
    async () => {
      const held: Array<() => void> = [];
      let arrived = 0;
      let most = 0;
      const s = await h.scripted((req, res) => {
        arrived++;
        held.push(() =>
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ i: Number(req.url!.split('/').pop()) })),
        );
        most = Math.max(most, held.length);
        // fewer in flight than AT_ONCE would wait here for ever (the test's time-out)
        if (held.length === AT_ONCE || arrived === 12) for (const answer of held.splice(0)) answer();
      });
      const c = h.client(s.url);
      const results = await together(c.client, calls(c.client, 12));
      expect(results.map((r) => (r.status === 'fulfilled' ? r.value.i : r.reason))).toEqual([...Array(12).keys()]);
      expect(most).toBe(AT_ONCE);
    },
  );

  it('the calls a 429 refused wait once, for the longest Retry-After among them, then go again together', async () => {
    const s = await h.scripted(server((i, nth) => (nth === 1 && i % 2 === 0 ? (i === 4 ? 7 : 5) : undefined)).handler);
    const c = h.client(s.url);
    const results = await together(c.client, calls(c.client, 6));
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(c.waits).toEqual([7000]);
    expect(c.notices).toEqual([
      'Rate limited by the service; waiting 7 s (its Retry-After) before ' +
        'retrying (1 of 3; this command waits at most 60 s in all)',
    ]);
    // the first round whole, then only the three refused
    expect(
      s.requests
        .slice(0, 6)
        .map((r) => r.url)
        .sort(),
    ).toEqual(['/n/0', '/n/1', '/n/2', '/n/3', '/n/4', '/n/5']);
    expect(
      s.requests
        .slice(6)
        .map((r) => r.url)
        .sort(),
    ).toEqual(['/n/0', '/n/2', '/n/4']);
  });

  it(
    'no room left in the budget: the refused calls fail at ' + 'once with the real Retry-After, the others stand',
    async () => {
      const s = await h.scripted(server((i) => (i === 1 ? 45 : undefined)).handler);
      const c = h.client(s.url, { retry: { rateLimitWaitMs: 30_000 } });
      const [first, second] = await together(c.client, calls(c.client, 2));
      expect(first).toEqual({ status: 'fulfilled', value: { i: 0 } });
      const reason = (second as PromiseRejectedResult).reason;
      expect([reason.constructor, reason.retryAfter, reason.hint]).toEqual([
        errors.RateLimitError,
        45,
        'the service asks to wait 45 s before trying again: more than is ' +
          'left of the 30 s this command may wait on rate limits',
      ]);
      expect([c.waits, s.requests]).toEqual([[], expect.any(Array)]);
      expect(s.requests).toHaveLength(2);
    },
  );

  it('Ctrl-C during the wait ends it: the interruption, not a failure per call', async () => {
    const s = await h.scripted(server(() => 5).handler);
    const c = h.client(s.url, {
      sleep: async () => {
        throw new InterruptedError();
      },
    });
    await expect(together(c.client, calls(c.client, 3))).rejects.toBeInstanceOf(InterruptedError);
  });
});
