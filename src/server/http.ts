// Small helpers for answering over node:http: the error type every route throws,
// JSON answers, and the body reader with the contract's limits (§1, §2).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { LIMITS } from '../contract.js';

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const notFound = (what = 'Agent') => new ApiError(404, `${what} not found`);
export const badRequest = (message: string) => new ApiError(400, message);
export const conflict = (message: string) => new ApiError(409, message);

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
 * validation names the missing field; a chunked body past 1 MiB is 413; not JSON or not an object, 400.
 */
export async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  if (!hasBody(req)) return {};
  const text = await readText(req);
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest('Request body is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw badRequest('Request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

/** Reads the whole body; past the limit it keeps draining (so the socket survives to carry the 413). */
function readText(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= LIMITS.bodyBytes) chunks.push(chunk);
    });
    req.on('end', () => (size > LIMITS.bodyBytes ? reject(tooLarge()) : resolve(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
  });
}

function tooLarge(): ApiError {
  return new ApiError(413, `Request body is larger than ${LIMITS.bodyBytes} bytes`);
}
