// Server-Sent Events as the embedded service sends them (docs/api.md, Streaming replies): data-only
// lines whose JSON names the event in an `event` field (no `event:` lines), `data: [DONE]` last, `: ping`
// while idle.
import type { ServerResponse } from 'node:http';
import { SSE_DONE, SSE_EVENTS } from '../contract.js';

/** The events of one stream around its content pieces (the two shapes are in stream-events.ts). */
export interface StreamScript {
  /** sent before the first piece */
  head: object[];
  /** the event carrying one piece */
  piece(content: string): object;
  /** sent after the last piece, given the whole text */
  tail(content: string): object[];
}

/** A stream that fails in-band after some pieces (injected faults). */
export interface Interruption {
  afterPieces: number;
  statusCode: number;
  message: string;
  /** drop the connection after the error event, as a crashed upstream would, instead of ending it */
  drop: boolean;
}

export interface StreamOptions {
  tokenDelayMs: number;
  sleep: (ms: number) => Promise<void>;
  pingIntervalMs: number;
  interruption?: Interruption;
  /** fail with 504 `Query timeout` once the stream has run this long (assistant time limit) */
  timeLimitMs?: number;
  /**
   * The write of what the reply records (a new session), under way beside the pieces: the reply
   * completes only after it, and a failed write ends the stream with an error event instead (app.ts).
   * It is awaited however the stream ends (client gone, a fault).
   */
  recorded?: Promise<void>;
}

/** One SSE block: a single `data:` line and a blank line. */
export function sseFrame(data: object | string): string {
  return `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/** The failure event: `{"event":"error","message":…,"statusCode":N}`. */
export function errorEvent(statusCode: number, message: string): object {
  return { event: SSE_EVENTS.error, message, statusCode };
}

export class SseWriter {
  private pingTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** settles once the last write has been handed to the socket (writes go out in order) */
  private lastWrite: Promise<void> = Promise.resolve();
  private readonly gone: Promise<void>;

  constructor(
    private readonly res: ServerResponse,
    private readonly pingIntervalMs: number,
  ) {
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
  send(data: object | string): boolean {
    if (this.closed) return true;
    const ok = this.write(sseFrame(data));
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

/** Streams a finished reply: the script's head, its pieces, its tail, then `[DONE]`. */
export async function streamReply(
  res: ServerResponse,
  script: StreamScript,
  pieces: string[],
  options: StreamOptions,
): Promise<void> {
  const sse = new SseWriter(res, options.pingIntervalMs);
  const started = Date.now();
  const send = async (data: object | string) => {
    if (!sse.send(data)) await sse.drained();
  };
  const { recorded } = options;
  recorded?.catch(() => undefined); // awaited below however the stream ends: a failure before then is not unhandled
  let whole = false;
  try {
    whole = await sendHeadAndPieces(sse, script, pieces, { ...options, started }, send);
  } finally {
    // ended early (a throw, which is then the failure reported; the client left; the stream already
    // ended with its own error event): the record still ends first, its failure only logged (pending-writes.ts)
    if (!whole) await recorded?.catch(() => undefined);
  }
  if (!whole) return;
  await recorded; // a failure: app.ts ends the stream with an error event
  for (const event of script.tail(pieces.join(''))) await send(event);
  sse.send(SSE_DONE);
  sse.end();
}

/**
 * The head, then the pieces at the token delay; false when the stream
 * ended before the last (client gone, a fault, the time limit).
 */
async function sendHeadAndPieces(
  sse: SseWriter,
  script: StreamScript,
  pieces: string[],
  options: StreamOptions & { started: number },
  send: (data: object) => Promise<void>,
): Promise<boolean> {
  for (const event of script.head) {
    if (sse.isClosed) return false;
    await send(event);
  }
  const { interruption, timeLimitMs, started } = options;
  const fail = (statusCode: number, message: string, drop: boolean) => {
    sse.send(errorEvent(statusCode, message));
    if (drop) sse.cut();
    else sse.end();
  };
  let sent = 0;
  for (const piece of pieces) {
    if (interruption && sent >= interruption.afterPieces) {
      fail(interruption.statusCode, interruption.message, interruption.drop);
      return false;
    }
    if (options.tokenDelayMs > 0) await options.sleep(options.tokenDelayMs);
    if (sse.isClosed) return false;
    if (timeLimitMs !== undefined && Date.now() - started > timeLimitMs) {
      fail(504, 'Query timeout', false);
      return false;
    }
    await send(script.piece(piece));
    sent++;
  }
  return !sse.isClosed;
}
