// A request that got no answer, as the error to report: refused, host not found, a time-out, a
// certificate refused (tls.ts, in words), or anything else by its code. A POST that may have
// reached the service says so, with the caller's advice for that case.
import type { BadAnswerError } from '../core/errors.js';
import { notAsDescribed } from './answer-checks.js';
import { ConnectionError, TimeoutError } from './errors.js';
import { ProxyFailure } from './proxy.js';
import { certificateProblem, type TlsErrorFields } from './tls.js';

const WORDS = new Map([
  ['ECONNREFUSED', 'connection refused'],
  ['ENOTFOUND', 'host not found'],
]);

export const UNCERTAIN = '; the request may have reached the service and was not repeated';
/** a POST answered with a success that cannot be read: whatever it asked for may be done */
export const REACHED = '; the request reached the service and may have been carried out';

export interface FailedRequest {
  /** the request's URL, credentials masked */
  url: string;
  method: string;
  timeoutMs: number;
  /** the request's own time-out ended it */
  timedOut: boolean;
  /** told to the user when a POST fails in a way that may have reached the service */
  afterUncertainPost?: string;
  /** NODE_EXTRA_CA_CERTS, when set (tls.ts) */
  extraCaCerts?: string;
  /** the proxy the request went through, credentials masked */
  proxy?: string;
}

/** The proxy refused or failed the request: said so, naming it; `lasting` ones are not retried. */
export class ProxyError extends ConnectionError {
  constructor(
    message: string,
    hint: string,
    code: string,
    readonly lasting: boolean,
  ) {
    super(message, hint, code);
  }
}

export function connectionFailure(err: unknown, req: FailedRequest): ConnectionError {
  const { url, timedOut } = req;
  if (err instanceof ProxyFailure && !timedOut) {
    const tail = req.method === 'POST' && err.code === 'ECONNRESET' ? UNCERTAIN : '';
    const message = `cannot reach ${url} through the proxy ${err.proxy}: ${err.what}${tail}`;
    return new ProxyError(message, err.hint, err.code, err.lasting);
  }
  const e = err as TlsErrorFields & { message?: string; cause?: TlsErrorFields };
  const code = e.code ?? e.cause?.code;
  const insecure = !timedOut && certificateProblem(e.code ? e : (e.cause ?? e), req.extraCaCerts);
  // refused at the handshake: nothing was sent
  if (insecure) {
    return new ConnectionError(`cannot connect securely to ${url}: ${insecure.what}`, insecure.hint, code);
  }
  const uncertain = req.method === 'POST' && code !== 'ECONNREFUSED' && code !== 'ENOTFOUND';
  const tail = uncertain ? UNCERTAIN : '';
  const hint = uncertain ? req.afterUncertainPost : undefined;
  if (timedOut) {
    const through = req.proxy ? ` through the proxy ${req.proxy}` : '';
    const message = `no answer from ${url}${through} within ${req.timeoutMs / 1000} s${tail}`;
    return new TimeoutError(message, hint ?? 'raise the limit with --timeout SECONDS', code);
  }
  const what = WORDS.get(code ?? '') ?? code ?? e.message ?? 'connection failed';
  const fix = hint ?? 'check the base URL and that the service is running';
  return new ConnectionError(`cannot reach ${url}: ${what}${tail}`, fix, code);
}

/**
 * A success answer to a POST that cannot be read (cut short, or not JSON): the service took the
 * request, so what it asked for (a launch) may be done; said with the caller's advice for that case.
 */
export function unreadableAnswer(
  req: FailedRequest & { status: number },
  why: 'cut' | 'not JSON',
): ConnectionError | BadAnswerError {
  if (why === 'not JSON') return notAsDescribed(`it is not JSON${REACHED}`, req.afterUncertainPost);
  const answered = `the service answered ${req.status} to ${req.method} ${req.url}`;
  return new ConnectionError(`${answered}, but its answer was cut short${REACHED}`, req.afterUncertainPost);
}
