// Reading a streamed reply (contract §6), leniently: bytes → TextDecoder in stream mode (a UTF-8
// character split between chunks survives) → eventsource-parser → what each event means
// (reply-events.ts) → typed events. Text is printed once: a completion event's `content` (Agno's
// `RunCompleted` repeats the whole reply) counts only when nothing streamed. A body that is JSON or
// plain text instead of SSE is read too.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ConnectionError, StreamCutError, TimeoutError } from './errors.js';
import { isObject, meaningOf, textOf, type ToolReport } from './reply-events.js';
import { BadAnswerError, InterruptedError, SuperagentError } from '../core/errors.js';

/** A tool call the service made while composing the reply (shown on stderr, listed in --json). */
export interface ToolCall {
  id: string;
  name: string;
  /** as the service gave them: an object, or JSON text */
  args?: unknown;
  state: 'running' | 'done' | 'failed';
  result?: unknown;
  error?: string;
  durationMs?: number;
}

export type StreamEvent =
  | { type: 'session'; sessionId: string }
  | { type: 'text'; text: string }
  /** a call started (`running`) or ended (`done` / `failed`); the same `id` both times */
  | { type: 'tool'; call: ToolCall }
  | { type: 'done'; content: string; sessionId?: string; timestamp?: string };

type Json = Record<string, unknown>;

function startsLikeJson(data: string): boolean {
  for (let i = 0; i < data.length; i++) {
    const c = data.charCodeAt(i);
    if (c === 0x7b /* { */ || c === 0x22 /* " */) return true;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a) return false;
  }
  return false;
}

function parseData(data: string): { obj?: Json; plain?: string } {
  if (startsLikeJson(data)) {
    try {
      const value: unknown = JSON.parse(data);
      if (isObject(value)) return { obj: value };
      if (typeof value === 'string') return { plain: value };
    } catch {
      // not JSON after all: plain text
    }
  }
  return { plain: data };
}

/** A failure the service reported in the stream: always exit 7, with its own words. */
function streamFailure(message: string): StreamCutError {
  return new StreamCutError(message, 'the reply stopped there; what arrived is kept');
}

/**
 * Turns SSE bytes into events. Feed chunks with `push`, then call `end` once the body is over.
 * A failure event sets `failure` (the events before it are still returned); after a completion
 * event or `[DONE]` the rest is ignored.
 */
export class SseDecoder {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly parser = createParser({ onEvent: (m) => this.onMessage(m) });
  private pending: StreamEvent[] = [];
  private text: string[] = [];
  private sessionId: string | undefined;
  private over = false;
  private readonly calls = new Map<string, { call: ToolCall; startedAt: number }>();
  private toolCount = 0;
  /** a ToolCallError with no text after it yet: the reply's failure unless text follows */
  private toolFailure: string | undefined;
  /** the in-band failure the stream reported, if any */
  failure: SuperagentError | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  /** true once the reply completed or failed: the caller may stop reading */
  get finished(): boolean {
    return this.over;
  }

  push(chunk: Uint8Array | string): StreamEvent[] {
    if (!this.over) this.parser.feed(typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true }));
    return this.take();
  }

  /** The stream is over: an event not closed by a blank line still counts, and a missing completion is implied. */
  end(): StreamEvent[] {
    if (!this.over) this.parser.feed(this.decoder.decode() + '\n\n');
    if (!this.over) this.complete(undefined, undefined);
    return this.take();
  }

  /**
   * The events of the chunk just fed. Pieces that arrived together are one piece: they reach the
   * screen at the same moment anyway, and a long fast stream costs one write per chunk, not per piece.
   */
  private take(): StreamEvent[] {
    const out: StreamEvent[] = [];
    for (const e of this.pending) {
      const last = out[out.length - 1];
      if (e.type === 'text' && last?.type === 'text') out[out.length - 1] = { type: 'text', text: last.text + e.text };
      else out.push(e);
    }
    this.pending = [];
    return out;
  }

  private onMessage(message: EventSourceMessage): void {
    if (this.over) return;
    const { data } = message;
    if (data.length < 16 && data.trim() === '[DONE]') return this.complete(undefined, undefined);
    const { obj, plain } = parseData(data);
    const sid = obj?.session_id ?? obj?.sessionId;
    if (typeof sid === 'string' && sid !== '' && sid !== this.sessionId) {
      this.sessionId = sid;
      this.pending.push({ type: 'session', sessionId: sid });
    }
    const meaning = meaningOf(message.event, obj, plain);
    switch (meaning.kind) {
      case 'text':
        return this.addText(meaning.text);
      case 'complete':
        return this.complete(meaning.content, meaning.timestamp);
      case 'failure':
        this.over = true;
        this.failure = streamFailure(meaning.message);
        return;
      case 'tool-started':
        for (const t of meaning.tools) this.toolStarted(t);
        return;
      case 'tool-completed':
        for (const t of meaning.tools) this.toolEnded(t);
        return;
      case 'tool-error':
        for (const t of meaning.tools) this.toolEnded(t);
        this.toolFailure = meaning.message;
        return;
      case 'none':
        return;
    }
  }

  private addText(text: string): void {
    if (!text) return;
    this.toolFailure = undefined; // the run went on after the failed tool
    this.text.push(text);
    this.pending.push({ type: 'text', text });
  }

  private toolStarted(t: ToolReport): void {
    const id = t.id ?? `tool-${++this.toolCount}`;
    const call: ToolCall = { id, name: t.name ?? 'tool', args: t.args, state: 'running' };
    this.calls.set(id, { call, startedAt: this.now() });
    this.pending.push({ type: 'tool', call: { ...call } });
  }

  private toolEnded(t: ToolReport): void {
    const known = t.id !== undefined ? this.calls.get(t.id) : undefined;
    const id = t.id ?? `tool-${++this.toolCount}`;
    const base = known?.call ?? { id, name: t.name ?? 'tool', args: t.args, state: 'running' as const };
    const call: ToolCall = {
      ...base,
      name: t.name ?? base.name,
      args: t.args ?? base.args,
      state: t.error ? 'failed' : 'done',
      ...(t.result !== undefined ? { result: t.result } : {}),
      ...(t.error ? { error: t.error } : {}),
    };
    const durationMs = t.durationMs ?? (known ? this.now() - known.startedAt : undefined);
    if (durationMs !== undefined) call.durationMs = durationMs;
    this.calls.delete(id);
    this.pending.push({ type: 'tool', call });
  }

  /** The reply is over: its whole text, from a completion's `content` only when nothing streamed. */
  private complete(content: string | undefined, timestamp: string | undefined): void {
    if (this.text.length === 0 && content) this.addText(content);
    this.over = true;
    if (this.toolFailure !== undefined) {
      this.failure = streamFailure(this.toolFailure);
      return;
    }
    this.pending.push({ type: 'done', content: this.text.join(''), sessionId: this.sessionId, ...(timestamp ? { timestamp } : {}) });
    this.text = [];
  }
}

export interface ReadOptions {
  /** the response's Content-Type; decides between SSE, JSON and plain text */
  contentType?: string;
  /** aborting it destroys the body, so a wait for the next piece ends at once */
  signal?: AbortSignal;
  /**
   * --timeout for a stream: the longest wait for the next piece of the reply (text or a tool call);
   * pings, blank data and other events do not count (issue 11)
   */
  idleMs?: number;
}

/** Ends the body when nothing of the reply arrived for `ms`. */
class IdleLimit {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ms: number,
    private readonly expire: () => void,
  ) {
    this.kick();
  }

  kick(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(this.expire, this.ms);
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

type Body = AsyncIterable<Uint8Array | string> & { destroy?(err?: Error): unknown };

/** What a failure while reading the body means: Ctrl-C, or a stream cut short (exit 7). */
function readFailure(err: unknown, signal: AbortSignal | undefined): SuperagentError {
  if (signal?.aborted || err instanceof InterruptedError) return new InterruptedError();
  if (err instanceof TimeoutError || (err instanceof SuperagentError && !(err instanceof ConnectionError))) return err;
  const e = err as { code?: string; message?: string };
  const why = e?.message || e?.code || 'connection lost';
  return new StreamCutError(`the reply was cut short (${why})`, 'what arrived is kept above; try again');
}

/**
 * The reply in `body` as events, read as it arrives. Ends with one `done` event; throws an
 * exit-7 error when the stream breaks, InterruptedError when `signal` aborts.
 */
export async function* readReplyStream(body: Body, opts: ReadOptions = {}): AsyncGenerator<StreamEvent> {
  const { signal } = opts;
  const type = (opts.contentType ?? '').toLowerCase();
  const onAbort = () => body.destroy?.(new InterruptedError());
  signal?.addEventListener('abort', onAbort, { once: true });
  const secs = (opts.idleMs ?? 0) / 1000;
  const idle = opts.idleMs
    ? new IdleLimit(opts.idleMs, () => body.destroy?.(new TimeoutError(`no reply text within ${secs} s`, 'what arrived is kept above; raise the limit with --timeout SECONDS')))
    : undefined;
  const progress = () => idle?.kick();
  try {
    if (signal?.aborted) throw new InterruptedError();
    if (type.includes('json')) yield* readJsonBody(body, signal, progress);
    else if (type.startsWith('text/') && !type.includes('event-stream')) yield* readPlainBody(body, signal, progress);
    else yield* readSseBody(body, signal, progress);
  } finally {
    idle?.stop();
    signal?.removeEventListener('abort', onAbort);
    // stopped early (done, an error, the consumer broke off): drop the rest of the response
    body.destroy?.();
  }
}

async function* readSseBody(body: Body, signal: AbortSignal | undefined, progress: () => void): AsyncGenerator<StreamEvent> {
  const decoder = new SseDecoder();
  try {
    for await (const chunk of body) {
      const events = decoder.push(chunk);
      if (events.some((e) => e.type === 'text' || e.type === 'tool')) progress();
      yield* events;
      if (decoder.finished) break;
    }
  } catch (err) {
    throw readFailure(err, signal);
  }
  yield* decoder.end();
  if (decoder.failure) throw decoder.failure;
}

/** A service that ignored `stream: true` and answered `{ content, session_id }`. */
async function* readJsonBody(body: Body, signal: AbortSignal | undefined, progress: () => void): AsyncGenerator<StreamEvent> {
  const decoder = new TextDecoder('utf-8');
  let text = '';
  try {
    for await (const chunk of body) {
      progress();
      text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    }
  } catch (err) {
    throw readFailure(err, signal);
  }
  text += decoder.decode();
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch {
    throw new BadAnswerError('the service answered with JSON that could not be read', 'check the base URL points at a SuperAgents service');
  }
  yield* replyFromJson(obj);
}

/** Session, text and done events for a whole JSON answer `{ content, session_id, timestamp? }`. */
export function replyFromJson(obj: unknown): StreamEvent[] {
  if (!isObject(obj)) throw new BadAnswerError('the service answered with something that is not a reply', 'check the base URL points at a SuperAgents service');
  const sid = obj.session_id ?? obj.sessionId;
  const sessionId = typeof sid === 'string' && sid !== '' ? sid : undefined;
  const content = textOf(obj) ?? '';
  const timestamp = typeof obj.timestamp === 'string' ? obj.timestamp : undefined;
  const events: StreamEvent[] = [];
  if (sessionId) events.push({ type: 'session', sessionId });
  if (content) events.push({ type: 'text', text: content });
  events.push({ type: 'done', content, sessionId, ...(timestamp ? { timestamp } : {}) });
  return events;
}

/** A body of plain text: every chunk is a piece. */
async function* readPlainBody(body: Body, signal: AbortSignal | undefined, progress: () => void): AsyncGenerator<StreamEvent> {
  const decoder = new TextDecoder('utf-8');
  const pieces: string[] = [];
  try {
    for await (const chunk of body) {
      const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      progress();
      if (text) {
        pieces.push(text);
        yield { type: 'text', text };
      }
    }
  } catch (err) {
    throw readFailure(err, signal);
  }
  const rest = decoder.decode();
  if (rest) {
    pieces.push(rest);
    yield { type: 'text', text: rest };
  }
  yield { type: 'done', content: pieces.join('') };
}
