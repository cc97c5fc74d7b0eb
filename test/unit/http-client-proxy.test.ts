// The ApiClient through a proxy (HTTP_PROXY, given as the client's proxyEnv) behaves as it does
// direct: the same time-out, Ctrl-C, redirect, retry and header behaviour, checked side by side
// against the same scripted service; only the proxy's own failures read differently.
import { describe, expect, it, vi } from 'vitest';
import { chat } from '../../src/api/chat.js';
import * as errors from '../../src/api/errors.js';
import { InterruptedError } from '../../src/core/errors.js';
import { failure, get, httpHarness, post, sequence, type Handler } from '../helpers/http-scripted.js';
import { rawProxy, startProxy, type LoggingProxy } from '../helpers/proxy.js';
import { perTest } from '../helpers/service-support.js';

const h = httpHarness();
const resources = perTest();

async function proxy(): Promise<LoggingProxy> {
  const p = await startProxy();
  resources.closeAfter(p);
  return p;
}

/** The same call direct and through a proxy: both outcomes, what the service saw, what the proxy carried. */
type Call = (c: ReturnType<typeof h.client>) => Promise<unknown>;

async function sideBySide(handler: Handler, call: Call, timeoutMs = 5_000) {
  const s = await h.scripted(handler);
  const p = await proxy();
  const direct = h.client(s.url, { timeoutMs });
  const proxied = h.client(s.url, { timeoutMs, proxyEnv: { HTTP_PROXY: p.url } });
  const outcome = async (c: typeof direct) => {
    const before = s.requests.length;
    const failed = (err: Error) => ({ err: err.constructor.name, message: err.message });
    const result = await call(c).then((value) => ({ value }), failed);
    return { result, retries: c.waits.length, seen: s.requests.length - before }; // the waits have jitter
  };
  const a = await outcome(direct);
  const b = await outcome(proxied);
  return { direct: a, proxied: b, carried: p.log.length, requests: s.requests };
}

const silent: Handler = () => undefined;

describe('ApiClient through a proxy: the same as direct', () => {
  it('an answer, with Accept-Encoding: identity reaching the service', async () => {
    const r = await sideBySide(sequence({ status: 200, body: { agents: [] } }), (c) => c.client.json(get()));
    expect(r.proxied).toEqual(r.direct);
    expect(r.carried).toBe(1);
    expect(r.requests.map((q) => q.headers['accept-encoding'])).toEqual(['identity', 'identity']);
    expect(r.requests[1]!.headers['proxy-authorization']).toBeUndefined();
  });

  it('a time-out: the same TimeoutError, not retried, naming the proxy', async () => {
    const r = await sideBySide(silent, (c) => c.client.json(get()), 150);
    expect(r.direct.result).toMatchObject({ err: 'TimeoutError' });
    const { message } = r.proxied.result as { message: string };
    expect(message).toMatch(/^no answer from \S+ through the proxy http:\/\/127\.0\.0\.1:\d+ within 0\.15 s/);
    const unnamed = { ...r.proxied.result, message: message.replace(/ through the proxy \S+/, '') };
    expect({ ...r.proxied, result: unnamed }).toEqual(r.direct);
  });

  it('a redirect is not followed', async () => {
    const moved = sequence({ status: 302, headers: { location: 'https://api.example.com/v1/superagents' } });
    const r = await sideBySide(moved, (c) => c.client.json(get()));
    expect(r.direct.result).toMatchObject({ err: 'NotTheServiceError' });
    expect(r.proxied).toEqual(r.direct);
    expect(r.carried).toBe(1);
  });

  it('503 then 200 on a GET: retried the same way', async () => {
    const body = (status: number) => (status === 200 ? { agents: [] } : { message: 'busy' });
    const answers = [503, 200, 503, 200].map((status) => ({ status, body: body(status) }));
    const r = await sideBySide(sequence(...answers), (c) => c.client.json(get()));
    expect(r.direct).toMatchObject({ result: { value: { agents: [] } }, retries: 1, seen: 2 });
    expect(r.proxied).toEqual(r.direct);
    expect(r.carried).toBe(2);
  });

  it("a 502 in the service's JSON is the service's, not the proxy's", async () => {
    const down = sequence({ status: 502, body: { message: 'upstream down' } });
    const r = await sideBySide(down, (c) => c.client.json(post()));
    expect(r.direct.result).toMatchObject({ err: 'ServerError' });
    expect(r.proxied).toEqual(r.direct);
  });

  it('Ctrl-C while waiting: InterruptedError, the request dropped', async () => {
    const s = await h.scripted(silent);
    const p = await proxy();
    const c = h.client(s.url, { proxyEnv: { HTTP_PROXY: p.url } });
    const stop = new AbortController();
    const pending = failure(c.client.json({ ...get(), signal: stop.signal }));
    await vi.waitFor(() => expect(s.requests).toHaveLength(1));
    stop.abort();
    expect(await pending).toBeInstanceOf(InterruptedError);
  });

  it("a 407 is the proxy's lasting failure: a ConnectionError (exit 7), not retried", async () => {
    const s = await h.scripted(sequence({ status: 200, body: {} }));
    const p = await startProxy({ refuse: 407 });
    resources.closeAfter(p);
    const c = h.client(s.url, { proxyEnv: { http_proxy: p.url } });
    const err = await failure(c.client.json(get()));
    expect(err).toBeInstanceOf(errors.ConnectionError);
    expect(err.message).toContain(`through the proxy ${p.url}: it asks for credentials (407)`);
    expect([c.waits, s.requests.length]).toEqual([[], 0]);
  });
});

describe('ApiClient through a proxy that fails in its own way', () => {
  async function through(p: LoggingProxy, base: string, timeoutMs = 5_000) {
    resources.closeAfter(p);
    const c = h.client(base, { timeoutMs, proxyEnv: { HTTPS_PROXY: p.url, HTTP_PROXY: p.url } });
    return failure(c.client.json(get()));
  }

  it('one that never answers CONNECT: the time-out still ends the request, naming the proxy', async () => {
    const err = await through(await rawProxy(), 'https://127.0.0.1:9', 300);
    expect(err).toBeInstanceOf(errors.TimeoutError);
    const where = 'https://127.0.0.1:9/v1/superagents through the proxy http://127.0.0.1:';
    expect(err.message).toMatch(new RegExp(`^no answer from ${where}\\d+ within 0\\.3 s`));
  });

  it.each(['http', 'https'])(
    'one that answers garbage (%s base URL): the error names it, not the base URL',
    async (scheme) => {
      const err = await through(await rawProxy('SSH-2.0-OpenSSH_9.6\r\n\r\n'), `${scheme}://127.0.0.1:9`);
      expect(err).toBeInstanceOf(errors.ConnectionError);
      expect(err.message).toMatch(
        /through the proxy http:\/\/127\.0\.0\.1:\d+: it answered something that is not HTTP$/,
      );
      expect(err.hint).toMatch(/^check the proxy in HTTPS?_PROXY/);
    },
  );

  it('one that cuts a streamed reply: the proxy is named as the one that may have cut it', async () => {
    const s = await h.scripted((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"type":"text","text":"Hel"}\n\n', () => setTimeout(() => res.destroy(), 50));
    });
    const p = await proxy();
    const c = h.client(s.url, { proxyEnv: { HTTP_PROXY: p.url } });
    const events = await chat.agentStream(c.client, 'ag_1', { message: 'hi' }, { timeoutMs: 5_000 });
    const err = await failure(
      (async () => {
        for await (const _ of events);
      })(),
    );
    expect(err).toBeInstanceOf(errors.StreamCutError);
    expect(err.message).toMatch(/^the reply was cut short \(.+\), perhaps by the proxy http:\/\/127\.0\.0\.1:\d+$/);
  });
});
