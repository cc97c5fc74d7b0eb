// What a client is made with, what one request asks for, and a raw answer: the client's types,
// apart from its code so that both stay small.
import type { Pacer } from './rate-budget.js';
import type { RetryPolicy } from './retry.js';
import type { ApiError } from './errors.js';
import type { Headers } from './transport.js';

export interface ClientOptions {
  baseUrl: string;
  apiKey: string | null;
  timeoutMs: number;
  userAgent: string;
  /** --debug: one call per traced line, already redacted */
  trace?: (text: string) => void;
  /** a notice for the user (retry waits), on stderr; `rateLimited` for a 429 wait */
  notice?: (text: string, kind: { rateLimited: boolean; waitMs: number }) => void;
  retry?: Partial<RetryPolicy>;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  now?: () => number;
  /** shown while a JSON call waits for its answer (a spinner that appears only if the wait is long) */
  waiting?: () => { stop(): void };
  /** paces every attempt to a budget of requests a minute (apply on a fleet) */
  pacer?: Pacer;
  /** told of every answer's headers (a list the service left records out of says so in one) */
  onAnswer?: (headers: RawResponse['headers']) => void;
  /** NODE_EXTRA_CA_CERTS as the process has it: the advice for an untrusted certificate says it is set */
  extraCaCerts?: string;
  /** where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read (proxy.ts): the command's environment */
  proxyEnv?: Readonly<Record<string, string | undefined>>;
}

export interface RequestOptions {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** told to the user when a POST fails in a way that may have reached the service */
  afterUncertainPost?: string;
  /** false: no waiting spinner (the caller shows its own, as the chats do) */
  showWaiting?: boolean;
  /**
   * false: a 429 is thrown at once (RateLimitError), for a caller that sends several requests at
   * once and waits out their 429s together (together.ts), not one after the other
   */
  waitOnRateLimit?: boolean;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  body: AsyncIterable<Buffer | string> & { destroy(err?: Error): unknown };
  /** stops the request's time-out timer (a stream's reader keeps its own limit) */
  settle(): void;
  /** why the request was ended from this side (its time-out), if it was */
  failure(): ApiError | undefined;
  /** the proxy the answer came through, credentials masked */
  proxy?: string;
}
