// A streamed reply of any length, made as it is sent and never held (neither here nor by the test), for
// the tests of what the CLI holds of a reply (test/commands/reply-size.test.ts,
// test/e2e/reply-memory.test.ts) and bench/reply-memory.js (which bundles this file, so the test and the
// benchmark send the same). The stream has the shape the hosted service sends (docs/api.md, Streaming
// replies): session_info, RunContent pieces of 7 to 3,000 characters (ASCII with some é, € and 日本),
// RunCompleted whose `content` is the whole reply again, stream_complete, [DONE]. The same length gives
// the same text every time: its digest is computed apart, so what a client printed can be checked
// without keeping either.
import crypto from 'node:crypto';
import type http from 'node:http';

export const LONG_REPLY_SESSION = '5e551011-aaaa-4bbb-8ccc-dddddddddddd';

/** A page of varied text the pieces are cut from (characters of the BMP only: any cut is between characters). */
const line = (i: number) => `${String(i).padStart(5, '0')} The market é€ moves 日本 ${'abcdefghij'.repeat(i % 13)}\n`;
const PAGE = Array.from({ length: 400 }, (_, i) => line(i)).join('');
const PIECE_LENGTHS = [7, 130, 1021, 3000, 65, 480, 2200, 19];

/** The reply's pieces, until they hold `bytes` bytes of UTF-8 (a few more: the last piece is whole). */
export function* replyPieces(bytes: number): Generator<string> {
  let sent = 0;
  let at = 0;
  for (let i = 0; sent < bytes; i++) {
    const piece = PAGE.slice(at, at + PIECE_LENGTHS[i % PIECE_LENGTHS.length]!);
    at = at + piece.length >= PAGE.length ? 0 : at + piece.length;
    sent += Buffer.byteLength(piece);
    yield piece;
  }
}

/** The size and SHA-256 of the reply as printed piped: its text, and a newline if it does not end with one. */
export function printedDigest(bytes: number): { size: number; sha256: string } {
  const hash = crypto.createHash('sha256');
  let size = 0;
  let last = '';
  for (const piece of replyPieces(bytes)) {
    hash.update(piece);
    size += Buffer.byteLength(piece);
    last = piece;
  }
  if (!last.endsWith('\n')) {
    hash.update('\n');
    size += 1;
  }
  return { size, sha256: hash.digest('hex') };
}

export interface LongReplyOptions {
  /** false: RunCompleted without `content` (a service that does not repeat the reply); default true */
  wholeAgain?: boolean;
}

/** The stream's text, lazily; RunCompleted's content (the reply again) in pieces of its own. */
function* frames(bytes: number, opts: LongReplyOptions): Generator<string> {
  const event = (obj: object) => `data: ${JSON.stringify(obj)}\n\n`;
  const session_id = LONG_REPLY_SESSION;
  yield event({ event: 'session_info', session_id });
  for (const content of replyPieces(bytes)) yield event({ event: 'RunContent', session_id, content });
  if (opts.wholeAgain ?? true) {
    yield `data: {"event":"RunCompleted","session_id":"${session_id}","content":"`;
    for (const piece of replyPieces(bytes)) yield JSON.stringify(piece).slice(1, -1);
    yield '"}\n\n';
  } else yield event({ event: 'RunCompleted', session_id });
  yield event({ event: 'stream_complete', session_id });
  yield 'data: [DONE]\n\n';
}

function drained(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * A route handler streaming a reply of `bytes` bytes, in writes of ~64 KiB, each once the socket took
 * the last (so it is made only as fast as the client reads); it stops when the client leaves.
 * `sent()`: the bytes of the stream written so far.
 */
export function longReply(bytes: number, opts: LongReplyOptions = {}) {
  let sent = 0;
  const handler = async (_req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    let batch = '';
    for (const frame of frames(bytes, opts)) {
      batch += frame;
      if (batch.length < 65536) continue;
      if (res.destroyed) return;
      sent += Buffer.byteLength(batch);
      const more = res.write(batch);
      batch = '';
      if (!more) await drained(res);
    }
    if (res.destroyed) return;
    sent += Buffer.byteLength(batch);
    res.end(batch);
  };
  return { handler: (req: http.IncomingMessage, res: http.ServerResponse) => void handler(req, res), sent: () => sent };
}
