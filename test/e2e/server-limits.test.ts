// The embedded service's limits and test switches over real HTTP: rate limit (§3), faults (§9),
// SSE keep-alive (§6), the programmatic entry and the built `superagent server` command (CLI.md).
// The CLI part runs bin/superagent.js → dist/: `npm test` builds first; alone, `npm run build` first.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.js';
import { KeyRing } from '../../src/server/auth.js';
import { CUT_STREAM_MESSAGE, Faults } from '../../src/server/faults.js';
import { startServer, Store, type RunningServer } from '../../src/server/index.js';
import { RateLimiter } from '../../src/server/rate-limit.js';
import type { Interruption } from '../../src/server/sse.js';
import { callService, startTestService, tempDir, type TestService } from '../helpers/service.js';
import { eventNames, expectAssistantStream, parseWire, splitAtError } from './service-support.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'bin', 'superagent.js');
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const KEY_A = 'sa_sk_limitsAlimitsAlimitsAlimitsAlim';
const KEY_B = 'sa_sk_limitsBlimitsBlimitsBlimitsBlim';
const RATE_HEADERS = ['x-ratelimit-limit-minute', 'x-ratelimit-remaining-minute', 'x-ratelimit-reset-minute', 'retry-after'];

/** Services started by a test, closed after it whatever happens, and the temp dirs it made, removed. */
const open: Array<{ close(): Promise<void> }> = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A temp dir removed after the test. */
function scratch(prefix?: string): string {
  const dir = tempDir(prefix);
  dirs.push(dir);
  return dir;
}

async function service(options: Parameters<typeof startTestService>[0] = {}): Promise<TestService> {
  const s = await startTestService(options);
  open.push(s);
  dirs.push(s.dataDir);
  return s;
}

/** The assistant's reply to MESSAGE from a service without faults: what a cut stream must begin with. */
const MESSAGE = 'What is BTC doing today?';
async function wholeReply(): Promise<string> {
  return (await (await service()).call('POST', '/v1/chat', { body: { message: MESSAGE } })).json.content as string;
}

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** the body arrived whole (false: the connection was cut) */
  complete: boolean;
}

/** A POST read with node:http so that a cut connection still yields what arrived before the cut. */
function rawPost(url: string, urlPath: string, key: string, body: unknown): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = http.request(
      url + urlPath,
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('error', () => undefined); // "aborted" when the server cuts the stream
        res.on('close', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, complete: res.complete }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('rate limit (§3)', () => {
  it('60 requests per minute per key, then 429 with retryAfter, resetAt and Retry-After', async () => {
    const svc = await service({ rateLimit: 60, keys: [KEY_A, KEY_B] });
    const startedAt = Date.now();
    let firstReset = '';
    for (let i = 1; i <= 60; i++) {
      const r = await svc.call('GET', '/v1/agents');
      expect(r.status, `request ${i}`).toBe(200);
      expect(r.headers.get('x-ratelimit-limit-minute')).toBe('60');
      expect(r.headers.get('x-ratelimit-remaining-minute'), `request ${i}`).toBe(String(60 - i));
      const reset = r.headers.get('x-ratelimit-reset-minute')!;
      expect(reset).toMatch(ISO);
      if (i === 1) {
        firstReset = reset;
        const ahead = Date.parse(reset) - startedAt;
        expect(ahead).toBeGreaterThan(55_000);
        expect(ahead).toBeLessThanOrEqual(61_000);
      }
      // a fixed window: the reset time does not move
      expect(reset).toBe(firstReset);
      expect(r.headers.get('retry-after')).toBeNull();
    }

    const limited = await svc.call('GET', '/v1/agents');
    expect(limited.status).toBe(429);
    // exactly the hosted `RateLimited` body: no `error` field
    expect(limited.json).toEqual({
      statusCode: 429,
      message: 'Rate limit exceeded',
      retryAfter: expect.any(Number),
      resetAt: firstReset,
    });
    const { retryAfter } = limited.json;
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('retry-after')).toBe(String(retryAfter));
    expect(limited.headers.get('x-ratelimit-limit-minute')).toBe('60');
    expect(limited.headers.get('x-ratelimit-remaining-minute')).toBe('0');
    expect(limited.headers.get('x-ratelimit-reset-minute')).toBe(firstReset);
    // retryAfter points at the end of the window
    expect(Math.abs(Date.now() + retryAfter * 1000 - Date.parse(firstReset))).toBeLessThan(2_000);

    // every route is limited, not just the one used above
    const other = await svc.call('POST', '/v1/chat', { body: { message: 'hi' } });
    expect(other.status).toBe(429);

    // another key has a budget of its own
    const b = await svc.call('GET', '/v1/agents', { key: KEY_B });
    expect(b.status).toBe(200);
    expect(b.headers.get('x-ratelimit-limit-minute')).toBe('60');
    expect(b.headers.get('x-ratelimit-remaining-minute')).toBe('59');

    // and the X-API-Key header is the same key, so the same (exhausted) budget
    const viaHeader = await svc.call('GET', '/v1/agents', { key: null, headers: { 'x-api-key': KEY_A } });
    expect(viaHeader.status).toBe(429);
  });

  it('requests without a valid key are limited per address: 60 × 401, then 429', async () => {
    const svc = await service({ rateLimit: 60, keys: [KEY_A] });
    for (let i = 1; i <= 60; i++) {
      // no key and a wrong key share the address bucket
      const r = await svc.call('GET', '/v1/superagents', { key: i % 2 ? null : 'sa_sk_wrongwrongwrongwrongwrongwrong' });
      expect(r.status, `request ${i}`).toBe(401);
      expect(r.json).toEqual({ statusCode: 401, message: 'Invalid or revoked API key', error: 'Unauthorized' });
      expect(r.headers.get('x-ratelimit-limit-minute')).toBe('60');
      expect(r.headers.get('x-ratelimit-remaining-minute')).toBe(String(60 - i));
    }
    const limited = await svc.call('GET', '/v1/superagents', { key: null });
    expect(limited.status).toBe(429);
    expect(limited.json.message).toBe('Rate limit exceeded');
    expect(limited.headers.get('retry-after')).toBe(String(limited.json.retryAfter));

    // a valid key from the same address is not held back by the anonymous bucket
    const ok = await svc.call('GET', '/v1/superagents', { key: KEY_A });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-remaining-minute')).toBe('59');
  });

  it('rateLimit 0 turns the limit off: no rate-limit headers, no 429 after 70 requests', async () => {
    const svc = await service({ rateLimit: 0 });
    for (let i = 1; i <= 70; i++) {
      const r = await svc.call('GET', '/v1/agents');
      expect(r.status, `request ${i}`).toBe(200);
      for (const h of RATE_HEADERS) expect(r.headers.get(h), h).toBeNull();
    }
  });
});

describe('faults (§9)', () => {
  it('errorRate 1: every request answers 500 or 503 with the error body; both codes appear', async () => {
    const svc = await service({ faults: { errorRate: 1 } });
    const seen = new Set<number>();
    const requests: Array<[string, string, unknown, string | null | undefined]> = [
      ['GET', '/v1/agents', undefined, undefined],
      ['POST', '/v1/chat', { message: 'hi' }, undefined],
      ['GET', '/v1/superagents', undefined, null], // even without a key
      ['GET', '/v1/agents', undefined, undefined],
      ['GET', '/v1/nowhere', undefined, undefined],
      ['GET', '/v1/agents', undefined, undefined],
    ];
    for (const [method, p, body, key] of requests) {
      const r = await svc.call(method, p, { body, ...(key === undefined ? {} : { key }) });
      expect([500, 503], `${method} ${p}`).toContain(r.status);
      seen.add(r.status);
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      expect(r.json).toEqual({
        statusCode: r.status,
        message: expect.any(String),
        error: r.status === 500 ? 'Internal Server Error' : 'Service Unavailable',
      });
      expect(r.json.message.length).toBeGreaterThan(0);
    }
    expect([...seen].sort()).toEqual([500, 503]);
  });

  it('errorRate 0 (the default) never fails', async () => {
    const svc = await service({ faults: { errorRate: 0 } });
    for (let i = 0; i < 10; i++) expect((await svc.call('GET', '/v1/agents')).status).toBe(200);
  });

  it('latencyMs 150: a request takes at least 150 ms', async () => {
    const svc = await service({ faults: { latencyMs: 150 } });
    const started = Date.now();
    const r = await svc.call('GET', '/v1/agents');
    const took = Date.now() - started;
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);
    expect(took).toBeGreaterThanOrEqual(150);
    expect(took).toBeLessThan(5_000);
  });

  it('cutStreamAfter 3: session_info, exactly 3 pieces, an error event (502), then the connection is dropped', async () => {
    const svc = await service({ faults: { cutStreamAfter: 3 } });
    const r = await rawPost(svc.url, '/v1/chat', svc.key, { message: MESSAGE, stream: true });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(r.complete).toBe(false); // dropped, not ended
    const { before, error } = splitAtError(parseWire(r.text));
    expect(error).toEqual({ event: 'error', message: CUT_STREAM_MESSAGE, statusCode: 502 });
    expect(eventNames(before)).toEqual(['session_info', 'RunResponseContent', 'RunResponseContent', 'RunResponseContent']);
    // what did arrive is the start of the real reply
    const received = before.slice(1).map((e) => e.content).join('');
    const whole = await wholeReply();
    expect(whole.startsWith(received)).toBe(true);
    expect(whole.length).toBeGreaterThan(received.length);
    // a non-streamed answer is not cut
    expect((await svc.call('POST', '/v1/chat', { body: { message: MESSAGE } })).json.content).toBe(whole);
  });

  it('cutStreamAfter 3 also cuts an agent chat stream after its run events, and fetch reports the stream terminated', async () => {
    const svc = await service({ faults: { cutStreamAfter: 3 } });
    const launched = await svc.call('POST', '/v1/superagents', { body: { name: 'Cut Stream', model: 'gpt-4o', model_provider: 'openai' } });
    expect(launched.status).toBe(200);
    const res = await fetch(`${svc.url}/v1/superagents/${launched.json.agent_id}/chat`, {
      method: 'POST',
      headers: { authorization: `Bearer ${svc.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'What is the price of SOL?', stream: true }),
    });
    expect(res.status).toBe(200);
    const decoder = new TextDecoder();
    const reader = res.body!.getReader();
    let text = '';
    let failure: unknown;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
    } catch (err) {
      failure = err;
    }
    expect(failure).toBeInstanceOf(TypeError);
    expect(String((failure as Error).message)).toMatch(/terminated/);
    const { before, error } = splitAtError(parseWire(text));
    expect(error).toEqual({ event: 'error', message: CUT_STREAM_MESSAGE, statusCode: 502 });
    // market-intel is on by default: its tool call goes out before the content
    expect(eventNames(before)).toEqual(['session_info', 'RunStarted', 'ToolCallStarted', 'ToolCallCompleted', 'RunContent', 'RunContent', 'RunContent']);
  });

  it('cutStreamAfter 0: session_info, then the error event, then the drop', async () => {
    const svc = await service({ faults: { cutStreamAfter: 0 } });
    const r = await rawPost(svc.url, '/v1/chat', svc.key, { message: 'hi', stream: true });
    expect(r.complete).toBe(false);
    const { before, error } = splitAtError(parseWire(r.text));
    expect(eventNames(before)).toEqual(['session_info']);
    expect(error.statusCode).toBe(502);
  });

  it('errorRate 1 on a streaming assistant chat: 200, session_info and half the pieces, then the fault in-band and a clean end', async () => {
    const whole = await wholeReply();
    const svc = await service({ faults: { errorRate: 1 } });
    const r = await rawPost(svc.url, '/v1/chat', svc.key, { message: MESSAGE, stream: true });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(r.complete).toBe(true); // ended, not dropped
    const { before, error } = splitAtError(parseWire(r.text));
    expect([500, 503]).toContain(error.statusCode);
    expect(error.message).toMatch(/\(injected fault\)$/);
    expect(before[0].event).toBe('session_info');
    const pieces = before.slice(1);
    expect(pieces.length).toBeGreaterThan(0);
    expect(new Set(eventNames(pieces))).toEqual(new Set(['RunResponseContent']));
    const received = pieces.map((e) => e.content).join('');
    expect(whole.startsWith(received)).toBe(true);
    expect(received.length).toBeLessThan(whole.length);
  });

  it('errorRate 1 on a streaming agent chat fails mid-stream too; its JSON chat, a keyless stream and a bad body fail before the answer', async () => {
    const dataDir = scratch();
    const healthy = await service({ dataDir, keys: [KEY_A] });
    const launched = await healthy.call('POST', '/v1/superagents', { body: { name: 'Faulty', model: 'gpt-4o', model_provider: 'openai' } });
    expect(launched.status).toBe(200);
    const chatPath = `/v1/superagents/${launched.json.agent_id}/chat`;
    const svc = await service({ dataDir, keys: [KEY_A], faults: { errorRate: 1 } });

    const r = await rawPost(svc.url, chatPath, KEY_A, { message: 'How is BTC doing?', stream: true });
    expect(r.status).toBe(200);
    const { before, error } = splitAtError(parseWire(r.text));
    expect([500, 503]).toContain(error.statusCode);
    expect(eventNames(before).slice(0, 2)).toEqual(['session_info', 'RunStarted']);
    expect(eventNames(before)).toContain('RunContent');
    expect(eventNames(before)).not.toContain('RunCompleted');

    const answers = [
      await svc.call('POST', chatPath, { body: { message: 'How is BTC doing?' } }),
      await svc.call('POST', chatPath, { body: { message: 'hi', stream: true }, key: null }),
      await svc.call('POST', chatPath, { rawBody: '{"stream": true', headers: { 'content-type': 'application/json' } }),
    ];
    for (const a of answers) {
      expect([500, 503]).toContain(a.status);
      expect(a.headers.get('content-type')).toMatch(/^application\/json/);
      expect(a.json).toEqual({ statusCode: a.status, message: expect.stringMatching(/\(injected fault\)$/), error: expect.any(String) });
    }
  });

  it('unhealthy: every agent reports healthy false (and true without the fault)', async () => {
    const body = { model: 'gpt-4o', model_provider: 'openai' };
    const sick = await service({ faults: { unhealthy: true } });
    const a = await sick.call('POST', '/v1/superagents', { body: { name: 'Sick', ...body } });
    expect(a.status).toBe(200);
    const h = await sick.call('GET', `/v1/superagents/${a.json.agent_id}/health`);
    expect(h.status).toBe(200);
    expect(h.json).toEqual({ agent_id: a.json.agent_id, healthy: false });

    const well = await service();
    const b = await well.call('POST', '/v1/superagents', { body: { name: 'Well', ...body } });
    const h2 = await well.call('GET', `/v1/superagents/${b.json.agent_id}/health`);
    expect(h2.json).toEqual({ agent_id: b.json.agent_id, healthy: true });
  });

  it('an unexpected error after a stream began is reported in-band as a data-only error event, then the stream ends', async () => {
    // a fault switch that breaks once the stream is under way: the only way to reach app.ts's in-band path from outside
    class BreakingFaults extends Faults {
      override streamInterruption(): Interruption {
        return Object.defineProperty({ statusCode: 0, message: '', drop: false } as Interruption, 'afterPieces', {
          get: () => {
            throw new Error('boom');
          },
        });
      }
    }
    const dataDir = scratch();
    const logged: string[] = [];
    const app = createApp({
      service: {
        store: new Store(dataDir).open(),
        faults: new BreakingFaults(),
        tokenDelayMs: 0,
        pingIntervalMs: 0,
        assistantTimeLimitMs: 60_000,
        connectedProviders: new Set(),
      },
      keys: new KeyRing([KEY_A]),
      limiter: new RateLimiter(0),
      log: (line) => logged.push(line),
    });
    const server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    open.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    const r = await rawPost(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, '/v1/chat', KEY_A, { message: 'hi', stream: true });
    expect(r.status).toBe(200);
    expect(r.complete).toBe(true);
    const { before, error } = splitAtError(parseWire(r.text));
    expect(eventNames(before)).toEqual(['session_info']);
    expect(error).toEqual({ event: 'error', message: 'Internal server error', statusCode: 500 });
    expect(r.text).not.toMatch(/^event:/m);
    expect(logged.join('\n')).toContain('boom');
  });
});

describe('SSE keep-alive (§6)', () => {
  it('sends `: ping` comment lines while idle, and the stream still parses to the same reply', async () => {
    const expected = await wholeReply();
    const svc = await service({ pingIntervalMs: 50, tokenDelayMs: 120 });
    const r = await svc.call('POST', '/v1/chat', { body: { message: MESSAGE, stream: true } });
    expect(r.status).toBe(200);
    const lines = r.text.split('\n');
    const pings = lines.filter((l) => l === ': ping');
    expect(pings.length).toBeGreaterThanOrEqual(2);
    // a ping is a block of its own, never inside an event
    expect(r.text).toContain('\n\n: ping\n\n');
    // only pings as comments
    expect(lines.filter((l) => l.startsWith(':')).every((l) => l === ': ping')).toBe(true);

    const s = expectAssistantStream(r.text);
    expect(s.wire.pings).toBe(pings.length);
    expect(s.content).toBe(expected);
  });

  it('no ping when pieces come faster than the interval', async () => {
    const svc = await service({ pingIntervalMs: 5_000, tokenDelayMs: 0 });
    const r = await svc.call('POST', '/v1/chat', { body: { message: 'hi', stream: true } });
    expect(r.status).toBe(200);
    expect(r.text).not.toContain(': ping');
  });
});

describe('programmatic entry: startServer', () => {
  const started: RunningServer[] = [];
  afterAll(async () => {
    await Promise.all(started.map((s) => s.close()));
  });

  it('port 0 listens on 127.0.0.1 at a free port; without keys it creates and then reuses the data dir key; close() stops it', async () => {
    const dataDir = scratch('superagent-entry-');
    const first = await startServer({ dataDir, port: 0, log: () => undefined });
    started.push(first);
    expect(first.host).toBe('127.0.0.1');
    const m = /^http:\/\/127\.0\.0\.1:(\d+)$/.exec(first.url);
    expect(m).not.toBeNull();
    expect(Number(m![1])).toBe(first.port);
    expect(first.port).toBeGreaterThan(0);
    expect(first.dataDir).toBe(dataDir);

    expect(first.keyCreated).toBe(true);
    expect(first.key).toMatch(/^sa_sk_[A-Za-z0-9]{32}$/);
    const keyFile = path.join(dataDir, 'api-key');
    const stat = fs.statSync(keyFile);
    expect(stat.mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(keyFile, 'utf8').trim()).toBe(first.key);
    expect(fs.readFileSync(keyFile, 'utf8').trim()).toMatch(/^sa_sk_[A-Za-z0-9]{32}$/);

    // the key works, a different one does not
    const ok = await callService(first.url, 'POST', '/v1/agents', {
      key: first.key,
      body: { name: 'Persisted', goal: 'g', instructions: 'i' },
    });
    expect(ok.status).toBe(201);
    const wrong = await callService(first.url, 'GET', '/v1/agents', { key: 'sa_sk_' + 'x'.repeat(32) });
    expect(wrong.status).toBe(401);

    await first.close();
    await expect(fetch(`${first.url}/v1/agents`, { headers: { authorization: `Bearer ${first.key}` } })).rejects.toThrow();
    const refused = await fetch(`${first.url}/v1/agents`).then(
      () => null,
      (err: Error & { cause?: { code?: string } }) => err.cause?.code,
    );
    expect(refused).toBe('ECONNREFUSED');

    const second = await startServer({ dataDir, port: 0, log: () => undefined });
    started.push(second);
    expect(second.keyCreated).toBe(false);
    expect(second.key).toBe(first.key);
    expect(fs.readFileSync(keyFile, 'utf8').trim()).toBe(first.key);
    // state survived the restart (§9)
    const list = await callService(second.url, 'GET', '/v1/agents', { key: second.key });
    expect(list.status).toBe(200);
    expect(list.json.map((a: any) => a.name)).toEqual(['Persisted']);
  });

  it('explicit keys: no key file is created and keyCreated is false', async () => {
    const dataDir = scratch('superagent-entry-');
    const s = await startServer({ dataDir, port: 0, keys: [KEY_A, KEY_B], log: () => undefined });
    started.push(s);
    expect(s.key).toBe(KEY_A);
    expect(s.keyCreated).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'api-key'))).toBe(false);
    for (const key of [KEY_A, KEY_B]) {
      expect((await callService(s.url, 'GET', '/v1/agents', { key })).status).toBe(200);
    }
  });
});

describe('the built CLI: superagent server', () => {
  type Child = ResultPromise<{ reject: false; buffer: false; cleanup: true; timeout: number }>;
  const children: Child[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null && !c.killed) c.kill('SIGKILL');
  });

  function spawnServer(args: string[]) {
    const child = execa('node', [BIN, 'server', ...args], {
      cwd: ROOT,
      reject: false,
      buffer: false,
      cleanup: true,
      timeout: 25_000,
      env: { SUPERAGENT_CONFIG_DIR: scratch('superagent-cli-config-') },
    }) as Child;
    children.push(child);
    let out = '';
    let err = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
    const lines = (n: number) =>
      new Promise<string[]>((resolve, reject) => {
        const check = () => {
          const all = out.split('\n');
          if (all.length > n) {
            clearInterval(poll);
            resolve(all.slice(0, n));
          }
        };
        const poll = setInterval(check, 10);
        void child.then((r) => {
          clearInterval(poll);
          reject(new Error(`exited ${r.exitCode} before ${n} lines; stdout: ${out} stderr: ${err}`));
        });
        check();
      });
    return { child, lines, out: () => out, err: () => err };
  }

  it('prints Listening on http://127.0.0.1:<port> then the key; serves with it; SIGTERM exits 0', async () => {
    const dataDir = scratch('superagent-cli-');
    const p = spawnServer(['--port', '0', '--data-dir', dataDir, '--token-delay', '0']);
    const [first, second] = await p.lines(2);
    const m = /^Listening on (http:\/\/127\.0\.0\.1:(\d+))$/.exec(first!);
    expect(m, first).not.toBeNull();
    expect(Number(m![2])).toBeGreaterThan(0);
    const url = m![1]!;
    const k = /(sa_sk_[A-Za-z0-9]{32})/.exec(second!);
    expect(k, second).not.toBeNull();
    const key = k![1]!;
    expect(fs.readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim()).toBe(key);

    const r = await callService(url, 'POST', '/v1/chat', { key, body: { message: 'hi', stream: true } });
    expect(r.status).toBe(200);
    expectAssistantStream(r.text);
    const unauthorized = await callService(url, 'GET', '/v1/agents', { key: 'sa_sk_' + 'y'.repeat(32) });
    expect(unauthorized.status).toBe(401);

    p.child.kill('SIGTERM');
    const result = await p.child;
    expect(result.exitCode).toBe(0);
    expect(result.signal).toBeUndefined();
    await expect(fetch(`${url}/v1/agents`)).rejects.toThrow();
  });

  it('--port abc exits 2 with a one-line error on stderr', async () => {
    const result = await execa('node', [BIN, 'server', '--port', 'abc', '--data-dir', scratch('superagent-cli-')], {
      cwd: ROOT,
      reject: false,
      timeout: 15_000,
    });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('--port');
  });

  it('--fault-error-rate 2 exits 2 with a one-line error on stderr', async () => {
    const result = await execa(
      'node',
      [BIN, 'server', '--port', '0', '--fault-error-rate', '2', '--data-dir', scratch('superagent-cli-')],
      { cwd: ROOT, reject: false, timeout: 15_000 },
    );
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('--fault-error-rate');
  });
});
