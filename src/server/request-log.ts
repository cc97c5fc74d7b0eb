// One line per answered request, for whoever runs the service in the foreground (`superagent server`):
// what was asked and how it was answered, never a key or a body. Off unless `startServer({ onAnswered })`
// asks for it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { presentedKey } from './auth.js';

export interface Answered {
  method: string;
  /** the path without the query string (a query may carry what is not ours to log) */
  path: string;
  status: number;
  ms: number;
  /** whether the request carried a key at all (a 401 with one is a key refused) */
  keySent: boolean;
  /** false when the connection closed before the answer was sent whole (a client gone, a stream cut) */
  finished: boolean;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export function timed(handler: Handler, onAnswered: (answered: Answered) => void): Handler {
  return (req, res) => {
    const began = performance.now();
    res.once('close', () => {
      const url = req.url ?? '/';
      const q = url.indexOf('?');
      onAnswered({
        method: req.method ?? 'GET',
        path: q === -1 ? url : url.slice(0, q),
        status: res.statusCode,
        ms: Math.round(performance.now() - began),
        keySent: presentedKey(req) !== null,
        finished: res.writableFinished,
      });
    });
    handler(req, res);
  };
}

/** The log line of an answer; for a 401, why the key was refused. */
export function answeredLine(a: Answered): string {
  const line = `${a.method} ${a.path} ${a.status} ${a.ms} ms${a.finished ? '' : ' (connection closed before the end)'}`;
  if (a.status !== 401) return line;
  return `${line}: refused, ${a.keySent ? 'the key sent is not one this service accepts' : 'no key was sent'}`;
}
