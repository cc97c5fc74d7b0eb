// The HTTP layer against real loopback servers: scripted node:http servers that count requests and
// answer set sequences, and the embedded service with injected faults. `sleep` is injected so
// retry waits are recorded instead of slept.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, type ClientOptions, type RequestOptions } from '../../src/api/client.js';
import { ApiStatusError, ConnectionError, messageFromBody, statusError } from '../../src/api/errors.js';
import { redactHeaders, redactText } from '../../src/api/redact.js';
import { InterruptedError } from '../../src/cli/errors.js';
import { maskKey } from '../../src/ui/mask.js';
import { startTestService } from '../helpers/service.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface Scripted {
  url: string;
  requests: Seen[];
  close(): Promise<void>;
}

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, seen: Seen, index: number) => void;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A server on 127.0.0.1 that records every request (with its body) before answering. */
async function scripted(handler: Handler): Promise<Scripted> {
  const requests: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(seen);
      handler(req, res, seen, requests.length - 1);
    });
  });
  const url = await listen(server);
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  cleanups.push(close);
  return { url, requests, close };
}

interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Answers the i-th request with answers[i] (the last one repeats). */
function sequence(...answers: Answer[]): Handler {
  return (_req, res, _seen, i) => {
    const a = answers[Math.min(i, answers.length - 1)]!;
    const text = a.body === undefined ? '' : typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
    res.end(text);
  };
}

interface Harness {
  client: ApiClient;
  waits: number[];
  notices: string[];
  traces: string[];
}

const KEY = 'sa_sk_0123456789abcdef0123456789abcd';

function makeClient(baseUrl: string, extra: Partial<ClientOptions> = {}): Harness {
  const waits: number[] = [];
  const notices: string[] = [];
  const traces: string[] = [];
  const client = new ApiClient({
    baseUrl,
    apiKey: KEY,
    timeoutMs: 5_000,
    userAgent: 'superagent-test/1.0',
    notice: (t) => notices.push(t),
    trace: (t) => traces.push(t),
    sleep: async (ms) => {
      waits.push(ms);
    },
    ...extra,
  });
  cleanups.push(() => client.close());
  return { client, waits, notices, traces };
}

/** The rejection of a call (fails the test when the call succeeds). */
async function failure(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<string> {
  const server = http.createServer();
  const url = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return url;
}

const get = (path = '/v1/superagents'): RequestOptions => ({ method: 'GET', path });
const AFTER_POST = "run 'superagent list' to see whether the agent was launched before trying again";
const post = (body: unknown = { name: 'a' }): RequestOptions => ({ method: 'POST', path: '/v1/superagents', body, afterUncertainPost: AFTER_POST });

describe('ApiClient: requests and answers', () => {
  it('sends the key as a Bearer header, JSON in, and parses JSON out', async () => {
    const s = await scripted(sequence({ status: 201, body: { agent_id: 'x1', ok: true } }));
    const { client } = makeClient(s.url);
    const out = await client.json<{ agent_id: string }>({ method: 'POST', path: '/v1/superagents', body: { name: 'bot', n: 2 } });
    expect(out).toEqual({ agent_id: 'x1', ok: true });
    expect(s.requests).toHaveLength(1);
    const r = s.requests[0]!;
    expect(r.method).toBe('POST');
    expect(r.url).toBe('/v1/superagents');
    expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers.accept).toBe('application/json');
    expect(r.headers['user-agent']).toBe('superagent-test/1.0');
    expect(JSON.parse(r.body)).toEqual({ name: 'bot', n: 2 });
  });

  it('keeps a path prefix of the base URL and sends no body or content-type on a GET', async () => {
    const s = await scripted(sequence({ status: 200, body: [1, 2] }));
    const { client } = makeClient(`${s.url}/prefix/`);
    expect(await client.json(get())).toEqual([1, 2]);
    expect(s.requests[0]!.url).toBe('/prefix/v1/superagents');
    expect(s.requests[0]!.body).toBe('');
    expect(s.requests[0]!.headers['content-type']).toBeUndefined();
  });

  it('sends no authorization header without a key, and an empty answer is undefined', async () => {
    const s = await scripted(sequence({ status: 204 }));
    const { client } = makeClient(s.url, { apiKey: null });
    expect(await client.json({ method: 'DELETE', path: '/v1/superagents/abc' })).toBeUndefined();
    expect(s.requests[0]!.headers.authorization).toBeUndefined();
  });
});

describe('ApiClient: both error shapes become typed errors with CLI.md exit codes', () => {
  it('joins a NestJS message array', async () => {
    const s = await scripted(sequence({ status: 400, body: { statusCode: 400, message: ['a', 'b'], error: 'Bad Request' }, headers: { 'x-request-id': 'req-7' } }));
    const { client } = makeClient(s.url);
    const err = await failure(client.json(post()));
    expect(err).toBeInstanceOf(ApiStatusError);
    expect(err.message).toBe('a; b');
    expect(err.status).toBe(400);
    expect(err.exitCode).toBe(2);
    expect(err.requestId).toBe('req-7');
  });

  it('reads the upstream shape { error: { message, type } }', async () => {
    const s = await scripted(sequence({ status: 400, body: { error: { message: 'x', type: 'y' } } }));
    const { client } = makeClient(s.url);
    const err = await failure(client.json(get()));
    expect(err).toBeInstanceOf(ApiStatusError);
    expect(err.message).toBe('x');
    expect(err.exitCode).toBe(2);
  });

  it('reads the upstream shape on a 500 too (exit 7, not retried)', async () => {
    const s = await scripted(sequence({ status: 500, body: { error: { message: 'upstream exploded', type: 'server_error' } } }));
    const h = makeClient(s.url);
    const err = await failure(h.client.json(get()));
    expect(err).toBeInstanceOf(ApiStatusError);
    expect(err.message).toBe('upstream exploded');
    expect(err.exitCode).toBe(7);
    expect(s.requests).toHaveLength(1);
    expect(h.waits).toEqual([]);
  });

  it.each([
    [400, 2],
    [413, 2],
    [415, 2],
    [401, 3],
    [403, 3],
    [404, 4],
    [409, 6],
    [500, 7],
    [501, 7],
  ])('status %i → exit %i with the service message', async (status, exit) => {
    const s = await scripted(sequence({ status, body: { statusCode: status, message: `msg ${status}` } }));
    const { client } = makeClient(s.url);
    const err = await failure(client.json({ method: 'PATCH', path: '/v1/superagents/a' }));
    expect(err).toBeInstanceOf(ApiStatusError);
    expect(err.message).toBe(`msg ${status}`);
    expect(err.exitCode).toBe(exit);
    expect(s.requests).toHaveLength(1);
  });

  it('a 401 carries the login hint; a body that is not JSON becomes the message', async () => {
    const s = await scripted(sequence({ status: 401, body: { statusCode: 401, message: 'Invalid or revoked API key' } }, { status: 404, body: 'no such thing\n' }));
    const { client } = makeClient(s.url);
    const e401 = await failure(client.json(get()));
    expect(e401.message).toBe('Invalid or revoked API key');
    expect(e401.hint).toContain('superagent login');
    const e404 = await failure(client.json(get()));
    expect(e404.message).toBe('no such thing');
    expect(e404.exitCode).toBe(4);
  });

  it('an empty error body says the status', async () => {
    const s = await scripted(sequence({ status: 409 }));
    const { client } = makeClient(s.url);
    const err = await failure(client.json(get()));
    expect(err.message).toBe('the service answered 409');
    expect(err.exitCode).toBe(6);
  });
});

describe('ApiClient: 429 waits Retry-After', () => {
  const limited = (secs: number | null, body: unknown = { statusCode: 429, message: 'Rate limit exceeded' }): Answer => ({
    status: 429,
    body,
    headers: secs === null ? {} : { 'retry-after': String(secs) },
  });

  it('waits the Retry-After seconds, says so, and retries', async () => {
    const s = await scripted(sequence(limited(1), { status: 200, body: { ok: 1 } }));
    const h = makeClient(s.url);
    expect(await h.client.json(get())).toEqual({ ok: 1 });
    expect(s.requests).toHaveLength(2);
    expect(h.waits).toEqual([1000]);
    expect(h.notices).toHaveLength(1);
    expect(h.notices[0]).toMatch(/rate limited/i);
    expect(h.notices[0]).toContain('1 s');
  });

  it('retries a rate-limited POST too (a 429 was not processed)', async () => {
    const s = await scripted(sequence(limited(2), { status: 201, body: { agent_id: 'a' } }));
    const h = makeClient(s.url);
    expect(await h.client.json(post())).toEqual({ agent_id: 'a' });
    expect(s.requests).toHaveLength(2);
    expect(h.waits).toEqual([2000]);
    expect(h.notices[0]).toContain('2 s');
  });

  it('four 429s in a row: three retries, then exit 5', async () => {
    const s = await scripted(sequence(limited(1)));
    const h = makeClient(s.url);
    const err = await failure(h.client.json(get()));
    expect(err).toBeInstanceOf(ApiStatusError);
    expect(err.status).toBe(429);
    expect(err.exitCode).toBe(5);
    expect(err.message).toBe('Rate limit exceeded');
    expect(err.retryAfter).toBe(1);
    expect(s.requests).toHaveLength(4);
    expect(h.waits).toEqual([1000, 1000, 1000]);
    expect(h.notices).toHaveLength(3);
  });

  it('a Retry-After of 61 s ends at once with exit 5 (more than 60 s of waiting)', async () => {
    const s = await scripted(sequence(limited(61), { status: 200, body: {} }));
    const h = makeClient(s.url);
    const err = await failure(h.client.json(get()));
    expect(err.exitCode).toBe(5);
    expect(err.retryAfter).toBe(61);
    expect(s.requests).toHaveLength(1);
    expect(h.waits).toEqual([]);
    expect(h.notices).toEqual([]);
  });

  it('stops when the waits together would pass 60 s', async () => {
    const s = await scripted(sequence(limited(30), limited(30), limited(30), { status: 200, body: {} }));
    const h = makeClient(s.url);
    const err = await failure(h.client.json(get()));
    expect(err.exitCode).toBe(5);
    expect(s.requests).toHaveLength(3);
    expect(h.waits).toEqual([30_000, 30_000]);
  });

  it('without a Retry-After header, uses retryAfter from the body', async () => {
    const s = await scripted(sequence(limited(null, { statusCode: 429, message: 'Rate limit exceeded', retryAfter: 3 }), { status: 200, body: { ok: true } }));
    const h = makeClient(s.url);
    expect(await h.client.json(get())).toEqual({ ok: true });
    expect(h.waits).toEqual([3000]);
  });
});

describe('ApiClient: 502/503/504 and connection errors are retried only where repeating is safe', () => {
  it('GET: 503 then 200 is retried once after a backoff notice', async () => {
    const s = await scripted(sequence({ status: 503, body: { statusCode: 503, message: 'busy' } }, { status: 200, body: { ok: true } }));
    const h = makeClient(s.url);
    expect(await h.client.json(get())).toEqual({ ok: true });
    expect(s.requests).toHaveLength(2);
    expect(h.waits).toHaveLength(1);
    expect(h.waits[0]).toBeGreaterThan(0);
    expect(h.notices[0]).toContain('503');
  });

  it.each(['PUT', 'DELETE'] as const)('%s: 502 then 200 is retried', async (method) => {
    const s = await scripted(sequence({ status: 502 }, { status: 200, body: { done: method } }));
    const h = makeClient(s.url);
    expect(await h.client.json({ method, path: '/v1/x', body: method === 'PUT' ? { a: 1 } : undefined })).toEqual({ done: method });
    expect(s.requests.map((r) => r.method)).toEqual([method, method]);
    if (method === 'PUT') expect(s.requests.map((r) => JSON.parse(r.body))).toEqual([{ a: 1 }, { a: 1 }]);
  });

  it('POST: a 503 arrives exactly once; the error says it may have reached the service and carries the hint', async () => {
    const s = await scripted(sequence({ status: 503, body: { statusCode: 503, message: 'busy' } }, { status: 201, body: {} }));
    const h = makeClient(s.url);
    const err = await failure(h.client.json(post()));
    expect(s.requests).toHaveLength(1);
    expect(h.waits).toEqual([]);
    expect(err).toBeInstanceOf(ApiStatusError);
    expect(err.exitCode).toBe(7);
    expect(err.message).toContain('busy');
    expect(err.message).toContain('may have reached the service');
    expect(err.hint).toBe(AFTER_POST);
  });

  it('POST without an after-POST hint: still says so, with the status hint', async () => {
    const s = await scripted(sequence({ status: 502 }));
    const h = makeClient(s.url);
    const err = await failure(h.client.json({ method: 'POST', path: '/v1/superagents/a/pause' }));
    expect(s.requests).toHaveLength(1);
    expect(err.exitCode).toBe(7);
    expect(err.message).toBe('the service answered 502; the request may have reached the service and was not repeated');
    expect(err.hint).toBe('the service is having trouble; try again shortly');
  });

  it('PATCH is not retried either', async () => {
    const s = await scripted(sequence({ status: 504 }, { status: 200, body: {} }));
    const h = makeClient(s.url);
    const err = await failure(h.client.json({ method: 'PATCH', path: '/v1/x', body: {} }));
    expect(err.exitCode).toBe(7);
    expect(s.requests).toHaveLength(1);
  });

  it('GET: 502 three times gives up after the configured retries with exit 7', async () => {
    const s = await scripted(sequence({ status: 502, body: { statusCode: 502, message: 'Bad Gateway' } }));
    const h = makeClient(s.url, { retry: { retries: 2 } });
    const err = await failure(h.client.json(get()));
    expect(s.requests).toHaveLength(3);
    expect(err).toBeInstanceOf(ApiStatusError);
    expect(err.status).toBe(502);
    expect(err.exitCode).toBe(7);
    // backoff: 500 ms then 1 s, each less up to a quarter of jitter
    expect(h.waits).toHaveLength(2);
    expect(h.waits[0]).toBeGreaterThanOrEqual(375);
    expect(h.waits[0]).toBeLessThanOrEqual(500);
    expect(h.waits[1]).toBeGreaterThanOrEqual(750);
    expect(h.waits[1]).toBeLessThanOrEqual(1000);
  });

  it('the number of retries is configurable', async () => {
    const s = await scripted(sequence({ status: 504 }));
    const h = makeClient(s.url, { retry: { retries: 0 } });
    expect((await failure(h.client.json(get()))).exitCode).toBe(7);
    expect(s.requests).toHaveLength(1);
  });

  it('GET: a closed port is refused (retried, then exit 7)', async () => {
    const h = makeClient(await closedPort());
    const err = await failure(h.client.json(get()));
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.exitCode).toBe(7);
    expect(err.code).toBe('ECONNREFUSED');
    expect(err.message).toContain('connection refused');
    expect(err.hint).toContain('base URL');
    expect(h.waits).toHaveLength(2);
    expect(h.notices.every((n) => n.includes('connection refused'))).toBe(true);
  });

  it('POST: a refused connection is not repeated, and did not reach the service', async () => {
    const h = makeClient(await closedPort());
    const err = await failure(h.client.json(post()));
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.exitCode).toBe(7);
    expect(err.message).not.toContain('may have reached');
    expect(h.waits).toEqual([]);
  });

  it('a connection reset: GET is retried, POST arrives once and may have reached the service', async () => {
    const s = await scripted((req) => req.socket.destroy());
    const g = makeClient(s.url);
    const gErr = await failure(g.client.json(get()));
    expect(gErr).toBeInstanceOf(ConnectionError);
    expect(gErr.exitCode).toBe(7);
    expect(s.requests).toHaveLength(3);

    const p = makeClient(s.url);
    const pErr = await failure(p.client.json(post()));
    expect(pErr).toBeInstanceOf(ConnectionError);
    expect(pErr.exitCode).toBe(7);
    expect(pErr.message).toContain('may have reached the service');
    expect(pErr.hint).toBe(AFTER_POST);
    expect(s.requests).toHaveLength(4);
    expect(p.waits).toEqual([]);
  });
});

describe('ApiClient: time-outs', () => {
  const silent: Handler = () => undefined; // never answers

  it('a server that never answers: exit 7 naming the limit, hint --timeout', async () => {
    const s = await scripted(silent);
    const h = makeClient(s.url, { timeoutMs: 300 });
    const started = Date.now();
    const err = await failure(h.client.json(get()));
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.exitCode).toBe(7);
    expect(err.message).toContain('within 0.3 s');
    expect(err.hint).toContain('--timeout');
    // the full limit was already waited: not spent again on retries
    expect(s.requests).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('a per-request timeoutMs wins over the client one', async () => {
    const s = await scripted(silent);
    const h = makeClient(s.url, { timeoutMs: 20_000 });
    const err = await failure(h.client.json({ ...get(), timeoutMs: 250 }));
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.message).toContain('within 0.25 s');
    expect(err.hint).toContain('--timeout');
  });

  it('a limit of a second or more (undici’s coarse timers) still gives one time-out, not retries', async () => {
    const s = await scripted(silent);
    const h = makeClient(s.url, { timeoutMs: 1000 });
    const err = await failure(h.client.json(get()));
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.message).toContain('within 1 s');
    expect(err.hint).toContain('--timeout');
    expect(s.requests).toHaveLength(1);
    expect(h.waits).toEqual([]);
  });

  it('a POST that times out is not repeated and carries the after-POST hint', async () => {
    const s = await scripted(silent);
    const h = makeClient(s.url, { timeoutMs: 300 });
    const err = await failure(h.client.json(post()));
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.exitCode).toBe(7);
    expect(err.message).toContain('0.3 s');
    expect(err.message).toContain('may have reached the service');
    expect(err.hint).toBe(AFTER_POST);
    expect(s.requests).toHaveLength(1);
  });

  it('headers then a body that never ends: a time-out, not an unexpected error', async () => {
    const s = await scripted((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
    });
    const h = makeClient(s.url, { timeoutMs: 300 });
    const err = await failure(h.client.json(get()));
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.exitCode).toBe(7);
    expect(err.message).toContain('0.3 s');
    expect(err.hint).toContain('--timeout');
  });

  it('an answer cut short mid-body: exit 7, not an unexpected error', async () => {
    const s = await scripted((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"partial":', () => res.socket?.destroy());
    });
    const h = makeClient(s.url);
    const err = await failure(h.client.json(get()));
    expect(err).toBeInstanceOf(ConnectionError);
    expect(err.exitCode).toBe(7);
    expect(err.message).toContain(`cannot reach ${s.url}/v1/superagents`);
  });

  it('an aborted signal interrupts a request (exit 130)', async () => {
    const s = await scripted(silent);
    const h = makeClient(s.url);
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const err = await failure(h.client.json({ ...get(), signal: ac.signal }));
    expect(err).toBeInstanceOf(InterruptedError);
    expect(err.exitCode).toBe(130);
  });
});

describe('ApiClient: --debug trace', () => {
  const TOKEN = '7012345678:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawq';

  it('shows method, URL, status, time and headers, with the key and bot token masked', async () => {
    // the server echoes the body back, so the token appears in the answer as well
    const s = await scripted((_req, res, seen) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'rq-1' });
      res.end(JSON.stringify({ agent_id: 'ag-1', echo: JSON.parse(seen.body), note: `bot ${TOKEN} ok` }));
    });
    const h = makeClient(s.url);
    await h.client.json({ method: 'POST', path: '/v1/superagents', body: { name: 'bot', telegram_bot_token: TOKEN } });
    const all = h.traces.join('\n');
    expect(all).not.toContain(KEY);
    expect(all).not.toContain(TOKEN);
    expect(all).not.toContain(TOKEN.split(':')[1]);
    expect(all).toContain(`Bearer ${maskKey(KEY)}`);
    expect(maskKey(KEY)).toBe('sa_sk_…abcd');
    expect(all).toContain('7012345678:…');
    expect(all).toContain(`→ POST ${s.url}/v1/superagents`);
    expect(all).toMatch(new RegExp(`← 201 POST ${s.url}/v1/superagents \\(\\d+ ms\\)`));
    expect(all).toContain('rq-1'); // response headers
    expect(all).toContain('superagent-test/1.0'); // request headers
    expect(all).toContain('"name":"bot"'); // request body
    expect(all).toContain('"agent_id":"ag-1"'); // answer body
  });

  it('masks the key wherever it appears, also in an answer body', async () => {
    const s = await scripted(sequence({ status: 403, body: { statusCode: 403, message: `key ${KEY} may not do that` } }));
    const h = makeClient(s.url);
    await failure(h.client.json(get()));
    const all = h.traces.join('\n');
    expect(all).not.toContain(KEY);
    expect(all).toContain('← 403 GET');
    expect(all).toContain(`key ${maskKey(KEY)} may not`);
  });

  it('cuts bodies to about 2000 characters', async () => {
    const big = 'z'.repeat(5000);
    const s = await scripted(sequence({ status: 200, body: { big } }));
    const h = makeClient(s.url);
    await h.client.json({ method: 'PUT', path: '/v1/x', body: { big } });
    const bodyLines = h.traces.filter((l) => l.includes('zzz'));
    expect(bodyLines).toHaveLength(2); // request and answer
    for (const line of bodyLines) {
      expect(line.length).toBeLessThan(2100);
      expect(line).toContain(`(${JSON.stringify({ big }).length} characters)`);
    }
  });

  it('traces a connection failure with its code and time', async () => {
    const h = makeClient(await closedPort(), { retry: { retries: 0 } });
    await failure(h.client.json(get()));
    expect(h.traces.join('\n')).toMatch(/← ECONNREFUSED after \d+ ms/);
  });
});

describe('ApiClient against the embedded service with faults (errorRate 1)', () => {
  /** A pass-through proxy in front of the service that counts what reaches it. */
  async function countingProxy(target: string): Promise<{ url: string; count: () => number }> {
    let n = 0;
    const server = http.createServer((req, res) => {
      n++;
      const up = http.request(target + (req.url ?? '/'), { method: req.method, headers: req.headers }, (upRes) => {
        res.writeHead(upRes.statusCode ?? 502, upRes.headers);
        upRes.pipe(res);
      });
      up.on('error', () => res.destroy());
      req.pipe(up);
    });
    const url = await listen(server);
    cleanups.push(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    return { url, count: () => n };
  }

  async function faulty() {
    const service = await startTestService({ faults: { errorRate: 1 } });
    cleanups.push(() => service.close());
    return { service, proxy: await countingProxy(service.url) };
  }

  it('GET: the 503 is retried, the following 500 ends with exit 7', async () => {
    const { service, proxy } = await faulty();
    const h = makeClient(proxy.url, { apiKey: service.key });
    const err = await failure(h.client.json(get()));
    expect(err).toBeInstanceOf(ApiStatusError);
    expect(err.exitCode).toBe(7);
    // the service alternates 503, 500: 503 is retried, 500 is not
    expect(proxy.count()).toBe(2);
    expect(err.status).toBe(500);
    expect(err.message).toContain('injected fault');
    expect(h.waits).toHaveLength(1);
  });

  it('DELETE is retried like GET: 503 → 500 → exit 7', async () => {
    const { service, proxy } = await faulty();
    const h = makeClient(proxy.url, { apiKey: service.key });
    const err = await failure(h.client.json({ method: 'DELETE', path: '/v1/superagents/00000000-0000-4000-8000-000000000000' }));
    expect(err.exitCode).toBe(7);
    expect(err.status).toBe(500);
    expect(proxy.count()).toBe(2);
  });

  it('POST: not retried; exit 7 saying it may have reached the service', async () => {
    const { service, proxy } = await faulty();
    const h = makeClient(proxy.url, { apiKey: service.key });
    const err = await failure(h.client.json(post({ name: 'bot', model_provider: 'openai' })));
    expect(proxy.count()).toBe(1);
    expect(h.waits).toEqual([]);
    expect(err).toBeInstanceOf(ApiStatusError);
    expect(err.status).toBe(503);
    expect(err.exitCode).toBe(7);
    expect(err.message).toContain('may have reached the service');
    expect(err.hint).toBe(AFTER_POST);
  });
});

describe('errors.ts: messageFromBody and statusError', () => {
  it.each<[unknown, string]>([
    [{ statusCode: 400, message: ['name is required', 'model_provider must be one of: openai'] }, 'name is required; model_provider must be one of: openai'],
    [{ statusCode: 404, message: 'Agent not found', error: 'Not Found' }, 'Agent not found'],
    [{ error: { message: 'x', type: 'y' } }, 'x'],
    [{ error: 'Bad Gateway' }, 'Bad Gateway'],
    ['  plain text  ', 'plain text'],
    [{}, 'fallback'],
    [null, 'fallback'],
    [undefined, 'fallback'],
    [{ message: '' }, 'fallback'],
  ])('%j → %s', (body, expected) => {
    expect(messageFromBody(body, 'fallback')).toBe(expected);
  });

  it('cuts a long text body to 300 characters', () => {
    expect(messageFromBody('e'.repeat(1000), 'f')).toHaveLength(300);
  });

  it('statusError carries status, exit code, hint, request id and retryAfter', () => {
    const e = statusError(429, { message: 'Rate limit exceeded' }, 'rid', 12);
    expect(e).toBeInstanceOf(ApiStatusError);
    expect([e.status, e.exitCode, e.requestId, e.retryAfter, e.message]).toEqual([429, 5, 'rid', 12, 'Rate limit exceeded']);
    expect(e.hint).toBeTruthy();
    expect(statusError(504, undefined).hint).toContain('--timeout');
    expect(statusError(599, undefined).exitCode).toBe(7);
    expect(statusError(599, undefined).hint).toBeTruthy();
    expect(statusError(404, undefined).hint).toBeUndefined();
  });

  it('ConnectionError always exits 7', () => {
    const e = new ConnectionError('cannot reach', 'hint', 'ECONNRESET');
    expect([e.exitCode, e.hint, e.code]).toEqual([7, 'hint', 'ECONNRESET']);
  });
});

describe('redact.ts', () => {
  const TOKEN = '7012345678:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawq';

  it('masks secret JSON fields', () => {
    const text = JSON.stringify({ telegram_bot_token: TOKEN, api_key: KEY, apiKey: KEY, token: KEY, name: 'n' });
    const out = redactText(text);
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain(KEY);
    expect(JSON.parse(out)).toEqual({ telegram_bot_token: '7012345678:…', api_key: 'sa_sk_…abcd', apiKey: 'sa_sk_…abcd', token: 'sa_sk_…abcd', name: 'n' });
  });

  it('masks a bare bot token anywhere and any given secret', () => {
    const out = redactText(`token ${TOKEN} and key ${KEY} twice ${KEY}`, [KEY]);
    expect(out).toBe('token 7012345678:… and key sa_sk_…abcd twice sa_sk_…abcd');
  });

  it('leaves ordinary text alone', () => {
    expect(redactText('GET /v1/superagents 12:30', [''])).toBe('GET /v1/superagents 12:30');
  });

  it('masks authorization and x-api-key headers, keeps the rest', () => {
    expect(redactHeaders({ Authorization: `Bearer ${KEY}`, 'x-api-key': KEY, accept: 'application/json', 'set-cookie': ['a=1', 'b=2'], gone: undefined })).toEqual({
      Authorization: 'Bearer sa_sk_…abcd',
      'x-api-key': 'sa_sk_…abcd',
      accept: 'application/json',
      'set-cookie': 'a=1, b=2',
    });
    expect(redactHeaders({ authorization: 'Bearer short' }).authorization).toBe('Bearer …');
  });
});
