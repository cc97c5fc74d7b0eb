// A tap on every exchange the service answers, for the conformance tests (test/conformance): what
// the client sent and what the service answered, bytes as they crossed the wire. Off unless
// `startServer({ onExchange })` asks for it, so the service's own path pays nothing.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface Exchange {
  method: string;
  /** the path without the query string */
  path: string;
  /** the request's User-Agent (the CLI sends `superagent/<version> …`) */
  userAgent: string | undefined;
  /** the request body as received (undefined when none was read) */
  requestBody: string | undefined;
  status: number;
  contentType: string | undefined;
  responseBody: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
type Chunk = string | Uint8Array;

function toBuffer(chunk: unknown): Buffer | undefined {
  if (typeof chunk === 'string') return Buffer.from(chunk);
  if (chunk instanceof Uint8Array) return Buffer.from(chunk);
  return undefined;
}

export function observed(handler: Handler, onExchange: (exchange: Exchange) => void): Handler {
  return (req, res) => {
    const sent: Buffer[] = [];
    const received: Buffer[] = [];
    // tap 'data' as the reader consumes it, so the body's flow is exactly as without the tap
    const emit = req.emit.bind(req);
    req.emit = ((event: string | symbol, ...args: unknown[]) => {
      if (event === 'data') {
        const b = toBuffer(args[0]);
        if (b) received.push(b);
      }
      return emit(event, ...args);
    }) as typeof req.emit;
    // headers handed straight to writeHead are not visible through getHeader(): note the type there
    let contentType: string | undefined;
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    res.writeHead = ((...args: unknown[]) => {
      const headers = args.find((a, i) => i > 0 && typeof a === 'object' && a !== null && !Array.isArray(a)) as
        Record<string, unknown> | undefined;
      const type = headers && Object.entries(headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
      if (typeof type === 'string') contentType = type;
      return writeHead(...args);
    }) as typeof res.writeHead;
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.write = ((chunk: Chunk, ...rest: unknown[]) => {
      const b = toBuffer(chunk);
      if (b) sent.push(b);
      return write(chunk, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      const b = typeof chunk === 'function' ? undefined : toBuffer(chunk);
      if (b) sent.push(b);
      return end(chunk, ...rest);
    }) as typeof res.end;
    res.once('close', () => {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      const type = contentType ?? res.getHeader('content-type');
      onExchange({
        method: req.method ?? 'GET',
        path: q === -1 ? url : url.slice(0, q),
        userAgent: req.headers['user-agent'],
        requestBody: received.length ? Buffer.concat(received).toString('utf8') : undefined,
        status: res.statusCode,
        contentType: typeof type === 'string' ? type : undefined,
        responseBody: Buffer.concat(sent).toString('utf8'),
      });
    });
    handler(req, res);
  };
}
