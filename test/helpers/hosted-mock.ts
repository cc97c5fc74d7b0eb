// A stand-in for the hosted service on a loopback port, answering in the shapes hosted-openapi.json
// gives (records without model_provider, bot_username or wallet_address; the list wrapped in
// `agents`; skills PUT as `{disabled}`), with every request recorded. Tests reach it through
// SUPERAGENT_HOSTED_URL or --base-url: no test ever reaches the real hosted service.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
  /** true once a JSON answer was sent (one held back by `delayMs` is not, meanwhile) */
  answered?: boolean;
}

/** `sse` as several pieces: written `delayMs` apart (a reply streaming in); a `json` answer is sent `delayMs` late */
export type Route = (req: { method: string; path: string; body: any }) =>
  | {
      status?: number;
      json?: unknown;
      sse?: string | Uint8Array | string[];
      delayMs?: number;
      headers?: Record<string, string>;
    }
  | undefined;

export interface HostedMock {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

export async function startHostedMock(route: Route): Promise<HostedMock> {
  const requests: Recorded[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const path = (req.url ?? '/').split('?')[0]!;
      const recorded: Recorded = { method: req.method ?? 'GET', path, authorization: req.headers.authorization, body };
      requests.push(recorded);
      const answer = route({ method: req.method ?? 'GET', path, body }) ?? {
        status: 404,
        json: { statusCode: 404, message: `Cannot ${req.method} ${path}` },
      };
      if (answer.sse !== undefined) {
        res.writeHead(answer.status ?? 200, { 'content-type': 'text/event-stream' });
        if (!Array.isArray(answer.sse)) return void res.end(answer.sse);
        const pieces = [...answer.sse];
        const next = () => {
          if (res.destroyed) return;
          const piece = pieces.shift();
          if (piece === undefined) return void res.end();
          res.write(piece);
          setTimeout(next, answer.delayMs ?? 0);
        };
        next();
        return;
      }
      const payload = JSON.stringify(answer.json ?? {});
      setTimeout(() => {
        res.writeHead(answer.status ?? 200, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...answer.headers,
        });
        res.end(payload);
        recorded.answered = true;
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export const HOSTED_AGENT = {
  agent_id: 'a1b2c3d4-5678-90ab-cdef-1234567890ab',
  name: 'ETH Scalper',
  description: 'Short-term ETH momentum trades',
  status: 'running',
  model: 'gpt-4o',
  created_at: '2026-03-15T10:00:00Z',
};

/** An agent as the hosted list gives it. */
export interface Agent {
  agent_id: string;
  name: string;
  description: string;
  status: string;
  model: string;
  created_at: string;
}

export const agentNamed = (name: string): Agent => ({
  agent_id: randomUUID(),
  name,
  description: '',
  status: 'running',
  model: 'gpt-4o',
  created_at: '2026-03-15T10:00:00Z',
});

export interface LenientHooks {
  /** holds each list answer back (two runs both read the list before either launches) */
  listDelayMs?: number;
  /** as the list is read: another run may change things */
  onList?: () => void;
  /** as an agent is launched: another machine's run may add one of its own */
  onLaunch?: (launched: Agent) => void;
  /** holds a launch's answer back (a signal comes while it is on its way) */
  launchDelayMs?: (launched: Agent) => number | undefined;
}

/**
 * A service that launches whatever it is asked to, names and limit unchecked (as the hosted one may):
 * `agents` is what it holds.
 */
export function lenient(agents: Agent[], o: LenientHooks = {}): Route {
  return ({ method, path: p, body }) => {
    if (method === 'GET' && p === '/v1/superagents') {
      o.onList?.();
      return { json: { agents: [...agents] }, delayMs: o.listDelayMs };
    }
    if (method === 'POST' && p === '/v1/superagents') {
      const launched = agentNamed(body.name);
      agents.push(launched);
      o.onLaunch?.(launched);
      const { agent_id, name } = launched;
      const answer = { agent_id, name, bot_username: null, wallet_address: '0x1234...abcd', status: 'running' };
      return { json: answer, delayMs: o.launchDelayMs?.(launched) };
    }
    const skills = /^\/v1\/superagents\/([^/]+)\/skills$/.exec(p);
    const marketIntel = { name: 'market-intel', description: 'Market news', enabled: true };
    if (method === 'GET' && skills) return { json: { agent_id: skills[1], skills: [marketIntel] } };
    return undefined;
  };
}
