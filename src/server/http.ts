// Small helpers for answering over node:http: the error type every route throws,
// JSON answers, and the body reader with its limits (docs/api.md, Basics; Records and field rules).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { LIMITS, LEFT_OUT_HEADER } from '../contract.js';
import { asEnvironmentError } from '../core/errors.js';

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * [ours] limits on slow and many clients: a stalled request no longer holds a socket for
 * 300 s; a connection that says nothing goes after 2 s (a real client writes as it connects).
 */
export const CONNECTION_LIMITS = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  bodyTimeoutMs: 5_000,
  maxConnections: 256,
  firstByteTimeoutMs: 2_000,
} as const;

/** The client went away before its request ended: no failure of ours, so app.ts logs one line. */
export class ClientGone extends Error {}

/**
 * A failure logged where it happened (pending-writes.ts): app.ts
 * sends what it means, if it still can, without logging it again.
 */
export class LoggedFailure extends Error {
  constructor(readonly failure: unknown) {
    super(failure instanceof Error ? failure.message : String(failure));
  }
}

/** A data dir the store cannot read or lock: the operator's to fix, said in one line (no stack). */
function isStoreProblem(err: unknown): err is Error {
  return err instanceof Error && (err.name === 'StoreCorruptError' || err.name === 'LockTimeoutError');
}

/**
 * A failure of ours, as an event for whoever runs the service in-process (the CLI's embedded
 * service explains the 500 it got by it): a disk or file system that refused the data dir, a store
 * it cannot read, a record left out of a listing, or anything else (a bug).
 */
export type ServiceFailure =
  | { kind: 'storage'; message: string }
  | { kind: 'store'; message: string }
  | { kind: 'left-out'; message: string }
  | { kind: 'error'; message: string; stack?: string };

/** The failure `err` is, or undefined for an ApiError (an answer, no failure of ours). */
export function failureOf(err: unknown): ServiceFailure | undefined {
  const refused = asEnvironmentError(err);
  if (refused) return { kind: 'storage', message: `${refused.message}${refused.hint ? ` (${refused.hint})` : ''}` };
  if (isStoreProblem(err)) return { kind: 'store', message: err.message };
  if (err instanceof ApiError) return undefined;
  return err instanceof Error
    ? { kind: 'error', message: err.message, stack: err.stack }
    : { kind: 'error', message: String(err) };
}

/** The log line of a failure: one line, but a bug's with its stack. */
export function failureLine(f: ServiceFailure): string {
  return `${f.kind === 'left-out' ? 'left out' : f.kind}: ${f.kind === 'error' ? (f.stack ?? f.message) : f.message}`;
}

/** Logs each failure of ours (an error, or one already typed: `report`) and hands it to `onFailure`. */
export function failureReporter(
  log: (line: string) => void,
  onFailure?: (f: ServiceFailure) => void,
): ((err: unknown) => void) & { report: (f: ServiceFailure) => void } {
  const report = (f: ServiceFailure) => {
    log(failureLine(f));
    onFailure?.(f);
  };
  return Object.assign(
    (err: unknown) => {
      const failure = failureOf(err);
      if (failure) report(failure);
    },
    { report },
  );
}

/**
 * The answer to a failure: an ApiError as it is; a refused write (a full disk) 500 saying so in
 * words (the hosted document allows no 507), the path left to the log; anything else 500.
 */
export function answerFor(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const refused = asEnvironmentError(err);
  if (refused) return new ApiError(500, `The service cannot use its data dir: ${refused.reason}`);
  return new ApiError(500, 'Internal server error');
}

export const notFound = (what = 'Agent') => new ApiError(404, `${what} not found`);
export const badRequest = (message: string) => new ApiError(400, message);
export const conflict = (message: string) => new ApiError(409, message);

/** Runs a listing of `records`; an answer it left records out of says how many in LEFT_OUT_HEADER. */
export function listing<T>(res: ServerResponse, records: { leftOutCount: number }, list: () => T): T {
  const before = records.leftOutCount;
  const out = list();
  const left = records.leftOutCount - before;
  if (left > 0) res.setHeader(LEFT_OUT_HEADER, String(left));
  return out;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

export function errorBody(err: ApiError): Record<string, unknown> {
  // hosted-openapi.json's `RateLimited` body names no `error`; every other error is its `Error`, which does
  const error = err.statusCode === 429 ? {} : { error: STATUS_CODES[err.statusCode] ?? 'Error' };
  return { statusCode: err.statusCode, message: err.message, ...error, ...err.extra };
}

export function sendError(res: ServerResponse, err: ApiError): void {
  sendJson(res, err.statusCode, errorBody(err));
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

function isJsonType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mime = contentType.split(';')[0]!.trim().toLowerCase();
  return mime === 'application/json' || (mime.startsWith('application/') && mime.endsWith('+json'));
}

/** Any request with a body must send JSON (415) and declare at most 1 MiB (413). */
export function assertBodyAcceptable(req: IncomingMessage): void {
  if (!hasBody(req)) return;
  if (!isJsonType(req.headers['content-type'])) throw new ApiError(415, 'Content-Type must be application/json');
  if (Number(req.headers['content-length'] ?? 0) > LIMITS.bodyBytes) throw tooLarge();
}

/**
 * Reads a JSON object body (after `assertBodyAcceptable`). No body at all reads as `{}` so that
 * validation names the missing field; a chunked body past 1 MiB is 413; not JSON or not an object,
 * 400; a body that stops arriving for `idleMs`, 408.
 */
export async function readJsonBody(req: IncomingMessage, idleMs: number): Promise<Record<string, unknown>>;
/** The same, also taking a JSON array (a JSON-RPC batch) when `arrays` is set. */
export async function readJsonBody(
  req: IncomingMessage,
  idleMs: number,
  arrays: boolean,
): Promise<Record<string, unknown> | unknown[]>;
export async function readJsonBody(
  req: IncomingMessage,
  idleMs: number,
  arrays = false,
): Promise<Record<string, unknown> | unknown[]> {
  if (!hasBody(req)) return {};
  const text = await readText(req, idleMs);
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest('Request body is not valid JSON');
  }
  if (arrays && Array.isArray(parsed)) return parsed as unknown[];
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw badRequest('Request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

/** Reads the whole body; past the limit it keeps draining (so the socket survives to carry the 413). */
function readText(req: IncomingMessage, idleMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // a body at rest holds a socket and its buffered bytes: give up on it (Node's requestTimeout caps a trickle)
    const stalled = setTimeout(
      () => reject(new ApiError(408, `Request body stalled: nothing arrived for ${idleMs} ms`)),
      idleMs,
    );
    stalled.unref();
    req.on('data', (chunk: Buffer) => {
      stalled.refresh();
      size += chunk.length;
      if (size <= LIMITS.bodyBytes) chunks.push(chunk);
    });
    req.on('end', () => {
      clearTimeout(stalled);
      if (size > LIMITS.bodyBytes) reject(tooLarge());
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', () => {
      clearTimeout(stalled);
      reject(new ClientGone('the client closed the connection before its body ended'));
    });
  });
}

function tooLarge(): ApiError {
  return new ApiError(413, `Request body is larger than ${LIMITS.bodyBytes} bytes`);
}
