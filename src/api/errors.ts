// The HTTP layer's failures, one class per kind of answer (as openai-node does), each carrying the
// status and the service's own message. Callers decide on the class, never on message text: the one
// place that reads a message to tell answers of the same status apart is `statusError` below.
// Which exit code each class means is decided in src/cli/exit-codes.ts alone.
import { SuperagentError } from '../core/errors.js';

export class ApiError extends SuperagentError {
  constructor(
    message: string,
    hint?: string,
    readonly status?: number,
    readonly requestId?: string,
  ) {
    super(message, hint);
  }
}

/** 400, 413, 415, 422, 431: the service refused the request as sent. */
export class BadRequestError extends ApiError {}
/** 401, 403: the key is missing, wrong, or may not do that. */
export class AuthError extends ApiError {}
/** 404 */
export class NotFoundError extends ApiError {}
/** 404 for a chat session (unknown, expired, or another agent's), not for the agent. */
export class SessionNotFoundError extends NotFoundError {}
/** 400 for a custom model whose provider has no key connected on the account (docs/api.md, Errors). */
export class ProviderNotConnectedError extends BadRequestError {}
/** 409: the agent is in the wrong state for the call. */
export class ConflictError extends ApiError {}
/** 409 for a chat with a paused agent. */
export class AgentPausedError extends ConflictError {}
/** 409 for a launch (or rename) to a name a live agent of the account already has. */
export class DuplicateNameError extends ConflictError {}
/**
 * 403 for an account with as many live agents as it may have: a conflict with what is there, not a
 * key that may not do it (a script must not conclude its key is bad).
 */
export class AgentLimitError extends ConflictError {}
/** 429, still after the retries the client allows. */
export class RateLimitError extends ApiError {
  constructor(
    message: string,
    hint: string | undefined,
    status: number,
    requestId: string | undefined,
    readonly retryAfter: number,
  ) {
    super(message, hint, status, requestId);
  }
}
/** 5xx, 408, and any status the contract does not give. */
export class ServerError extends ApiError {}
/** No answer at all: refused, host not found, reset, TLS. */
export class ConnectionError extends ApiError {
  constructor(
    message: string,
    hint?: string,
    readonly code?: string,
  ) {
    super(message, hint);
  }
}
/** No answer within the time-out (or, for a stream, no reply text within it). */
export class TimeoutError extends ConnectionError {}
/** A streamed reply that broke off or that the service reported as failed; the text before it stands. */
export class StreamCutError extends ApiError {}
/** The base URL answers, but not as a SuperAgents service (an HTML page, a redirect). */
export class NotTheServiceError extends ApiError {}

/** Reads `{ statusCode, message: string | string[], error? }` or `{ error: { message, type } }`. */
export function messageFromBody(body: unknown, fallback: string): string {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    if (Array.isArray(b.message)) return b.message.map(String).join('; ');
    if (typeof b.message === 'string' && b.message) return b.message;
    if (b.error && typeof b.error === 'object') {
      const inner = (b.error as Record<string, unknown>).message;
      if (typeof inner === 'string' && inner) return inner;
    }
    if (typeof b.error === 'string' && b.error) return b.error;
  }
  if (typeof body === 'string' && body.trim()) return body.trim().slice(0, 300);
  return fallback;
}

const HINTS: Record<number, string> = {
  401: "check the key: run 'superagent login', or set SUPERAGENT_API_KEY",
  403: 'this key may not do that',
  413: 'the request is too large',
  // the headers this CLI sends are small but for the key: one far too long is the likely cause
  431: 'the API key or another header sent is far too long: copy the key again from where it was issued',
  502: 'the service is having trouble; try again shortly',
  503: 'the service is having trouble; try again shortly',
  504: 'the service took too long; try again, or raise --timeout',
};

/** How an agent is destroyed to make room under the agent limit (launch and apply say it alike). */
export const DESTROY_TO_FREE = "superagent destroy <agent> ('superagent list' shows them)";

/** How to free a slot under the agent limit (the service's answer and the CLI's own check say it). */
export const AGENT_LIMIT_HINT = `free a slot: ${DESTROY_TO_FREE}`;

export interface StatusContext {
  requestId?: string;
  /** seconds, for a 429 */
  retryAfter?: number;
  /** for a 429 not waited out: the seconds the command may wait on rate limits in all, which that wait would pass */
  waitBudget?: number;
}

/** What to do after a 429: the wait the service asked for, and why the command did not wait it itself. */
function rateLimitHint(ctx: StatusContext): string {
  if (ctx.retryAfter === undefined) return 'wait a moment and try again';
  const asked = `the service asks to wait ${ctx.retryAfter} s before trying again`;
  if (ctx.waitBudget === undefined) return asked;
  return `${asked}: more than is left of the ${ctx.waitBudget} s this command may wait on rate limits`;
}

/** What a status says, for an answer whose body says nothing (Node's own 431 has no body). */
const REASONS: Record<number, string> = {
  431: 'the request header fields are too large',
};

/** The error an answer with this status and body stands for. */
export function statusError(status: number, body: unknown, ctx: StatusContext = {}): ApiError {
  const reason = REASONS[status] === undefined ? '' : `: ${REASONS[status]}`;
  const message = messageFromBody(body, `the service answered ${status}${reason}`);
  const hint = HINTS[status] ?? (status >= 500 ? 'the service failed; try again later' : undefined);
  const { requestId } = ctx;
  if (status === 400 && /no api key connected for provider/i.test(message))
    return new ProviderNotConnectedError(message, hint, status, requestId);
  if ([400, 413, 415, 422, 431].includes(status)) return new BadRequestError(message, hint, status, requestId);
  // a 403, a 404 and a 409 that only their words tell apart (docs/api.md, From an answer to an exit code)
  if (status === 403 && /\bagent limit\b/i.test(message)) {
    return new AgentLimitError(message, AGENT_LIMIT_HINT, status, requestId);
  }
  if (status === 401 || status === 403) return new AuthError(message, hint, status, requestId);
  if (status === 404)
    return /\bsession\b/i.test(message)
      ? new SessionNotFoundError(message, hint, status, requestId)
      : new NotFoundError(message, hint, status, requestId);
  if (status === 409 && /\balready exists\b/i.test(message)) {
    return new DuplicateNameError(message, 'choose another name', status, requestId);
  }
  if (status === 409)
    return /\bis paused\b/i.test(message)
      ? new AgentPausedError(message, hint, status, requestId)
      : new ConflictError(message, hint, status, requestId);
  if (status === 429) return new RateLimitError(message, rateLimitHint(ctx), status, requestId, ctx.retryAfter ?? 1);
  return new ServerError(message, hint, status, requestId);
}
