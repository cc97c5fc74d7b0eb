// The embedded service's faults on demand and SSE keep-alive (docs/api.md, What the embedded service
// adds; Streaming replies) over real HTTP: injected
// failures before an answer and in-band once a stream has begun, cut streams, pings while idle.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app.js';
import { KeyRing } from '../../src/server/auth.js';
import { CUT_STREAM_MESSAGE, Faults } from '../../src/server/faults.js';
import { Store } from '../../src/server/index.js';
import { PendingWrites } from '../../src/server/pending-writes.js';
import { RateLimiter } from '../../src/server/rate-limit.js';
import { Simulation } from '../../src/server/sim/simulation.js';
import type { Interruption } from '../../src/server/sse.js';
import { eventNames, expectAssistantStream, parseWire, perTest, splitAtError } from '../helpers/service-support.js';

const KEY_A = 'sa_sk_faultsAfaultsAfaultsAfaultsAf';
const { service, serviceOn, scratch, closeAfter } = perTest();

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
        res.on('close', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, complete: res.complete }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('faults on demand', () => {
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

  it('latencyMs 150: every answer waits 150 ms first (the waits are recorded, not timed)', async () => {
    const waits: number[] = [];
    const svc = await service({ faults: { latencyMs: 150 }, sleep: async (ms) => void waits.push(ms) });
    const r = await svc.call('GET', '/v1/agents');
    expect(r.status).toBe(200);
    expect(r.json).toEqual([]);
    expect(waits).toEqual([150]);
    await svc.call('GET', '/v1/agents');
    expect(waits).toEqual([150, 150]);
  });

  it(
    'cutStreamAfter 3: session_info, exactly 3 pieces, an ' + 'error event (502), then the connection is dropped',
    async () => {
      const svc = await service({ faults: { cutStreamAfter: 3 } });
      const r = await rawPost(svc.url, '/v1/chat', svc.key, { message: MESSAGE, stream: true });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(r.complete).toBe(false); // dropped, not ended
      const { before, error } = splitAtError(parseWire(r.text));
      expect(error).toEqual({ event: 'error', message: CUT_STREAM_MESSAGE, statusCode: 502 });
      expect(eventNames(before)).toEqual([
        'session_info',
        'RunResponseContent',
        'RunResponseContent',
        'RunResponseContent',
      ]);
      // what did arrive is the start of the real reply
      const received = before
        .slice(1)
        .map((e) => e.content)
        .join('');
      const whole = await wholeReply();
      expect(whole.startsWith(received)).toBe(true);
      expect(whole.length).toBeGreaterThan(received.length);
      // a non-streamed answer is not cut
      expect((await svc.call('POST', '/v1/chat', { body: { message: MESSAGE } })).json.content).toBe(whole);
    },
  );

  it(
    'cutStreamAfter 3 also cuts an agent chat stream after its ' +
      'run events, and fetch reports the stream terminated',
    async () => {
      const svc = await service({ faults: { cutStreamAfter: 3 } });
      const launched = await svc.call('POST', '/v1/superagents', {
        body: { name: 'Cut Stream', model: 'gpt-4o', model_provider: 'openai' },
      });
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
      expect(eventNames(before)).toEqual([
        'session_info',
        'RunStarted',
        'ToolCallStarted',
        'ToolCallCompleted',
        'RunContent',
        'RunContent',
        'RunContent',
      ]);
    },
  );

  it('cutStreamAfter 0: session_info, then the error event, then the drop', async () => {
    const svc = await service({ faults: { cutStreamAfter: 0 } });
    const r = await rawPost(svc.url, '/v1/chat', svc.key, { message: 'hi', stream: true });
    expect(r.complete).toBe(false);
    const { before, error } = splitAtError(parseWire(r.text));
    expect(eventNames(before)).toEqual(['session_info']);
    expect(error.statusCode).toBe(502);
  });

  it(
    'errorRate 1 on a streaming assistant chat: 200, session_info ' +
      'and half the pieces, then the fault in-band and a clean end',
    async () => {
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
    },
  );

  it(
    'errorRate 1 on a streaming agent chat fails mid-stream too; its ' +
      'JSON chat, a keyless stream and a bad body fail before the answer',
    async () => {
      const healthy = await service({ keys: [KEY_A] });
      const launched = await healthy.call('POST', '/v1/superagents', {
        body: { name: 'Faulty', model: 'gpt-4o', model_provider: 'openai' },
      });
      expect(launched.status).toBe(200);
      const chatPath = `/v1/superagents/${launched.json.agent_id}/chat`;
      const svc = await serviceOn(healthy.dataDir, { keys: [KEY_A], faults: { errorRate: 1 } });

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
        await svc.call('POST', chatPath, {
          rawBody: '{"stream": true',
          headers: { 'content-type': 'application/json' },
        }),
      ];
      for (const a of answers) {
        expect([500, 503]).toContain(a.status);
        expect(a.headers.get('content-type')).toMatch(/^application\/json/);
        expect(a.json).toEqual({
          statusCode: a.status,
          message: expect.stringMatching(/\(injected fault\)$/),
          error: expect.any(String),
        });
      }
    },
  );

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

  it(
    'an unexpected error after a stream began is reported in-band ' +
      'as a data-only error event, then the stream ends',
    async () => {
      // a fault switch that breaks once the stream is under way:
      // the only way to reach app.ts's in-band path from outside
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
      const store = new Store(dataDir).open();
      const app = createApp({
        service: {
          store,
          faults: new BreakingFaults(),
          tokenDelayMs: 0,
          sleep: async () => undefined,
          pingIntervalMs: 0,
          assistantTimeLimitMs: 60_000,
          connectedProviders: new Set(),
          pendingWrites: new PendingWrites(() => undefined),
          sim: new Simulation(store),
        },
        keys: new KeyRing([KEY_A]),
        limiter: new RateLimiter(0),
        log: (line) => logged.push(line),
      });
      const server = http.createServer(app);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      closeAfter({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
      const r = await rawPost(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, '/v1/chat', KEY_A, {
        message: 'hi',
        stream: true,
      });
      expect(r.status).toBe(200);
      expect(r.complete).toBe(true);
      const { before, error } = splitAtError(parseWire(r.text));
      expect(eventNames(before)).toEqual(['session_info']);
      expect(error).toEqual({ event: 'error', message: 'Internal server error', statusCode: 500 });
      expect(r.text).not.toMatch(/^event:/m);
      expect(logged.join('\n')).toContain('boom');
    },
  );
});

describe('SSE keep-alive', () => {
  it('sends `: ping` comment lines while idle, and the stream still parses to the same reply', async () => {
    const expected = await wholeReply();
    // the first two gaps between pieces last long enough for pings; the rest pass at once
    let slow = 2;
    const sleep = (ms: number) => (slow-- > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve());
    const svc = await service({ pingIntervalMs: 30, tokenDelayMs: 100, sleep });
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
