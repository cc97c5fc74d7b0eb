// The request pipeline: faults → rate limit → route → auth → handler, with every failure
// turned into the error body of docs/api.md (Errors) in one place.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { accountId, presentedKey, type KeyRing } from './auth.js';
import {
  ApiError,
  answerFor,
  assertBodyAcceptable,
  ClientGone,
  CONNECTION_LIMITS,
  LoggedFailure,
  failureReporter,
  readJsonBody,
  sendError,
} from './http.js';
import type { RateLimiter } from './rate-limit.js';
import { Router } from './router.js';
import { agentChatRoutes } from './routes/agent-chat.js';
import { agentConfigRoutes } from './routes/agent-config.js';
import { assistantRoutes } from './routes/assistant.js';
import { classicRoutes } from './routes/classic.js';
import { simRoutes } from './routes/sim.js';
import { superagentRoutes } from './routes/superagents.js';
import type { Service } from './service.js';
import { errorEvent, sseFrame } from './sse.js';

export interface AppDeps {
  service: Service;
  keys: KeyRing;
  limiter: RateLimiter;
  /** the simulation's own bound per address (its routes are outside the API's limit); none: unbounded */
  simLimiter?: RateLimiter;
  log: (line: string) => void;
  /** logs a failure of ours (and tells it: ServerOptions.onFailure); by default, to `log` alone */
  failed?: (err: unknown) => void;
  /** longest pause in a request body before it is answered 408 */
  bodyTimeoutMs?: number;
}

const router = new Router().add([
  ...superagentRoutes,
  ...agentConfigRoutes,
  ...agentChatRoutes,
  ...assistantRoutes,
  ...classicRoutes,
  ...simRoutes,
]);

export function createApp(deps: AppDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(deps, req, res).catch((err: unknown) => {
      req.resume(); // drain an unread body so the client sees the answer, not a reset
      fail(deps, req, res, err);
    });
  };
}

async function handle(deps: AppDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { service, keys } = deps;
  const keyHash = keys.verifyOn(req.socket, presentedKey(req));
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  // the simulated sources are read many at a time (a wallet, about fourteen): a bound of their own, per
  // address, so that reading them spends nothing of the API's budget and a busy reader starves no one
  const sim = path.startsWith('/sim/');
  const limiter = sim ? deps.simLimiter : deps.limiter;
  if (limiter?.enabled) {
    const bucket = keyHash && !sim ? `key:${keyHash.toString('hex')}` : `addr:${req.socket.remoteAddress ?? ''}`;
    const decision = limiter.take(bucket);
    if (!sim) for (const [name, value] of Object.entries(decision.headers)) res.setHeader(name, value);
    if (!decision.allowed) {
      if (sim) res.setHeader('retry-after', String(decision.retryAfter));
      throw new ApiError(429, 'Rate limit exceeded', { retryAfter: decision.retryAfter, resetAt: decision.resetAt });
    }
  }
  const method = req.method ?? 'GET';
  // after the limiter, so an injected failure carries the rate-limit headers and counts like any answer
  const fault = service.faults.active ? await service.faults.draw({ method, path }) : undefined;
  const match = router.match(method, path);
  // only an authorised request to a streaming route may carry its fault into a stream: its body says
  if (fault && !(match?.streams && keyHash)) throw fault;
  if (!match) {
    throw new ApiError(404, `Cannot ${method} ${path}`);
  }
  if (!keyHash && !match.public) {
    throw new ApiError(401, 'Invalid or revoked API key');
  }
  let read: Record<string, unknown> | unknown[];
  try {
    assertBodyAcceptable(req);
    // read for every route, also those that ignore their body: a body that is not JSON is 400 everywhere
    read = await readJsonBody(req, deps.bodyTimeoutMs ?? CONNECTION_LIMITS.bodyTimeoutMs, match.batches);
  } catch (err) {
    throw fault ?? err;
  }
  const batch = Array.isArray(read) ? read : undefined;
  const body = batch ? {} : (read as Record<string, unknown>);
  // a drawn fault fails before the answer unless a stream will have begun (then in-band)
  if (fault && body.stream !== true) throw fault;
  await match.handler({
    req,
    res,
    body,
    batch,
    params: match.params,
    query: new URLSearchParams(q === -1 ? '' : url.slice(q + 1)),
    account: keyHash ? accountId(keyHash) : '', // '' only on a public route, which reads no account
    service,
    fault,
  });
}

function fail(deps: AppDeps, req: IncomingMessage, res: ServerResponse, err: unknown): void {
  if (err instanceof ClientGone) {
    // the client's doing, not a bug of ours: one line, no stack
    deps.log(`request dropped: ${req.method ?? 'GET'} ${(req.url ?? '/').split('?')[0]}: ${err.message}`);
    return;
  }
  if (err instanceof LoggedFailure) err = err.failure;
  else (deps.failed ?? failureReporter(deps.log))(err);
  const apiError = answerFor(err);
  if (res.headersSent) {
    // A stream already began: report in-band (docs/api.md, Streaming replies), then close.
    if (!res.writableEnded && !res.destroyed) {
      res.end(sseFrame(errorEvent(apiError.statusCode, apiError.message)));
    }
    return;
  }
  if (res.destroyed) return;
  // the rest of a stalled body may still come: this connection cannot carry another request
  if (apiError.statusCode === 408) res.setHeader('connection', 'close');
  sendError(res, apiError);
}
