// HTTP/1.1 over Node's own http and https modules, with one keep-alive agent per client. Not undici:
// loading it costs ~20 ms (its public entry ~60 ms), and the background tier-up of its WebAssembly
// parser holds the process ~100 ms after the last request unless a process-wide V8 flag is set
// (measured before the switch: bench/README.md). node:http has neither cost; what undici added here
// (pooling, time-outs, abort) is a few lines. A request a proxy variable applies to goes through
// undici's EnvHttpProxyAgent instead (proxy.ts), loaded then only from its own bundle, which sets that
// V8 flag (src/vendor/undici.ts); its answers are read the same way.
import type { Agent, IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { EnvHttpProxyAgent } from 'undici';
import { ANSWER_LIMITS } from '../contract.js';
import { answerTooLarge } from './answer-checks.js';
import { proxyAnswered, proxyFailure, proxyFor, proxyOrigin, proxySettings } from './proxy.js';
import type { Env, ProxySettings, Via } from './proxy.js';

export type Headers = IncomingHttpHeaders;

/** The most calls in flight at once: an account holds 10 agents at most, so the kill switch sends all. */
export const AT_ONCE = 10;

export interface TransportRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
}

export interface TransportResponse {
  status: number;
  headers: Headers;
  /** the body as it arrives; destroy() drops the rest */
  body: Readable;
}

/** The whole body as UTF-8 text; one larger than `maxBytes` is dropped there (the connection with it). */
export async function bodyText(
  body: AsyncIterable<Uint8Array | string>,
  maxBytes = ANSWER_LIMITS.jsonBytes,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += buf.length;
    if (size > maxBytes) throw answerTooLarge(maxBytes); // leaving the loop destroys the body
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * `answer`, or the signal's reason once it aborts: undici does not end a request waiting on its CONNECT
 * tunnel when the signal aborts (a proxy that accepts and never answers held it for good).
 */
async function untilAborted<T extends { body: Readable }>(answer: Promise<T>, signal: AbortSignal): Promise<T> {
  let onAbort = () => undefined as void;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([answer, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
    // an answer after the abort is nobody's: its connection is dropped
    if (signal.aborted)
      answer.then(
        (late) => late.body.destroy(),
        () => undefined,
      );
  }
}

export class Transport {
  private agent: Agent | undefined;
  private proxyAgent: EnvHttpProxyAgent | undefined;
  private readonly https: boolean;
  private readonly proxies: ProxySettings;

  /** `env`: where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (the command's environment) */
  constructor(origin: URL, env: Env = {}) {
    this.https = origin.protocol === 'https:';
    this.proxies = proxySettings(env);
  }

  private async module(): Promise<typeof import('node:http')> {
    // https (and TLS) only for https URLs: the embedded service is plain http on loopback
    return this.https ? ((await import('node:https')) as unknown as typeof import('node:http')) : import('node:http');
  }

  async request(req: TransportRequest): Promise<TransportResponse> {
    const via = proxyFor(req.url, this.proxies);
    if (via) return this.throughProxy(req, via);
    const http = await this.module();
    // as many sockets as calls sent at once (together.ts): the kill switch's pauses all go out at once
    this.agent ??= new http.Agent({ keepAlive: true, maxSockets: AT_ONCE, keepAliveMsecs: 4_000 });
    const agent = this.agent;
    return new Promise<TransportResponse>((resolve, reject) => {
      const r = http.request(
        req.url,
        { method: req.method, headers: req.headers, agent, signal: req.signal },
        (res) => {
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res });
        },
      );
      r.once('error', reject);
      r.end(req.body);
    });
  }

  private async throughProxy(req: TransportRequest, via: Via): Promise<TransportResponse> {
    const { EnvHttpProxyAgent } = await import('../vendor/undici.js');
    // plain http goes to the proxy as an absolute URL (as curl does: many proxies allow CONNECT to 443
    // only), https through a CONNECT tunnel; as many connections as the direct path has
    const { httpProxy, httpsProxy, noProxy } = this.proxies;
    const pool = { connections: AT_ONCE, keepAliveTimeout: 4_000 };
    const [httpOrigin, httpsOrigin] = [proxyOrigin(httpProxy), proxyOrigin(httpsProxy)];
    const settings = { httpProxy: httpOrigin, httpsProxy: httpsOrigin, noProxy, proxyTunnel: false, ...pool };
    const agent = (this.proxyAgent ??= new EnvHttpProxyAgent(settings));
    const { url, headers, body, signal } = req;
    const [origin, path, method] = [url.origin, `${url.pathname}${url.search}`, req.method as 'GET'];
    try {
      const res = await untilAborted(agent.request({ origin, path, method, headers, body, signal }), signal);
      // undici's body reports a destroy() without a reason as an error (node:http's does not): nobody
      // needs it, the reader (for await) sees its own failures
      res.body.on('error', () => undefined);
      const type = String(res.headers['content-type'] ?? '');
      // a 502 that is no JSON, to a plain request: the proxy's own page (it could not reach the service)
      if (url.protocol === 'http:' && res.statusCode === 502 && !type.includes('json')) {
        res.body.destroy();
        throw proxyAnswered(via.proxy, via.variable, 502);
      }
      return { status: res.statusCode, headers: res.headers as Headers, body: res.body };
    } catch (err) {
      if (signal.aborted) throw err;
      throw proxyFailure(err, via) ?? err;
    }
  }

  /** Closes every connection, so the process can exit. */
  close(): void {
    this.agent?.destroy();
    this.agent = undefined;
    // destroyed, not closed: nothing is waited for, and no error reaches anyone
    this.proxyAgent?.destroy().catch(() => undefined);
    this.proxyAgent = undefined;
  }
}
