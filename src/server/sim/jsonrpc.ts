// JSON-RPC 2.0 envelopes for the simulated chains: a method table, one answer per request, the
// standard error codes (-32600 invalid request, -32601 unknown method, -32602 invalid params), and
// batches (an array of requests answered by an array in the same order), bounded as real nodes bound them.

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export type RpcMethod = (params: unknown[]) => unknown;

export function invalidParams(message: string): RpcError {
  return new RpcError(-32602, message);
}

/** the most requests one batch may carry: one HTTP request's work stays bounded */
export const MAX_BATCH = 100;

const errorAnswer = (id: string | number | null, e: RpcError) => ({
  jsonrpc: '2.0',
  id,
  error: { code: e.code, message: e.message },
});

/** The answer to a request body: one request object, or a batch (an array of them). */
export function answerRpcBody(body: unknown, methods: Record<string, RpcMethod>): unknown {
  if (!Array.isArray(body)) return answerRpc(body, methods);
  // one error object, not an array, for a batch that cannot be taken at all (as geth and Solana's node answer)
  if (body.length === 0) return errorAnswer(null, new RpcError(-32600, 'empty batch'));
  if (body.length > MAX_BATCH) {
    return errorAnswer(null, new RpcError(-32600, `batch too large: at most ${MAX_BATCH} requests`));
  }
  return body.map((request) => answerRpc(request, methods));
}

/** The answer to one JSON-RPC request object. */
export function answerRpc(request: unknown, methods: Record<string, RpcMethod>): Record<string, unknown> {
  const body = (request !== null && typeof request === 'object' ? request : {}) as Record<string, unknown>;
  const id = typeof body.id === 'string' || typeof body.id === 'number' ? body.id : null;
  const error = (e: RpcError) => errorAnswer(id, e);
  if (Array.isArray(request) || body.jsonrpc !== '2.0' || typeof body.method !== 'string') {
    return error(new RpcError(-32600, 'Invalid request'));
  }
  const method = Object.hasOwn(methods, body.method) ? methods[body.method] : undefined;
  if (!method) {
    return error(new RpcError(-32601, `the method ${body.method.slice(0, 100)} does not exist/is not available`));
  }
  const params = body.params === undefined ? [] : body.params;
  if (!Array.isArray(params)) return error(invalidParams('params must be an array'));
  try {
    return { jsonrpc: '2.0', id, result: method(params) };
  } catch (err) {
    if (err instanceof RpcError) return error(err);
    throw err;
  }
}
