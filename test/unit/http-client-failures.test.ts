// The ApiClient when no answer (or half of one) comes: refused and reset connections, time-outs,
// bodies cut short, Ctrl-C through the caller's signal, and the embedded service's injected faults.
// Retry waits go to a fake `sleep`; the only real waits are the small time-outs themselves.
import { describe, expect, it } from 'vitest';
import * as errors from '../../src/api/errors.js';
import { exitCodeFor } from '../../src/cli/exit-codes.js';
import { InterruptedError } from '../../src/core/errors.js';
import { AFTER_POST, failure, get, httpHarness, post, sequence, type Handler } from '../helpers/http-scripted.js';
import { perTest } from '../helpers/service-support.js';

const h = httpHarness();
const resources = perTest();

/** never answers */
const silent: Handler = () => undefined;

describe('ApiClient: no connection', () => {
  it('GET: a closed port is refused, retried twice, then ConnectionError (exit 7)', async () => {
    const c = h.client(await h.closedPort());
    const err = await failure(c.client.json(get()));
    expect(err.constructor).toBe(errors.ConnectionError);
    expect([exitCodeFor(err), err.code]).toEqual([7, 'ECONNREFUSED']);
    expect(err.message).toMatch(/^cannot reach http:\/\/127\.0\.0\.1:\d+\/v1\/superagents: connection refused$/);
    expect(err.hint).toBe('check the base URL and that the service is running');
    expect(c.waits).toHaveLength(2);
    expect(c.notices).toHaveLength(2);
    for (const n of c.notices) expect(n).toMatch(/connection refused; retrying in \d\.\d s$/);
  });

  it('POST: a refused connection is not repeated, and did not reach the service', async () => {
    const c = h.client(await h.closedPort());
    const err = await failure(c.client.json(post()));
    expect(err.constructor).toBe(errors.ConnectionError);
    expect(exitCodeFor(err)).toBe(7);
    expect(err.message).not.toContain('may have reached');
    expect(err.hint).toBe('check the base URL and that the service is running');
    expect(c.waits).toEqual([]);
  });

  it('a connection reset: GET is sent three times; a POST once, and it may have reached the service', async () => {
    const s = await h.scripted((req) => req.socket.destroy());
    const g = h.client(s.url);
    const gErr = await failure(g.client.json(get()));
    expect(gErr.constructor).toBe(errors.ConnectionError);
    expect(exitCodeFor(gErr)).toBe(7);
    expect(s.requests).toHaveLength(3);

    const p = h.client(s.url);
    const pErr = await failure(p.client.json(post()));
    expect(pErr.constructor).toBe(errors.ConnectionError);
    expect(pErr.message).toMatch(/; the request may have reached the service and was not repeated$/);
    expect(pErr.hint).toBe(AFTER_POST);
    expect(s.requests).toHaveLength(4);
    expect(p.waits).toEqual([]);
  });
});

describe('ApiClient: time-outs', () => {
  it('a server that never answers: TimeoutError naming the limit, hint --timeout, not sent again', async () => {
    const s = await h.scripted(silent);
    const c = h.client(s.url, { timeoutMs: 50 });
    const err = await failure(c.client.json(get()));
    expect(err).toBeInstanceOf(errors.TimeoutError);
    expect(exitCodeFor(err)).toBe(7);
    expect(err.message).toBe(`no answer from ${s.url}/v1/superagents within 0.05 s`);
    expect(err.hint).toBe('raise the limit with --timeout SECONDS');
    // the whole limit was already waited: not spent again on retries
    expect(s.requests).toHaveLength(1);
    expect(c.waits).toEqual([]);
  });

  it('a per-request timeoutMs wins over the client one', async () => {
    const s = await h.scripted(silent);
    const err = await failure(h.client(s.url, { timeoutMs: 20_000 }).client.json({ ...get(), timeoutMs: 40 }));
    expect(err).toBeInstanceOf(errors.TimeoutError);
    expect(err.message).toBe(`no answer from ${s.url}/v1/superagents within 0.04 s`);
  });

  it(
    'a POST that times out is not repeated, may have reached ' + 'the service, and carries the after-POST hint',
    async () => {
      const s = await h.scripted(silent);
      // a time-out long enough for the request to have been sent on a loaded machine (50 ms was not always)
      const err = await failure(h.client(s.url, { timeoutMs: 1000 }).client.json(post()));
      expect(err).toBeInstanceOf(errors.TimeoutError);
      expect(err.message).toBe(
        `no answer from ${s.url}/v1/superagents within 1 s; the request ` +
          `may have reached the service and was not repeated`,
      );
      expect(err.hint).toBe(AFTER_POST);
      expect(s.requests).toHaveLength(1);
    },
  );

  it('headers, then a body that never ends: a time-out, not an unexpected error', async () => {
    const s = await h.scripted((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":');
    });
    const err = await failure(h.client(s.url, { timeoutMs: 50 }).client.json(get()));
    expect(err).toBeInstanceOf(errors.TimeoutError);
    expect(exitCodeFor(err)).toBe(7);
    expect(err.message).toBe(`no answer from ${s.url}/v1/superagents within 0.05 s`);
  });

  it('an answer cut short mid-body: ConnectionError (exit 7), not an unexpected error', async () => {
    const s = await h.scripted((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"partial":', () => res.socket?.destroy());
    });
    const err = await failure(h.client(s.url).client.json(get()));
    expect(err.constructor).toBe(errors.ConnectionError);
    expect(exitCodeFor(err)).toBe(7);
    expect(err.message).toMatch(new RegExp(`^cannot reach ${s.url}/v1/superagents: `));
  });
});

describe('ApiClient: Ctrl-C through the caller’s signal', () => {
  it('while waiting for the answer: InterruptedError (exit 130)', async () => {
    const ac = new AbortController();
    // Ctrl-C as soon as the request has reached the server
    const s = await h.scripted(() => ac.abort());
    const err = await failure(h.client(s.url).client.json({ ...get(), signal: ac.signal }));
    expect(err).toBeInstanceOf(InterruptedError);
    expect(exitCodeFor(err)).toBe(130);
    expect(s.requests).toHaveLength(1);
  });

  it('while reading the body: InterruptedError', async () => {
    const ac = new AbortController();
    const s = await h.scripted((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"partial":', () => ac.abort());
    });
    expect(await failure(h.client(s.url).client.json({ ...get(), signal: ac.signal }))).toBeInstanceOf(
      InterruptedError,
    );
  });

  it('during a retry wait: InterruptedError, and nothing is sent again', async () => {
    const ac = new AbortController();
    const s = await h.scripted(sequence({ status: 503 }, { status: 200, body: {} }));
    const waits: number[] = [];
    const c = h.client(s.url, {
      sleep: async (ms) => {
        waits.push(ms);
        ac.abort(); // pressed during the wait
      },
    });
    expect(await failure(c.client.json({ ...get(), signal: ac.signal }))).toBeInstanceOf(InterruptedError);
    expect(waits).toHaveLength(1);
    expect(s.requests).toHaveLength(1);
  });

  it('already pressed: nothing is sent', async () => {
    const s = await h.scripted(sequence({ status: 200, body: {} }));
    expect(await failure(h.client(s.url).client.json({ ...get(), signal: AbortSignal.abort() }))).toBeInstanceOf(
      InterruptedError,
    );
    expect(s.requests).toHaveLength(0);
  });
});

describe('ApiClient.stream', () => {
  it('hands over the body as it arrives, with its headers; an error status still throws its class', async () => {
    const s = await h.scripted((_req, res, _seen, i) => {
      if (i === 0) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end('data: {"content":"hi"}\n\n');
      } else {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"statusCode":404,"message":"Session not found"}');
      }
    });
    const { client } = h.client(s.url);
    const res = await client.stream({
      method: 'POST',
      path: '/v1/superagents/a/chat',
      body: { message: 'hi', stream: true },
    });
    expect([res.status, res.headers['content-type']]).toEqual([200, 'text/event-stream']);
    let text = '';
    for await (const chunk of res.body) text += chunk.toString();
    expect(text).toBe('data: {"content":"hi"}\n\n');
    expect(s.requests[0]!.headers.accept).toBe('text/event-stream, application/json');
    expect(await failure(client.stream({ method: 'POST', path: '/v1/superagents/a/chat', body: {} }))).toBeInstanceOf(
      errors.SessionNotFoundError,
    );
  });
});

describe('ApiClient against the embedded service with faults (errorRate 1)', () => {
  async function faulty() {
    const service = await resources.service({ faults: { errorRate: 1 } });
    return { service, proxy: await h.countingProxy(service.url) };
  }

  it('GET: the 503 is retried, the 500 after it ends with ServerError (exit 7)', async () => {
    const { service, proxy } = await faulty();
    const c = h.client(proxy.url, { apiKey: service.key });
    const err = await failure(c.client.json(get()));
    // the service alternates 503, 500: 503 is retried, 500 is not
    expect(proxy.count()).toBe(2);
    expect([err.constructor, err.status, exitCodeFor(err)]).toEqual([errors.ServerError, 500, 7]);
    expect(err.message).toContain('injected fault');
    expect(c.waits).toHaveLength(1);
  });

  it('DELETE is retried like GET: 503 → 500 → exit 7', async () => {
    const { service, proxy } = await faulty();
    const err = await failure(
      h
        .client(proxy.url, { apiKey: service.key })
        .client.json({ method: 'DELETE', path: '/v1/superagents/00000000-0000-4000-8000-000000000000' }),
    );
    expect([err.status, exitCodeFor(err)]).toEqual([500, 7]);
    expect(proxy.count()).toBe(2);
  });

  it('POST: not retried; exit 7 saying it may have reached the service', async () => {
    const { service, proxy } = await faulty();
    const c = h.client(proxy.url, { apiKey: service.key });
    const err = await failure(c.client.json(post({ name: 'bot', model_provider: 'openai' })));
    expect(proxy.count()).toBe(1);
    expect(c.waits).toEqual([]);
    expect([err.constructor, err.status, exitCodeFor(err)]).toEqual([errors.ServerError, 503, 7]);
    expect(err.message).toContain('may have reached the service');
    expect(err.hint).toBe(AFTER_POST);
  });
});
