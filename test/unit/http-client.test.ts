// The ApiClient over node:http against scripted loopback servers: what it sends, the typed error for
// each status, retries as src/api/retry.ts decides (waits recorded by a fake `sleep`, announced by
// `notice`), and base URLs that are not the service. Failures without an answer are in
// http-client-failures.test.ts, the --debug trace in http-trace.test.ts.
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import * as errors from '../../src/api/errors.js';
import { exitCodeFor } from '../../src/cli/exit-codes.js';
import { BadAnswerError } from '../../src/core/errors.js';
import { AFTER_POST, KEY, failure, get, httpHarness, post, sequence, type Answer } from '../helpers/http-scripted.js';

const h = httpHarness();

describe('ApiClient: requests and answers', () => {
  it('sends the key as a Bearer header, JSON in, and parses JSON out', async () => {
    const s = await h.scripted(sequence({ status: 201, body: { agent_id: 'x1', ok: true } }));
    const { client } = h.client(s.url);
    const out = await client.json<{ agent_id: string }>({
      method: 'POST',
      path: '/v1/superagents',
      body: { name: 'bot', n: 2 },
    });
    expect(out).toEqual({ agent_id: 'x1', ok: true });
    expect(s.requests).toHaveLength(1);
    const r = s.requests[0]!;
    expect([r.method, r.url]).toEqual(['POST', '/v1/superagents']);
    expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers.accept).toBe('application/json');
    expect(r.headers['user-agent']).toBe('superagent-test/1.0');
    expect(JSON.parse(r.body)).toEqual({ name: 'bot', n: 2 });
  });

  it.each([
    ['/prefix/', '/v1/superagents', '/prefix/v1/superagents'],
    ['/prefix', '/v1/superagents', '/prefix/v1/superagents'],
    ['/a/b/', '/v1/superagents/x/files', '/a/b/v1/superagents/x/files'],
    ['', '/v1/classic?limit=10&cursor=a%2Fb', '/v1/classic?limit=10&cursor=a%2Fb'],
    ['/prefix', '/v1/classic?limit=10', '/prefix/v1/classic?limit=10'],
  ])(
    'a base URL ending %j keeps its path; %s is sent as %s (a query string stays a query)',
    async (prefix, path, sent) => {
      const s = await h.scripted(sequence({ status: 200, body: [1, 2] }));
      const { client } = h.client(`${s.url}${prefix}`);
      expect(await client.json({ method: 'GET', path })).toEqual([1, 2]);
      expect(s.requests.map((r) => r.url)).toEqual([sent]);
    },
  );

  it('a GET sends no body and no content-type', async () => {
    const s = await h.scripted(sequence({ status: 200, body: {} }));
    await h.client(s.url).client.json(get());
    expect(s.requests[0]!.body).toBe('');
    expect(s.requests[0]!.headers['content-type']).toBeUndefined();
  });

  it('sends no authorization header without a key, and an empty answer is undefined', async () => {
    const s = await h.scripted(sequence({ status: 204 }));
    const { client } = h.client(s.url, { apiKey: null });
    expect(await client.json({ method: 'DELETE', path: '/v1/superagents/abc' })).toBeUndefined();
    expect(s.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('an answer that is not JSON comes back as its text', async () => {
    const s = await h.scripted(
      sequence({ status: 200, body: 'plain words', headers: { 'content-type': 'text/plain' } }),
    );
    expect(await h.client(s.url).client.json(get())).toBe('plain words');
  });
});

describe('ApiClient: each status is a typed error with the service message', () => {
  it.each<[number, typeof errors.ApiError, number]>([
    [400, errors.BadRequestError, 2],
    [413, errors.BadRequestError, 2],
    [415, errors.BadRequestError, 2],
    [422, errors.BadRequestError, 2],
    [401, errors.AuthError, 3],
    [403, errors.AuthError, 3],
    [404, errors.NotFoundError, 4],
    [409, errors.ConflictError, 6],
    [500, errors.ServerError, 7],
    [501, errors.ServerError, 7],
  ])('%i → %O, exit %i, sent once', async (status, cls, exit) => {
    const s = await h.scripted(
      sequence({
        status,
        body: { statusCode: status, message: `msg ${status}` },
        headers: { 'x-request-id': `req-${status}` },
      }),
    );
    const c = h.client(s.url);
    const err = await failure(c.client.json({ method: 'PATCH', path: '/v1/superagents/a' }));
    expect(err.constructor).toBe(cls);
    expect([err.message, err.status, err.requestId, exitCodeFor(err)]).toEqual([
      `msg ${status}`,
      status,
      `req-${status}`,
      exit,
    ]);
    expect(s.requests).toHaveLength(1);
    expect(c.waits).toEqual([]);
  });

  it('the 404 of a session and the 409 of a paused agent have classes of their own', async () => {
    const s = await h.scripted(
      sequence(
        { status: 404, body: { statusCode: 404, message: 'Session not found' } },
        { status: 409, body: { statusCode: 409, message: 'Agent is paused' } },
      ),
    );
    const { client } = h.client(s.url);
    expect(await failure(client.json(get()))).toBeInstanceOf(errors.SessionNotFoundError);
    expect(await failure(client.json(get()))).toBeInstanceOf(errors.AgentPausedError);
  });

  it('joins a NestJS message array; reads the upstream shape { error: { message, type } }, on a 500 too', async () => {
    const s = await h.scripted(
      sequence(
        { status: 400, body: { statusCode: 400, message: ['a', 'b'], error: 'Bad Request' } },
        { status: 400, body: { error: { message: 'x', type: 'y' } } },
        { status: 500, body: { error: { message: 'upstream exploded', type: 'server_error' } } },
      ),
    );
    const c = h.client(s.url);
    expect((await failure(c.client.json(post()))).message).toBe('a; b');
    expect((await failure(c.client.json(get()))).message).toBe('x');
    const e500 = await failure(c.client.json(get()));
    expect([e500.constructor, e500.message, exitCodeFor(e500)]).toEqual([errors.ServerError, 'upstream exploded', 7]);
    expect(s.requests).toHaveLength(3); // a 500 is not retried
    expect(c.waits).toEqual([]);
  });

  it('a 401 carries the login hint; a text body is the message; an empty body says the status', async () => {
    const s = await h.scripted(
      sequence(
        { status: 401, body: { statusCode: 401, message: 'Invalid or revoked API key' } },
        { status: 404, body: 'no such thing\n' },
        { status: 409 },
      ),
    );
    const { client } = h.client(s.url);
    const e401 = await failure(client.json(get()));
    expect([e401.message, e401.hint]).toEqual([
      'Invalid or revoked API key',
      "check the key: run 'superagent login', or set SUPERAGENT_API_KEY",
    ]);
    const e404 = await failure(client.json(get()));
    expect([e404.constructor, e404.message]).toEqual([errors.NotFoundError, 'no such thing']);
    const e409 = await failure(client.json(get()));
    expect([e409.constructor, e409.message]).toEqual([errors.ConflictError, 'the service answered 409']);
  });
});

describe('ApiClient: 429 waits Retry-After, for any method', () => {
  const limited = (
    secs: number | null,
    body: unknown = { statusCode: 429, message: 'Rate limit exceeded' },
  ): Answer => ({
    status: 429,
    body,
    headers: secs === null ? {} : { 'retry-after': String(secs) },
  });

  it.each(['GET', 'POST', 'PATCH'] as const)(
    '%s: waits the seconds asked, says so, and sends again',
    async (method) => {
      const s = await h.scripted(sequence(limited(2), { status: 200, body: { ok: 1 } }));
      const c = h.client(s.url);
      const body = method === 'GET' ? undefined : { name: 'a' };
      expect(await c.client.json({ method, path: '/v1/superagents', body })).toEqual({ ok: 1 });
      const sent = body ? '{"name":"a"}' : '';
      expect(s.requests.map((r) => [r.method, r.body])).toEqual([
        [method, sent],
        [method, sent],
      ]);
      expect(c.waits).toEqual([2000]);
      expect(c.notices).toEqual([
        'Rate limited by the service; waiting 2 s (its Retry-After) before ' +
          'retrying (1 of 3; this command waits at most 60 s in all)',
      ]);
    },
  );

  it('four 429s in a row: three retries, then RateLimitError (exit 5)', async () => {
    const s = await h.scripted(sequence(limited(1)));
    const c = h.client(s.url);
    const err = await failure(c.client.json(get()));
    expect(err).toBeInstanceOf(errors.RateLimitError);
    expect([err.status, exitCodeFor(err), err.message, err.retryAfter]).toEqual([429, 5, 'Rate limit exceeded', 1]);
    expect(err.hint).toBe('the service asks to wait 1 s before trying again');
    expect(s.requests).toHaveLength(4);
    expect(c.waits).toEqual([1000, 1000, 1000]);
    expect(c.notices).toHaveLength(3);
  });

  it('a Retry-After of 61 s ends at once (more than 60 s of waiting)', async () => {
    const s = await h.scripted(sequence(limited(61), { status: 200, body: {} }));
    const c = h.client(s.url);
    const err = await failure(c.client.json(get()));
    expect([exitCodeFor(err), err.retryAfter]).toEqual([5, 61]);
    expect(err.hint).toBe(
      'the service asks to wait 61 s before trying again: more than is ' +
        'left of the 60 s this command may wait on rate limits',
    );
    expect(s.requests).toHaveLength(1);
    expect([c.waits, c.notices]).toEqual([[], []]);
  });

  it('stops when the waits together would pass 60 s', async () => {
    const s = await h.scripted(sequence(limited(30), limited(30), limited(30), { status: 200, body: {} }));
    const c = h.client(s.url);
    expect(exitCodeFor(await failure(c.client.json(get())))).toBe(5);
    expect(s.requests).toHaveLength(3);
    expect(c.waits).toEqual([30_000, 30_000]);
  });

  it(
    'the waits of one client (one command) count together: ' + 'a later request gets only what is left of the 60 s',
    async () => {
      const s = await h.scripted(
        sequence(limited(30), { status: 200, body: { n: 1 } }, limited(40), { status: 200, body: { n: 2 } }),
      );
      const c = h.client(s.url);
      expect(await c.client.json(get())).toEqual({ n: 1 });
      const err = await failure(c.client.json(get()));
      expect([err.constructor, exitCodeFor(err), err.retryAfter]).toEqual([errors.RateLimitError, 5, 40]);
      expect(err.hint).toBe(
        'the service asks to wait 40 s before trying again: more than is ' +
          'left of the 60 s this command may wait on rate limits',
      );
      expect(c.waits).toEqual([30_000]);
      expect(s.requests).toHaveLength(3);
    },
  );

  it('a smaller budget (a shorter --timeout) is said in the notice and in the refusal', async () => {
    const s = await h.scripted(sequence(limited(4), limited(8), { status: 200, body: {} }));
    const c = h.client(s.url, { retry: { rateLimitWaitMs: 10_000 } });
    const err = await failure(c.client.json(get()));
    expect(c.notices).toEqual([
      'Rate limited by the service; waiting 4 s (its Retry-After) before ' +
        'retrying (1 of 3; this command waits at most 10 s in all)',
    ]);
    expect(err.hint).toBe(
      'the service asks to wait 8 s before trying again: more than is ' +
        'left of the 10 s this command may wait on rate limits',
    );
    expect(c.waits).toEqual([4000]);
  });

  it('without a Retry-After header, the body’s retryAfter; an HTTP date counts from the client’s clock', async () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    const s = await h.scripted(
      sequence(
        limited(null, { statusCode: 429, message: 'Rate limit exceeded', retryAfter: 3 }),
        { status: 429, headers: { 'retry-after': 'Sun, 22 Nov 2026 12:00:07 GMT' } },
        { status: 200, body: { ok: true } },
      ),
    );
    const c = h.client(s.url, { now: () => now });
    expect(await c.client.json(get())).toEqual({ ok: true });
    expect(c.waits).toEqual([3000, 7000]);
  });
});

describe('ApiClient: 502/503/504 are sent again only where that is safe', () => {
  it('GET: 503 then 200, after one announced backoff', async () => {
    const s = await h.scripted(
      sequence({ status: 503, body: { statusCode: 503, message: 'busy' } }, { status: 200, body: { ok: true } }),
    );
    const c = h.client(s.url);
    expect(await c.client.json(get())).toEqual({ ok: true });
    expect(s.requests).toHaveLength(2);
    expect(c.waits).toHaveLength(1);
    // 0.5 s less up to a quarter of jitter
    expect(c.waits[0]).toBeGreaterThanOrEqual(375);
    expect(c.waits[0]).toBeLessThanOrEqual(500);
    expect(c.notices).toEqual([`The service answered 503; retrying in ${(c.waits[0]! / 1000).toFixed(1)} s`]);
  });

  it.each(['PUT', 'DELETE'] as const)('%s: 502 then 200, the same body sent again', async (method) => {
    const s = await h.scripted(sequence({ status: 502 }, { status: 200, body: { done: method } }));
    const c = h.client(s.url);
    expect(await c.client.json({ method, path: '/v1/x', body: method === 'PUT' ? { a: 1 } : undefined })).toEqual({
      done: method,
    });
    expect(s.requests.map((r) => [r.method, r.body])).toEqual(
      method === 'PUT'
        ? [
            [method, '{"a":1}'],
            [method, '{"a":1}'],
          ]
        : [
            [method, ''],
            [method, ''],
          ],
    );
  });

  it('GET: 502 three times gives up after two retries: 0.5 s then 1 s, each less its jitter', async () => {
    const s = await h.scripted(sequence({ status: 502, body: { statusCode: 502, message: 'Bad Gateway' } }));
    const c = h.client(s.url);
    const err = await failure(c.client.json(get()));
    expect(s.requests).toHaveLength(3);
    expect([err.constructor, err.status, exitCodeFor(err)]).toEqual([errors.ServerError, 502, 7]);
    expect(c.waits).toHaveLength(2);
    expect(c.waits[0]).toBeGreaterThanOrEqual(375);
    expect(c.waits[0]).toBeLessThanOrEqual(500);
    expect(c.waits[1]).toBeGreaterThanOrEqual(750);
    expect(c.waits[1]).toBeLessThanOrEqual(1000);
  });

  it.each([0, 4])('the number of retries is configurable: %i', async (retries) => {
    const s = await h.scripted(sequence({ status: 504 }));
    const c = h.client(s.url, { retry: { retries } });
    expect(exitCodeFor(await failure(c.client.json(get())))).toBe(7);
    expect(s.requests).toHaveLength(retries + 1);
  });

  it.each([502, 503, 504])(
    'POST: a %i arrives exactly once; the error says it may have reached the service, with the after-POST hint',
    async (status) => {
      const s = await h.scripted(
        sequence({ status, body: { statusCode: status, message: 'busy' } }, { status: 201, body: {} }),
      );
      const c = h.client(s.url);
      const err = await failure(c.client.json(post()));
      expect(s.requests).toHaveLength(1);
      expect([c.waits, c.notices]).toEqual([[], []]);
      expect([err.constructor, err.status, exitCodeFor(err)]).toEqual([errors.ServerError, status, 7]);
      expect(err.message).toBe('busy; the request may have reached the service and was not repeated');
      expect(err.hint).toBe(AFTER_POST);
    },
  );

  it('POST without an after-POST hint: still says so, with the status hint', async () => {
    const s = await h.scripted(sequence({ status: 502 }));
    const err = await failure(h.client(s.url).client.json({ method: 'POST', path: '/v1/superagents/a/pause' }));
    expect(s.requests).toHaveLength(1);
    expect(err.message).toBe('the service answered 502; the request may have reached the service and was not repeated');
    expect(err.hint).toBe('the service is having trouble; try again shortly');
  });

  it('PATCH is not sent again either', async () => {
    const s = await h.scripted(sequence({ status: 504 }, { status: 200, body: {} }));
    const err = await failure(h.client(s.url).client.json({ method: 'PATCH', path: '/v1/x', body: {} }));
    expect(exitCodeFor(err)).toBe(7);
    expect(s.requests).toHaveLength(1);
  });
});

describe('ApiClient: a base URL that is not the service', () => {
  it.each([301, 302, 307, 308])(
    'a %i redirect is not followed: NotTheServiceError naming where it points',
    async (status) => {
      const s = await h.scripted(sequence({ status, headers: { location: 'https://api.example.com/v1/superagents' } }));
      const err = await failure(h.client(s.url).client.json(get()));
      expect(s.requests).toHaveLength(1);
      expect(err).toBeInstanceOf(errors.NotTheServiceError);
      expect(err.message).toBe(
        `${s.url}/v1/superagents redirects to https://api.example.com/v1/superagents (${status})`,
      );
      // the suggestion is the base URL, not the address with the path the client added
      expect(err.hint).toBe('use https://api.example.com as the base URL');
      expect([err.status, exitCodeFor(err)]).toEqual([status, 7]);
    },
  );

  it.each<[string, Answer]>([
    [
      'a 200 web page',
      {
        status: 200,
        body: '<!doctype html><html><body>Welcome</body></html>',
        headers: { 'content-type': 'text/html; charset=utf-8' },
      },
    ],
    [
      'a 404 web page',
      { status: 404, body: '<html><body>Not Found</body></html>', headers: { 'content-type': 'text/html' } },
    ],
    ['a page sent as JSON', { status: 200, body: '  <!DOCTYPE html><p>hi</p>' }],
  ])('%s: NotTheServiceError', async (_what, answer) => {
    const s = await h.scripted(sequence(answer));
    const err = await failure(h.client(s.url).client.json(get()));
    expect(err).toBeInstanceOf(errors.NotTheServiceError);
    expect(err.message).toBe(
      `${s.url} does not look like a SuperAgents service: GET ` +
        `/v1/superagents answered ${answer.status} with a web page`,
    );
    expect(err.hint).toBe("check the base URL: the service's address, without /v1");
    expect(exitCodeFor(err)).toBe(7);
  });
});

describe('ApiClient: a compressed body the client did not ask for', () => {
  const JSON_TEXT = JSON.stringify({ agent_id: 'x1', status: 'running' });
  const ENCODED: Record<string, (b: Buffer) => Buffer> = {
    gzip: (b) => zlib.gzipSync(b),
    br: (b) => zlib.brotliCompressSync(b),
    deflate: (b) => zlib.deflateSync(b),
    // Node 20 has no zstd: bytes that are not JSON, labelled as a service would label them
    zstd: (b) => Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), b]),
  };

  /** Answers `status` with the JSON body compressed as `encoding` says, whatever the request asked. */
  const compressed =
    (encoding: string, status = 200, type = 'application/json') =>
    (_req: unknown, res: import('node:http').ServerResponse) => {
      const body = ENCODED[encoding]!(Buffer.from(JSON_TEXT));
      res.writeHead(status, { 'content-type': type, 'content-encoding': encoding, 'content-length': body.length });
      res.end(body);
    };

  it('asks for an uncompressed answer', async () => {
    const s = await h.scripted(sequence({ status: 200, body: {} }));
    await h.client(s.url).client.json(get());
    expect(s.requests[0]!.headers['accept-encoding']).toBe('identity');
  });

  it.each(Object.keys(ENCODED))(
    'a %s body is named as such (exit 7), not reported as an answer that is not JSON',
    async (encoding) => {
      const s = await h.scripted(compressed(encoding));
      const err = await failure(h.client(s.url).client.json(get()));
      expect(err).toBeInstanceOf(BadAnswerError);
      expect(exitCodeFor(err)).toBe(7);
      expect(err.message).toBe(`the service answered with a ${encoding}-compressed body the client did not ask for`);
      expect(s.requests).toHaveLength(1);
    },
  );

  it('a streamed reply compressed the same way is refused the same way', async () => {
    const s = await h.scripted(compressed('gzip', 200, 'text/event-stream'));
    const err = await failure(
      h
        .client(s.url)
        .client.stream({ method: 'POST', path: '/v1/superagents/x1/chat', body: { message: 'hi', stream: true } }),
    );
    expect([err.constructor, err.message]).toEqual([
      BadAnswerError,
      'the service answered with a gzip-compressed body the client did not ask for',
    ]);
  });

  it('an error answer with a compressed body is still the error its status says', async () => {
    const s = await h.scripted(compressed('br', 404));
    const err = await failure(h.client(s.url).client.json(get()));
    expect([err.constructor, err.status, exitCodeFor(err)]).toEqual([errors.NotFoundError, 404, 4]);
    expect(err.message).toBe('the service answered 404');
  });

  it('Content-Encoding: identity is no compression', async () => {
    const s = await h.scripted(
      sequence({ status: 200, body: { ok: true }, headers: { 'content-encoding': 'identity' } }),
    );
    expect(await h.client(s.url).client.json(get())).toEqual({ ok: true });
  });
});
