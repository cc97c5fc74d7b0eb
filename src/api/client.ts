// The client: the key header, JSON in and out, time-outs linked to the caller's AbortSignal, retries
// as retry.ts decides, and the --debug trace with secrets masked, over transport.ts.
import { BadAnswerError, InterruptedError } from '../core/errors.js';
import { compressedAnswer, header, looksLikeHtml, nestsDeeperThan, parseAnswer } from './answer-checks.js';
import { connectionFailure, unreadableAnswer, UNCERTAIN, type ProxyError } from './connection-failure.js';
import {
  ApiError,
  NotTheServiceError,
  RateLimitError,
  TimeoutError,
  statusError,
  type ConnectionError,
} from './errors.js';
import { cutForTrace, redactHeaders, redactText } from './redact.js';
import { redirectError } from './redirect.js';
import type { ClientOptions, RawResponse, RequestOptions } from './client-types.js';
import {
  DEFAULT_RETRY_POLICY,
  NOTHING_SPENT,
  decideRetry,
  retryAfterSeconds,
  type Decision,
  type Outcome,
  type RetryPolicy,
  type Spent,
} from './retry.js';
import { otherScheme } from './other-scheme.js';
import { proxyShown } from './proxy.js';
import { certificateProblem } from './tls.js';
import { Transport, bodyText } from './transport.js';

export { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';

export type { ClientOptions, RequestOptions, RawResponse } from './client-types.js';

const NO_RETRY: Decision = { retry: false };

const defaultSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new InterruptedError());
      },
      { once: true },
    );
  });

export class ApiClient {
  private transport: Transport | undefined;
  private readonly base: URL;
  private readonly retry: RetryPolicy;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  private readonly now: () => number;
  /** what this client waited on 429s so far: one client serves one command, and its waits share one budget */
  private rateLimitWaitedMs = 0;

  constructor(readonly options: ClientOptions) {
    this.base = new URL(options.baseUrl);
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.sleep = options.sleep ?? defaultSleep;
    this.now = options.now ?? Date.now;
  }

  /** A new command on this client (a REPL's next line): its 429 waits get a budget of their own. */
  startCommand(): void {
    this.rateLimitWaitedMs = 0;
  }

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  /** A JSON call: the parsed answer, or a typed error. */
  async json<T>(opts: RequestOptions): Promise<T> {
    const shown = opts.showWaiting === false ? undefined : this.options.waiting?.();
    try {
      return await this.jsonAnswer<T>(opts);
    } finally {
      shown?.stop();
    }
  }

  private async jsonAnswer<T>(opts: RequestOptions): Promise<T> {
    const res = await this.send(opts);
    try {
      let text: string;
      try {
        text = await bodyText(res.body);
      } catch (err) {
        const reason = res.failure();
        if (reason) throw reason;
        // the answer began but never finished (time-out, cut connection): a service failure, exit 7
        if (err instanceof ApiError || err instanceof InterruptedError || err instanceof BadAnswerError) throw err;
        if (opts.signal?.aborted) throw new InterruptedError();
        if (opts.method === 'POST') throw this.unreadable(opts, res.status, 'cut'); // it reached the service
        throw this.connectionFailure(err, opts, false);
      }
      this.traceBody(text);
      if (text !== '' && looksLikeHtml(res.headers, text)) throw this.notTheService(opts, res.status);
      const answer = parseAnswer(text);
      // the text itself: JSON.parse refused it (a JSON string would have lost its quotes)
      if (opts.method === 'POST' && answer === text) throw this.unreadable(opts, res.status, 'not JSON');
      return answer as T;
    } finally {
      res.settle();
    }
  }

  /** A call whose body the caller reads as it arrives (SSE). Error statuses still throw. */
  stream(opts: RequestOptions): Promise<RawResponse> {
    return this.send(opts, true);
  }

  async close(): Promise<void> {
    this.transport?.close();
    this.transport = undefined;
  }

  /** The request URL: the base URL's path (a service behind a prefix) then the contract's path. */
  private target(path: string): URL {
    const q = path.indexOf('?');
    const url = new URL(this.base.href);
    url.pathname = `${this.base.pathname.replace(/\/+$/, '')}${q === -1 ? path : path.slice(0, q)}`;
    url.search = q === -1 ? '' : path.slice(q);
    return url;
  }

  private trace(text: string): void {
    this.options.trace?.(redactText(text, this.options.apiKey ? [this.options.apiKey] : []));
  }

  /** A body: masked whole, then cut (a secret the cut falls inside would no longer look like one). */
  private traceBody(text: string): void {
    const secrets = this.options.apiKey ? [this.options.apiKey] : [];
    if (this.options.trace && text) this.options.trace(`  ${cutForTrace(redactText(text, secrets))}`);
  }

  private url(opts: RequestOptions): string {
    return redactText(`${this.options.baseUrl}${opts.path}`, []);
  }

  private headers(opts: RequestOptions, streaming: boolean, payload: string | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      'user-agent': this.options.userAgent,
      accept: streaming ? 'text/event-stream, application/json' : 'application/json',
      // without it any compression is acceptable (RFC 9110); the client decodes none
      'accept-encoding': 'identity',
    };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      // framed by length, whatever the method (node:http frames only some methods' bodies by itself)
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    return headers;
  }

  /** Waits before another attempt if retry.ts says so (announced first); the decision. */
  private async again(
    opts: Pick<RequestOptions, 'method' | 'signal'>,
    outcome: Outcome,
    spent: { value: Spent },
  ): Promise<Decision> {
    const sofar = { ...spent.value, rateLimitWaitedMs: this.rateLimitWaitedMs };
    const decision = decideRetry(opts.method, outcome, sofar, this.retry);
    if (!decision.retry) return decision;
    spent.value = decision.spent;
    this.rateLimitWaitedMs = decision.spent.rateLimitWaitedMs;
    this.options.notice?.(decision.notice, { rateLimited: decision.rateLimited, waitMs: decision.waitMs });
    await this.sleep(decision.waitMs, opts.signal);
    return decision;
  }

  /**
   * One wait for requests a 429 refused (sent with `waitOnRateLimit: false`), before they go again
   * together: `refused` is the one asking for the longest, `round` the waits they have had. When the
   * command's budget has no room for it, or the rounds are spent, the error to report instead.
   */
  async waitOutRateLimit(refused: RateLimitError, round: number, signal?: AbortSignal): Promise<void> {
    const spent = { value: { ...NOTHING_SPENT, rateLimitRetries: round } };
    const { retryAfter, requestId } = refused;
    const outcome: Outcome = { kind: 'status', status: 429, retryAfterSeconds: retryAfter };
    const decision = await this.again({ method: 'POST', signal }, outcome, spent);
    if (!decision.retry) throw this.rateLimitFailure({ message: refused.message }, decision, { requestId, retryAfter });
  }

  /** The 429 that stands: the service's Retry-After, and the budget when that is what stopped the wait. */
  private rateLimitFailure(body: unknown, decision: Decision, ctx: { requestId?: string; retryAfter?: number }) {
    const waitBudget = !decision.retry && decision.overBudget ? this.retry.rateLimitWaitMs / 1000 : undefined;
    return statusError(429, body, { ...ctx, waitBudget });
  }

  private async send(opts: RequestOptions, streaming = false): Promise<RawResponse> {
    const transport = (this.transport ??= new Transport(this.base, this.options.proxyEnv));
    const url = this.url(opts);
    const timeoutMs = opts.timeoutMs ?? this.options.timeoutMs;
    const payload = opts.body === undefined ? undefined : JSON.stringify(opts.body);
    const headers = this.headers(opts, streaming, payload);
    const spent = { value: NOTHING_SPENT };
    for (;;) {
      if (opts.signal?.aborted) throw new InterruptedError();
      // before the time-out starts: a wait for the rate budget is not the service being slow
      await this.options.pacer?.beforeRequest(opts.signal);
      const controller = new AbortController();
      const onAbort = () => controller.abort(new InterruptedError());
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        // the reason reaches a body still being read, so json() reports the time-out too
        controller.abort(this.connectionFailure({}, opts, true));
      }, timeoutMs);
      const settle = () => {
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
      };
      const started = this.now();
      if (this.options.trace) {
        this.trace(`→ ${opts.method} ${url}`);
        this.trace(`  ${JSON.stringify(redactHeaders(headers))}`);
        if (payload) this.traceBody(payload);
      }
      let data: Awaited<ReturnType<Transport['request']>>;
      try {
        data = await transport.request({
          url: this.target(opts.path),
          method: opts.method,
          headers,
          body: payload,
          signal: controller.signal,
        });
      } catch (err) {
        settle();
        this.options.pacer?.afterRequest();
        if (opts.signal?.aborted) throw new InterruptedError();
        const wrongScheme = timedOut ? undefined : await otherScheme(err, this.base, timeoutMs);
        const failure = wrongScheme ?? this.connectionFailure(err, opts, timedOut);
        this.trace(`← ${failure.code ?? 'error'} after ${this.now() - started} ms`);
        const { code, message } = failure;
        const lasting = !!wrongScheme || !!certificateProblem({ code }) || (failure as ProxyError).lasting === true;
        const outcome: Outcome = { kind: 'connection', timedOut: failure instanceof TimeoutError, lasting, message };
        if ((await this.again(opts, outcome, spent)).retry) continue;
        throw failure;
      }
      this.options.pacer?.afterRequest();
      const status = data.status;
      this.options.onAnswer?.(data.headers);
      if (this.options.trace) {
        this.trace(`← ${status} ${opts.method} ${url} (${this.now() - started} ms)`);
        this.trace(`  ${JSON.stringify(redactHeaders(data.headers))}`);
      }
      if (status >= 300 && status < 400) {
        // not followed (the key would travel with it): the base URL is not the service's own (http → https, a path)
        settle();
        data.body.resume();
        throw redirectError(this.target(opts.path), opts.path, status, header(data.headers, 'location'));
      }
      // a failure after the answer began (the time-out, say) is what reading the body reports
      const failure = () =>
        controller.signal.aborted && !opts.signal?.aborted ? (controller.signal.reason as ApiError) : undefined;
      const compressed = compressedAnswer(header(data.headers, 'content-encoding'));
      if (status < 300 && compressed) {
        settle();
        data.body.destroy();
        throw compressed;
      }
      if (status < 300) {
        if (!streaming) return { status, headers: data.headers, body: data.body, settle, failure };
        settle(); // from here the stream's reader keeps its own limit (sse.ts)
        if (looksLikeHtml(data.headers, '')) {
          data.body.destroy(); // a web page is not a reply, whatever it says
          throw this.notTheService(opts, status);
        }
        const proxy = proxyShown(this.target(opts.path).href, this.options.proxyEnv ?? {}) ?? undefined;
        return { status, headers: data.headers, body: data.body, settle: () => undefined, failure, proxy };
      }
      let text = '';
      try {
        // a compressed error body cannot be read: the status says enough
        if (compressed) data.body.destroy();
        else text = await bodyText(data.body);
      } catch {
        // the error body was cut; the status says enough
      }
      settle();
      this.traceBody(text);
      if (looksLikeHtml(data.headers, text)) throw this.notTheService(opts, status);
      // an error body too deep to print says no more than its status does
      const body = nestsDeeperThan(text) ? undefined : parseAnswer(text);
      const requestId = header(data.headers, 'x-request-id');
      const retryAfter =
        status === 429 ? retryAfterSeconds(header(data.headers, 'retry-after'), body, this.now()) : undefined;
      const outcome: Outcome = { kind: 'status', status, retryAfterSeconds: retryAfter };
      // a 429 the caller waits out itself (together.ts) is its at once
      const callerWaits = status === 429 && opts.waitOnRateLimit === false;
      const decision = callerWaits ? NO_RETRY : await this.again(opts, outcome, spent);
      if (decision.retry) continue;
      const error =
        status === 429
          ? this.rateLimitFailure(body, decision, { requestId, retryAfter })
          : statusError(status, body, { requestId });
      if (opts.method === 'POST' && status >= 502) {
        throw new (error.constructor as typeof ApiError)(
          `${error.message}${UNCERTAIN}`,
          opts.afterUncertainPost ?? error.hint,
          status,
          requestId,
        );
      }
      throw error;
    }
  }

  private notTheService(opts: RequestOptions, status: number): NotTheServiceError {
    return new NotTheServiceError(
      `${this.options.baseUrl} does not look like a SuperAgents service: ` +
        `${opts.method} ${opts.path} answered ${status} with a web page`,
      "check the base URL: the service's address, without /v1",
      status,
    );
  }

  private unreadable(opts: RequestOptions, status: number, why: 'cut' | 'not JSON') {
    return unreadableAnswer({ ...opts, url: this.url(opts), timeoutMs: 0, timedOut: false, status }, why);
  }

  private connectionFailure(err: unknown, opts: RequestOptions, timedOut: boolean): ConnectionError {
    const { method, afterUncertainPost } = opts;
    const timeoutMs = opts.timeoutMs ?? this.options.timeoutMs;
    const { extraCaCerts } = this.options;
    const url = this.url(opts);
    const proxy = proxyShown(this.target(opts.path).href, this.options.proxyEnv ?? {}) ?? undefined;
    return connectionFailure(err, { url, method, timeoutMs, timedOut, afterUncertainPost, extraCaCerts, proxy });
  }
}
