// Sends a composed reply the way the caller asked: one JSON body, or SSE pieces (docs/api.md, Streaming replies).
import { ApiError, sendJson } from './http.js';
import type { RouteContext } from './router.js';
import { splitIntoPieces } from './runtime/text.js';
import { streamReply, type StreamScript } from './sse.js';

export interface Delivery {
  sessionId: string;
  content: string;
  stream: boolean;
  /** the stream's events around the pieces (stream-events.ts) */
  script: StreamScript;
  /** fields added to the JSON answer (the assistant's timestamp) */
  extra?: Record<string, unknown>;
  /** the assistant's query time limit: past it, 504 `Query timeout` */
  timeLimitMs?: number;
  /** writes a new session (takeTurn's `record`): before a JSON answer, beside a stream's first pieces */
  record?: () => Promise<void>;
}

/**
 * Benchmarking aid (`server --bench-reply-pieces N`): the reply's pieces repeated until there are
 * `count` of them, so a client can be timed on a long stream. Only what is sent grows; the session
 * history keeps the reply as composed.
 */
export function stretchPieces(pieces: string[], count: number | undefined): string[] {
  if (count === undefined || pieces.length === 0 || pieces.length >= count) return pieces;
  return Array.from({ length: count }, (_, i) => pieces[i % pieces.length]!);
}

export async function deliverReply(ctx: RouteContext, d: Delivery): Promise<void> {
  const { tokenDelayMs, pingIntervalMs, faults, replyPieces, sleep, pendingWrites } = ctx.service;
  const pieces = stretchPieces(splitIntoPieces(d.content), replyPieces);
  if (d.stream) {
    // after this tick: a response corks its socket until then (the head and the first pieces leave
    // first), and the write holds the event loop; tracked from now, so close() waits for it
    const recorded =
      d.record && pendingWrites.track(new Promise<void>((resolve) => setImmediate(resolve)).then(d.record));
    await streamReply(ctx.res, d.script, pieces, {
      tokenDelayMs,
      sleep,
      pingIntervalMs,
      interruption: faults.streamInterruption(pieces.length, ctx.fault),
      timeLimitMs: d.timeLimitMs,
      recorded,
    });
    return;
  }
  if (d.record) await pendingWrites.track(d.record());
  if (ctx.fault) throw ctx.fault; // app.ts defers a fault only for a stream; never answer past one
  // Without streaming the caller still waits for the whole reply to be "generated".
  const generation = pieces.length * tokenDelayMs;
  if (d.timeLimitMs !== undefined && generation > d.timeLimitMs) {
    await sleep(d.timeLimitMs);
    throw new ApiError(504, 'Query timeout');
  }
  if (generation > 0) await sleep(generation);
  const content = replyPieces !== undefined ? pieces.join('') : d.content;
  sendJson(ctx.res, 200, { session_id: d.sessionId, content, ...d.extra });
}
