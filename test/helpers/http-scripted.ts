// For the HTTP client's unit tests: scripted node:http servers on loopback that record each request
// and answer as told, and an ApiClient whose `sleep` records the waits instead of waiting (so no
// retry test takes real time). Everything a test opens is closed after it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { ApiClient, type ClientOptions, type RequestOptions } from '../../src/api/client.js';

export interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Scripted {
  url: string;
  requests: Seen[];
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, seen: Seen, index: number) => void;

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface Harness {
  client: ApiClient;
  /** what the client asked `sleep` for, in ms */
  waits: number[];
  notices: string[];
  traces: string[];
}

export const KEY = 'sa_sk_0123456789abcdef0123456789abcd';
export const AFTER_POST = "run 'superagent list' to see whether the agent was launched before trying again";

export const get = (path = '/v1/superagents'): RequestOptions => ({ method: 'GET', path });
export const post = (body: unknown = { name: 'a' }): RequestOptions => ({
  method: 'POST',
  path: '/v1/superagents',
  body,
  afterUncertainPost: AFTER_POST,
});

/** Answers the i-th request with answers[i] (the last one repeats). */
export function sequence(...answers: Answer[]): Handler {
  return (_req, res, _seen, i) => {
    const a = answers[Math.min(i, answers.length - 1)]!;
    const text = a.body === undefined ? '' : typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
    res.end(text);
  };
}

/** The rejection of a call (fails the test when the call succeeds). */
export async function failure(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closer(server: http.Server): () => Promise<void> {
  return async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
}

/** Call once at the top of a test file: the servers and clients of each test are closed after it. */
export function httpHarness() {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });

  return {
    /** A server on 127.0.0.1 that records every request (with its body) before handing it to `handler`. */
    async scripted(handler: Handler): Promise<Scripted> {
      const requests: Seen[] = [];
      const server = http.createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const seen: Seen = {
            method: req.method ?? '',
            url: req.url ?? '',
            headers: req.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          };
          requests.push(seen);
          handler(req, res, seen, requests.length - 1);
        });
      });
      const url = await listen(server);
      cleanups.push(closer(server));
      return { url, requests };
    },

    /** A pass-through proxy in front of `target` that counts what reaches it. */
    async countingProxy(target: string): Promise<{ url: string; count: () => number }> {
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
      cleanups.push(closer(server));
      return { url, count: () => n };
    },

    /** A loopback port nothing listens on. */
    async closedPort(): Promise<string> {
      const server = http.createServer();
      const url = await listen(server);
      await closer(server)();
      return url;
    },

    client(baseUrl: string, extra: Partial<ClientOptions> = {}): Harness {
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
    },
  };
}
