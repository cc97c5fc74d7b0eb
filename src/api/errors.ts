// Errors the HTTP layer raises. Status → exit code lives in cli/errors.ts (the one map);
// here the service's two error shapes (contract §2) become one message.
import { CliError, EXIT, exitCodeForStatus } from '../cli/errors.js';

/** The service answered with an error status. */
export class ApiStatusError extends CliError {
  constructor(
    readonly status: number,
    message: string,
    hint?: string,
    readonly requestId?: string,
    readonly retryAfter?: number,
  ) {
    super(message, exitCodeForStatus(status), hint);
  }
}

/** The service's 404 for an unknown or expired chat session (not for an unknown agent). */
export function isSessionNotFound(err: unknown): err is ApiStatusError {
  return err instanceof ApiStatusError && err.status === 404 && /session/i.test(err.message);
}

/** The request never got an answer: refused, reset, DNS, TLS, time-out. */
export class ConnectionError extends CliError {
  constructor(message: string, hint?: string, readonly code?: string) {
    super(message, EXIT.service, hint);
  }
}

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
  429: 'wait a minute and try again',
  502: 'the service is having trouble; try again shortly',
  503: 'the service is having trouble; try again shortly',
  504: 'the service took too long; try again, or raise --timeout',
};

export function statusError(status: number, body: unknown, requestId?: string, retryAfter?: number): ApiStatusError {
  const fallback = `the service answered ${status}`;
  const hint = HINTS[status] ?? (status >= 500 ? 'the service failed; try again later' : undefined);
  return new ApiStatusError(status, messageFromBody(body, fallback), hint, requestId, retryAfter);
}
