// Test helpers: a real embedded service on a loopback port with a fresh data dir, and a tiny HTTP caller.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, type Exchange, type RunningServer, type ServerOptions } from '../../src/server/index.js';
import { recordExchange } from '../conformance/collect.js';

export { skipResponseConformance } from '../conformance/collect.js';

export function tempDir(prefix = 'superagent-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface TestService extends RunningServer {
  /** calls the service with this service's first key unless `key` is given (null: no key) */
  call(method: string, urlPath: string, opts?: CallOptions): Promise<CallResult>;
  /** every exchange it answered, in order (a test may splice it to look at its own) */
  exchanges: Exchange[];
  /** the exchanges the CLI made (its User-Agent), taken out of `exchanges` */
  cliRequests(): Array<{ method: string; path: string; body: any }>;
}

export interface CallOptions {
  body?: unknown;
  /** sent verbatim instead of JSON.stringify(body) */
  rawBody?: string | Buffer;
  key?: string | null;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  /** the parsed JSON body, or undefined when it is not JSON */
  json: any;
}

/**
 * For a service whose tests are not about money: agents launched with nothing on their paper accounts,
 * so that destroy and apply --prune, which refuse an agent holding funds, go ahead as they always did.
 */
export const UNFUNDED = { paperBalanceUsd: 0 } as const satisfies Partial<ServerOptions>;

/** Every exchange is recorded for the file's conformance check (test/setup/conformance.ts). */
export async function startTestService(options: Partial<ServerOptions> = {}): Promise<TestService> {
  const exchanges: Exchange[] = [];
  const onExchange = (exchange: Exchange) => {
    exchanges.push(exchange);
    recordExchange(exchange);
    options.onExchange?.(exchange);
  };
  const server = await startServer({
    dataDir: options.dataDir ?? tempDir(),
    rateLimit: 0,
    tokenDelayMs: 0,
    log: () => undefined,
    ...options,
    onExchange,
  });
  return asTestService(server, exchanges);
}

/** A running service with the test conveniences, its answered exchanges collected in `exchanges`. */
export function asTestService(server: RunningServer, exchanges: Exchange[]): TestService {
  const call = (method: string, urlPath: string, opts: CallOptions = {}) =>
    callService(server.url, method, urlPath, { key: server.key, ...opts });
  const cliRequests = () =>
    exchanges
      .splice(0)
      .filter((e) => e.userAgent?.startsWith('superagent/'))
      .map((e) => ({ method: e.method, path: e.path, body: e.requestBody ? JSON.parse(e.requestBody) : undefined }));
  return Object.assign(server, { call, exchanges, cliRequests });
}

export async function callService(
  baseUrl: string,
  method: string,
  urlPath: string,
  opts: CallOptions = {},
): Promise<CallResult> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  // a plain Uint8Array: the DOM's BodyInit (highlight.js's types bring in lib.dom) takes no Buffer
  let body: string | Uint8Array<ArrayBuffer> | undefined;
  if (opts.rawBody !== undefined) body = typeof opts.rawBody === 'string' ? opts.rawBody : new Uint8Array(opts.rawBody);
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(baseUrl + urlPath, { method, headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Parses an SSE body the way a client would: events with their name and parsed JSON data. */
export function parseSse(text: string): Array<{ event: string; data: any }> {
  const events: Array<{ event: string; data: any }> = [];
  for (const block of text.replace(/\r\n/g, '\n').split('\n\n')) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':') || line === '') continue;
      const [field, ...rest] = line.split(':');
      const value = rest.join(':').replace(/^ /, '');
      if (field === 'event') event = value;
      if (field === 'data') data.push(value);
    }
    if (data.length) events.push({ event, data: JSON.parse(data.join('\n')) });
  }
  return events;
}

/** Launches an agent straight through the API (model and provider are required, as on the hosted service). */
export async function launchAgent(
  svc: Pick<TestService, 'call'>,
  body: Record<string, unknown>,
  key?: string,
): Promise<{ agent_id: string; name: string; bot_username: string | null; wallet_address: string; status: string }> {
  const r = await svc.call('POST', '/v1/superagents', {
    body: { model: 'gpt-4o', model_provider: 'openai', ...body },
    ...(key ? { key } : {}),
  });
  if (r.status !== 200) throw new Error(`launch answered ${r.status}: ${r.text}`);
  return r.json;
}
