// JSON-RPC 2.0 envelopes for the simulated chains: a method table, one answer per request, the
// standard error codes (-32600 invalid request, -32601 unknown method, -32602 invalid params).

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

/** The answer to one JSON-RPC request object. */
export function answerRpc(body: Record<string, unknown>, methods: Record<string, RpcMethod>): Record<string, unknown> {
  const id = typeof body.id === 'string' || typeof body.id === 'number' ? body.id : null;
  const error = (e: RpcError) => ({ jsonrpc: '2.0', id, error: { code: e.code, message: e.message } });
  if (body.jsonrpc !== '2.0' || typeof body.method !== 'string') return error(new RpcError(-32600, 'Invalid request'));
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
