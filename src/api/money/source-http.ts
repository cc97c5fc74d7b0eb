// JSON over HTTP to the public sources (chain JSON-RPC, Hyperliquid, Polymarket) through the same
// transport as the service: proxy variables honoured, one time-out per request, an answer no larger
// than a limit and no deeper than JSON we walk, and failures in words naming the host (no key is
// ever sent: these sources are keyless).
import { BadAnswerError } from '../../core/errors.js';
import { nestsDeeperThan } from '../answer-checks.js';
import { TimeoutError } from '../errors.js';
import type { Env } from '../proxy.js';
import { Transport, bodyText } from '../transport.js';
import type { JsonRequest } from './types.js';

export interface SourceHttpOptions {
  /** the command's environment, where the proxy variables are read */
  env?: Env;
  /** each request's own limit (default 10 s) */
  timeoutMs?: number;
  /** the largest answer read, in bytes (default 4 MiB) */
  maxBytes?: number;
  userAgent?: string;
  /** --debug: one line per request and answer */
  trace?: (line: string) => void;
}

export interface SourceHttp {
  json: JsonRequest;
  /** closes every connection, so the process can exit */
  close(): void;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 4 * 1024 * 1024;

/** The host a message names: never a path or query, where an RPC provider may keep its key. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid URL';
  }
}

// the public sources' own paths and the embedded simulation's: anything else may hold a provider's key
const PUBLIC_PATH = /^(\/sim\/(solana|hyperliquid|polymarket|evm\/[a-z]+))?(\/|\/info|\/positions|\/value)?$/;

/** The path a --debug trace shows: a known public one whole, any other as "/…". */
export function tracedPath(url: URL): string {
  return PUBLIC_PATH.test(url.pathname) ? url.pathname : '/…';
}

export function createSourceHttp(options: SourceHttpOptions = {}): SourceHttp {
  const transports = new Map<string, Transport>();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const transportFor = (url: URL) => {
    let t = transports.get(url.origin);
    if (!t) transports.set(url.origin, (t = new Transport(url, options.env ?? {})));
    return t;
  };

  const json: JsonRequest = async ({ url, method, body, signal }) => {
    const target = new URL(url);
    const host = target.host;
    const timer = AbortSignal.timeout(timeoutMs);
    const both = signal ? AbortSignal.any([signal, timer]) : timer;
    const headers: Record<string, string> = {
      accept: 'application/json',
      'accept-encoding': 'identity',
      'user-agent': options.userAgent ?? 'superagent',
    };
    const text = body === undefined ? undefined : JSON.stringify(body);
    if (text !== undefined) headers['content-type'] = 'application/json';
    options.trace?.(`→ ${method} ${host}${tracedPath(target)}`);
    try {
      const res = await transportFor(target).request({ url: target, method, headers, body: text, signal: both });
      const answer = await bodyText(res.body, maxBytes).catch((err: unknown) => {
        throw err instanceof BadAnswerError ? new BadAnswerError(`${host} sent more than ${maxBytes} bytes`) : err;
      });
      options.trace?.(`← ${res.status} ${host} (${answer.length} bytes)`);
      if (res.status < 200 || res.status > 299) {
        throw new BadAnswerError(`${host} answered ${res.status}${res.status === 429 ? ' (rate limited)' : ''}`);
      }
      if (nestsDeeperThan(answer)) throw new BadAnswerError(`${host} sent JSON nested too deep`);
      try {
        return JSON.parse(answer) as unknown;
      } catch {
        throw new BadAnswerError(`${host} sent an answer that is not JSON`);
      }
    } catch (err) {
      if (timer.aborted && !signal?.aborted) {
        throw new TimeoutError(`${host} did not answer within ${Math.round(timeoutMs / 1000)} s`);
      }
      if (err instanceof Error && 'code' in err && typeof err.code === 'string' && !(err instanceof BadAnswerError)) {
        throw new BadAnswerError(`${host} could not be reached (${err.code})`);
      }
      throw err;
    }
  };

  return {
    json,
    close() {
      for (const t of transports.values()) t.close();
      transports.clear();
    },
  };
}
