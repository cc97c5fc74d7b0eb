// Server-Sent Events as the embedded service sends them (contract §6):
// `session`, then `delta` pieces, then `done` (or `error`), with `: ping` while idle.
import type { ServerResponse } from 'node:http';
import { SSE_EVENTS } from '../contract.js';

export interface StreamOptions {
  tokenDelayMs: number;
  pingIntervalMs: number;
  /** destroy the connection after this many pieces (fault injection) */
  cutAfter?: number;
  /** abort with this error once the stream has run this long (assistant time limit) */
  timeLimitMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class SseWriter {
  private pingTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** settles once the last write has been handed to the socket (writes go out in order) */
  private lastWrite: Promise<void> = Promise.resolve();
  private readonly gone: Promise<void>;

  constructor(private readonly res: ServerResponse, private readonly pingIntervalMs: number) {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    let gone!: () => void;
    this.gone = new Promise<void>((resolve) => (gone = resolve));
    res.on('close', () => {
      this.closed = true;
      this.stopPing();
      gone();
    });
    this.schedulePing();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Returns false when the socket's buffer is full: wait for `drained()` before sending more. */
  send(event: string, data: unknown): boolean {
    if (this.closed) return true;
    const ok = this.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    this.schedulePing();
    return ok;
  }

  drained(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.on('drain', done);
      this.res.on('close', done);
    });
  }

  end(): void {
    this.stopPing();
    if (!this.closed) this.res.end();
  }

  /** Drops the connection without a terminating event, as a crashed upstream would. */
  cut(): void {
    this.stopPing();
    if (this.closed) return;
    this.closed = true; // nothing more goes out
    // A response corks its socket until the next tick: destroying it at once would drop the
    // pieces written in this tick (all of them, status line included, without a token delay).
    // So the connection is dropped only once what was sent has left.
    const res = this.res;
    void Promise.race([this.lastWrite, this.gone]).then(() => res.destroy());
  }

  private write(text: string): boolean {
    let ok = true;
    this.lastWrite = new Promise<void>((resolve) => {
      ok = this.res.write(text, () => resolve());
    });
    return ok;
  }

  private schedulePing(): void {
    this.stopPing();
    if (this.closed || this.pingIntervalMs <= 0) return;
    this.pingTimer = setTimeout(() => {
      if (this.closed) return;
      this.write(': ping\n\n');
      this.schedulePing();
    }, this.pingIntervalMs);
    this.pingTimer.unref();
  }

  private stopPing(): void {
    if (this.pingTimer) clearTimeout(this.pingTimer);
    this.pingTimer = undefined;
  }
}

/** Streams a finished reply piece by piece; `done` carries the whole text plus `doneExtra`. */
export async function streamReply(
  res: ServerResponse,
  sessionId: string,
  pieces: string[],
  doneExtra: Record<string, unknown>,
  options: StreamOptions,
): Promise<void> {
  const sse = new SseWriter(res, options.pingIntervalMs);
  const started = Date.now();
  const { cutAfter } = options;
  sse.send(SSE_EVENTS.session, { session_id: sessionId });
  if (cutAfter === 0) {
    sse.cut();
    return;
  }
  let sent = 0;
  for (const piece of pieces) {
    if (options.tokenDelayMs > 0) await sleep(options.tokenDelayMs);
    if (sse.isClosed) return;
    if (options.timeLimitMs !== undefined && Date.now() - started > options.timeLimitMs) {
      sse.send(SSE_EVENTS.error, { statusCode: 504, message: 'Query timeout' });
      sse.end();
      return;
    }
    if (!sse.send(SSE_EVENTS.delta, { content: piece })) await sse.drained();
    if (cutAfter !== undefined && ++sent >= cutAfter) {
      sse.cut();
      return;
    }
  }
  sse.send(SSE_EVENTS.done, { session_id: sessionId, content: pieces.join(''), ...doneExtra });
  sse.end();
}
