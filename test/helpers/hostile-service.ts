// For the commands tests against a hostile service: a node:http server
// on loopback answering each `METHOD /path` as the test scripts it (any body, any Content-Type, raw
// writes over time), and the key and agent id the CLI is pointed at. Closed after each test.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import type { Target } from './context.js';

export const HOSTILE_KEY = 'sa_sk_' + 'Hh1Oo2Ss3Tt4Ii5Ll6Ee7Kk8Ee9Yy0Zz';
export const AGENT_ID = 'a1b2c3d4-5678-90ab-cdef-1234567890ab';

/** What a route answers: a body (JSON unless a type is given), or a hand-written exchange. */
export type Reply =
  | { status?: number; type?: string | null; body: unknown }
  | ((req: http.IncomingMessage, res: http.ServerResponse) => void);

export type Routes = Record<string, Reply>;

/** Sends `body` as it is when it is text or bytes; anything else as its JSON. */
function answer(res: http.ServerResponse, r: Exclude<Reply, (...args: never[]) => unknown>): void {
  const raw = typeof r.body === 'string' || Buffer.isBuffer(r.body) ? r.body : JSON.stringify(r.body);
  const headers: Record<string, string> = {};
  const type = r.type === undefined ? 'application/json' : r.type;
  if (type !== null) headers['content-type'] = type;
  res.writeHead(r.status ?? 200, headers);
  res.end(raw);
}

/** Call once at the top of a test file: `serve(routes)` starts a server, closed after the test. */
export function hostileServices() {
  const open: http.Server[] = [];
  afterEach(async () => {
    await Promise.all(
      open.splice(0).map((s) => new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r())))),
    );
  });
  return {
    async serve(routes: Routes): Promise<Target & { seen: string[] }> {
      const seen: string[] = [];
      const server = http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          const key = `${req.method} ${(req.url ?? '/').split('?')[0]}`;
          seen.push(key);
          const r = routes[key];
          if (r === undefined) return answer(res, { status: 404, body: { statusCode: 404, message: `Cannot ${key}` } });
          if (typeof r === 'function') return r(req, res);
          answer(res, r);
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      open.push(server);
      return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, key: HOSTILE_KEY, seen };
    },
  };
}

/** One SSE data line per event, as the hosted service writes them. */
export function sse(...events: unknown[]): string {
  return events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');
}
