// The transport: one undici Pool per base URL, the key header, JSON in and out, time-outs,
// retries (429 for any method; connection errors and 502/503/504 only where repeating is safe),
// and the --debug trace with secrets masked. Only the Pool and its request function are
// imported: the whole of undici costs several times more start-up.
import type { Dispatcher } from 'undici';
import { ApiStatusError, ConnectionError, statusError } from './errors.js';
import { redactHeaders, redactText } from './redact.js';
import { CliError, InterruptedError, ServiceError } from '../cli/errors.js';

export interface RetryPolicy {
  /** 429: at most this many retries… */
  rateLimitRetries: number;
  /** …and this much waiting in all */
  rateLimitWaitMs: number;
  /** connection errors and 502/503/504 on GET, PUT, DELETE */
  retries: number;
}

export interface ClientOptions {
  baseUrl: string;
  apiKey: string | null;
  timeoutMs: number;
  userAgent: string;
  /** --debug: one call per traced line, already redacted */
  trace?: (text: string) => void;
  /** a notice for the user (retry waits), on stderr */
  notice?: (text: string) => void;
  retry?: Partial<RetryPolicy>;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface RequestOptions {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** told to the user when a POST fails in a way that may have reached the service */
  afterUncertainPost?: string;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
  /** stops the request's time-out timer (streams keep only the idle limit) */
  settle(): void;
}

const IDEMPOTENT = new Set(['GET', 'PUT', 'DELETE']);
const RETRY_STATUSES = new Set([502, 503, 504]);
const TRACE_BODY_CHARS = 2000;

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new InterruptedError());
    }, { once: true });
  });

type RequestFn = (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;

let undiciParts: Promise<{ Pool: new (origin: string, opts?: object) => Dispatcher; request: RequestFn }> | undefined;
function loadUndici() {
  undiciParts ??= import('node:v8').then((v8) => {
    // undici parses HTTP with a WebAssembly module; V8's background tier-up of it keeps the
    // process alive ~100 ms after the last request (bench/get.js). Baseline code is fast enough here.
    v8.setFlagsFromString('--liftoff-only');
    return loadUndiciModules();
  });
  return undiciParts;
}

function loadUndiciModules() {
  return import('../vendor/undici.js') as Promise<{ Pool: new (origin: string, opts?: object) => Dispatcher; request: RequestFn }>;
}

function backoffMs(attempt: number): number {
  const base = Math.min(8000, 500 * 2 ** attempt);
  return Math.round(base * (1 - Math.random() * 0.25));
}

function header(headers: RawResponse['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function retryAfterSeconds(headers: RawResponse['headers'], body: unknown): number {
  const fromHeader = header(headers, 'retry-after');
  if (fromHeader !== undefined) {
    const secs = Number(fromHeader);
    if (Number.isFinite(secs)) return Math.max(0, secs);
    const date = Date.parse(fromHeader);
    if (!Number.isNaN(date)) return Math.max(0, Math.ceil((date - Date.now()) / 1000));
  }
  const fromBody = (body as { retryAfter?: unknown } | null)?.retryAfter;
  return typeof fromBody === 'number' && Number.isFinite(fromBody) ? Math.max(0, fromBody) : 1;
}

function cut(text: string): string {
  return text.length > TRACE_BODY_CHARS ? `${text.slice(0, TRACE_BODY_CHARS)}… (${text.length} characters)` : text;
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export class ApiClient {
  private pool: Dispatcher | undefined;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly retry: RetryPolicy;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(readonly options: ClientOptions) {
    const url = new URL(options.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.retry = { rateLimitRetries: 3, rateLimitWaitMs: 60_000, retries: 2, ...options.retry };
    this.sleep = options.sleep ?? defaultSleep;
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** A JSON call: the parsed answer, or a typed error. */
  async json<T>(opts: RequestOptions): Promise<T> {
    const res = await this.send(opts);
    try {
      let text: string;
      try {
        text = await res.body.text();
      } catch (err) {
        // the answer began but never finished (time-out, cut connection): a service failure, exit 7
        if (err instanceof CliError) throw err;
        if (opts.signal?.aborted) throw new InterruptedError();
        throw this.connectionFailure(err, `${this.options.baseUrl}${opts.path}`, opts, false, opts.timeoutMs ?? this.options.timeoutMs);
      }
      this.traceBody(text);
      return parseJson(text) as T;
    } finally {
      res.settle();
    }
  }

  /** A call whose body the caller reads as it arrives (SSE). Error statuses still throw. */
  stream(opts: RequestOptions): Promise<RawResponse> {
    return this.send(opts, true);
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    if (pool) await pool.destroy().catch(() => undefined);
  }

  private async dispatcher(): Promise<{ pool: Dispatcher; request: RequestFn }> {
    const { Pool, request } = await loadUndici();
    this.pool ??= new Pool(this.origin, { connections: 8, keepAliveTimeout: 4_000 });
    return { pool: this.pool, request };
  }

  private trace(text: string): void {
    this.options.trace?.(redactText(text, this.options.apiKey ? [this.options.apiKey] : []));
  }

  private traceBody(text: string): void {
    if (this.options.trace && text) this.trace(`  ${cut(text)}`);
  }

  private async send(opts: RequestOptions, streaming = false): Promise<RawResponse> {
    const { pool, request } = await this.dispatcher();
    const url = `${this.options.baseUrl}${opts.path}`;
    const timeoutMs = opts.timeoutMs ?? this.options.timeoutMs;
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const headers: Record<string, string> = {
      'user-agent': this.options.userAgent,
      accept: streaming ? 'text/event-stream, application/json' : 'application/json',
    };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    if (payload !== undefined) headers['content-type'] = 'application/json';

    let rateLimitRetries = 0;
    let rateLimitWaited = 0;
    let retries = 0;
    for (;;) {
      if (opts.signal?.aborted) throw new InterruptedError();
      const controller = new AbortController();
      const onAbort = () => controller.abort(new InterruptedError());
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        // the reason reaches a body still being read, so json() reports the time-out too
        controller.abort(this.connectionFailure({}, url, opts, true, timeoutMs));
      }, timeoutMs);
      const settle = () => {
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
      };
      const started = Date.now();
      if (this.options.trace) {
        this.trace(`→ ${opts.method} ${url}`);
        this.trace(`  ${JSON.stringify(redactHeaders(headers))}`);
        if (payload) this.trace(`  ${cut(payload)}`);
      }
      let data: Dispatcher.ResponseData;
      try {
        data = await request.call(pool, {
          path: this.basePath + opts.path,
          method: opts.method,
          headers,
          body: payload,
          signal: controller.signal,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        });
      } catch (err) {
        settle();
        if (opts.signal?.aborted) throw new InterruptedError();
        const failure = this.connectionFailure(err, url, opts, timedOut, timeoutMs);
        this.trace(`← ${failure.code ?? 'error'} after ${Date.now() - started} ms`);
        if (IDEMPOTENT.has(opts.method) && retries < this.retry.retries && !timedOut) {
          const wait = backoffMs(retries++);
          this.options.notice?.(`${failure.message}; retrying in ${(wait / 1000).toFixed(1)} s`);
          await this.sleep(wait, opts.signal);
          continue;
        }
        throw failure;
      }
      const status = data.statusCode;
      if (this.options.trace) {
        this.trace(`← ${status} ${opts.method} ${url} (${Date.now() - started} ms)`);
        this.trace(`  ${JSON.stringify(redactHeaders(data.headers))}`);
      }
      if (status >= 300 && status < 400) {
        // undici follows no redirects: the base URL is not the service's own (http → https, a path)
        settle();
        data.body.resume();
        const where = header(data.headers, 'location');
        throw new ServiceError(`${url} redirects${where ? ` to ${where}` : ''} (${status})`, 'use the address it redirects to as the base URL');
      }
      if (status < 300) {
        if (!streaming) return { status, headers: data.headers, body: data.body, settle };
        settle(); // from here the idle limit (bodyTimeout) guards the stream
        return { status, headers: data.headers, body: data.body, settle: () => undefined };
      }
      let text = '';
      try {
        text = await data.body.text();
      } catch {
        // the error body was cut; the status says enough
      }
      settle();
      this.traceBody(text);
      const body = parseJson(text);
      const requestId = header(data.headers, 'x-request-id');
      if (status === 429) {
        const secs = retryAfterSeconds(data.headers, body);
        if (rateLimitRetries < this.retry.rateLimitRetries && rateLimitWaited + secs * 1000 <= this.retry.rateLimitWaitMs) {
          rateLimitRetries++;
          rateLimitWaited += secs * 1000;
          this.options.notice?.(`Rate limited by the service; waiting ${secs} s before retrying (${rateLimitRetries} of ${this.retry.rateLimitRetries})`);
          await this.sleep(secs * 1000, opts.signal);
          continue;
        }
        throw statusError(429, body, requestId, secs);
      }
      if (RETRY_STATUSES.has(status) && IDEMPOTENT.has(opts.method) && retries < this.retry.retries) {
        const wait = backoffMs(retries++);
        this.options.notice?.(`The service answered ${status}; retrying in ${(wait / 1000).toFixed(1)} s`);
        await this.sleep(wait, opts.signal);
        continue;
      }
      const error = statusError(status, body, requestId);
      if (opts.method === 'POST' && status >= 502) {
        throw new ApiStatusError(status, `${error.message}; the request may have reached the service and was not repeated`, opts.afterUncertainPost ?? error.hint, requestId);
      }
      throw error;
    }
  }

  private connectionFailure(err: unknown, url: string, opts: RequestOptions, timedOut: boolean, timeoutMs: number): ConnectionError {
    const e = err as { code?: string; message?: string; cause?: { code?: string } };
    const code = e.code ?? e.cause?.code;
    const uncertain = opts.method === 'POST' && code !== 'ECONNREFUSED' && code !== 'ENOTFOUND';
    const tail = uncertain ? '; the request may have reached the service and was not repeated' : '';
    const hint = uncertain ? opts.afterUncertainPost : undefined;
    if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
      return new ConnectionError(`no answer from ${url} within ${timeoutMs / 1000} s${tail}`, hint ?? 'raise the limit with --timeout SECONDS', code);
    }
    const what = code === 'ECONNREFUSED' ? 'connection refused' : code === 'ENOTFOUND' ? 'host not found' : code ?? e.message ?? 'connection failed';
    return new ConnectionError(`cannot reach ${url}: ${what}${tail}`, hint ?? 'check the base URL and that the service is running', code);
  }
}
