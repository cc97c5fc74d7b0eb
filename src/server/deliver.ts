// Sends a composed reply the way the caller asked: one JSON body, or SSE pieces (§6).
import { ApiError, sendJson } from './http.js';
import type { RouteContext } from './router.js';
import { splitIntoPieces } from './runtime/replies.js';
import { streamReply } from './sse.js';

export interface Delivery {
  sessionId: string;
  content: string;
  stream: boolean;
  /** fields added to the JSON answer and to the `done` event (the assistant's timestamp) */
  extra?: Record<string, unknown>;
  /** the assistant's query time limit: past it, 504 `Query timeout` */
  timeLimitMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function deliverReply(ctx: RouteContext, d: Delivery): Promise<void> {
  const { tokenDelayMs, pingIntervalMs, faults } = ctx.service;
  const pieces = splitIntoPieces(d.content);
  if (d.stream) {
    await streamReply(ctx.res, d.sessionId, pieces, d.extra ?? {}, {
      tokenDelayMs,
      pingIntervalMs,
      cutAfter: faults.cutStreamAfter,
      timeLimitMs: d.timeLimitMs,
    });
    return;
  }
  // Without streaming the caller still waits for the whole reply to be "generated".
  const generation = pieces.length * tokenDelayMs;
  if (d.timeLimitMs !== undefined && generation > d.timeLimitMs) {
    await sleep(d.timeLimitMs);
    throw new ApiError(504, 'Query timeout');
  }
  if (generation > 0) await sleep(generation);
  sendJson(ctx.res, 200, { session_id: d.sessionId, content: d.content, ...d.extra });
}
