// Reading a streamed reply (contract §6), leniently: bytes → TextDecoder in stream mode (a UTF-8
// character split between chunks survives) → eventsource-parser → typed events. Accepted besides
// our own `session` / `delta` / `done` / `error` events: unnamed events whose JSON carries the text
// in `content`, `delta`, `text` or `token` (or OpenAI's `choices[0].delta.content`), plain-text data,
// `data: [DONE]`, a stream that simply ends, CRLF, and a body that is JSON or plain text instead.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ConnectionError, statusError } from './errors.js';
import { CliError, InterruptedError, ServiceError } from '../cli/errors.js';

export type StreamEvent =
  | { type: 'session'; sessionId: string }
  | { type: 'text'; text: string }
  | { type: 'done'; content: string; sessionId?: string; timestamp?: string };

/** The fields that may carry a piece of text, in the order they are tried. */
const TEXT_FIELDS = ['content', 'delta', 'text', 'token'] as const;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textOf(obj: Json): string | undefined {
  for (const field of TEXT_FIELDS) {
    const v = obj[field];
    if (typeof v === 'string') return v;
    // `{ "delta": { "content": "…" } }`
    if (isObject(v) && typeof v.content === 'string') return v.content;
  }
  const choice = Array.isArray(obj.choices) ? obj.choices[0] : undefined;
  if (isObject(choice) && isObject(choice.delta) && typeof choice.delta.content === 'string') return choice.delta.content;
  return undefined;
}

/** `{ statusCode, message }` or `{ error: { message } }` sent in-band: the error it stands for. */
function inBandError(obj: Json | undefined, data: string): CliError {
  const nested = obj && isObject(obj.error) ? obj.error : undefined;
  const code = obj?.statusCode ?? obj?.status ?? nested?.code ?? nested?.statusCode;
  const status = typeof code === 'number' && code >= 400 && code <= 599 ? code : 500;
  return statusError(status, obj ?? data.trim());
}

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

/**
 * Turns SSE bytes into events. Feed chunks with `push`, then call `end` once the body is over.
 * An `error` event sets `failure` (the events before it are still returned); after `done` or
 * `[DONE]` the rest is ignored.
 */
export class SseDecoder {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly parser = createParser({ onEvent: (m) => this.onMessage(m) });
  private pending: StreamEvent[] = [];
  private text: string[] = [];
  private sessionId: string | undefined;
  private over = false;
  /** the in-band error the stream reported, if any */
  failure: CliError | undefined;

  /** true once `done`, `[DONE]` or an error arrived: the caller may stop reading */
  get finished(): boolean {
    return this.over;
  }

  push(chunk: Uint8Array | string): StreamEvent[] {
    if (!this.over) this.parser.feed(typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true }));
    return this.take();
  }

  /** The stream is over: an event not closed by a blank line still counts, and a missing `done` is implied. */
  end(): StreamEvent[] {
    if (!this.over) this.parser.feed(this.decoder.decode() + '\n\n');
    if (!this.over) this.finish(undefined);
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
    if (data.length < 16 && data.trim() === '[DONE]') return this.finish(undefined);
    const { obj, plain } = parseData(data);
    const name = (message.event ?? (typeof obj?.type === 'string' ? obj.type : '')).toLowerCase();
    if (name === 'error' || (obj && carriesError(obj))) {
      this.over = true;
      this.failure = inBandError(obj, data);
      return;
    }
    const sid = obj?.session_id ?? obj?.sessionId;
    if (typeof sid === 'string' && sid !== '' && sid !== this.sessionId) {
      this.sessionId = sid;
      this.pending.push({ type: 'session', sessionId: sid });
    }
    if (name === 'done' || obj?.done === true) return this.finish(obj);
    if (name === 'session' || name === 'ping') return;
    const text = obj ? textOf(obj) : plain;
    if (text) {
      this.text.push(text);
      this.pending.push({ type: 'text', text });
    }
  }

  private finish(obj: Json | undefined): void {
    const given = obj?.content;
    const content = typeof given === 'string' && given !== '' ? given : this.text.join('');
    const timestamp = typeof obj?.timestamp === 'string' ? obj.timestamp : undefined;
    this.pending.push({ type: 'done', content, sessionId: this.sessionId, ...(timestamp ? { timestamp } : {}) });
    this.text = [];
    this.over = true;
  }
}

/** An unnamed event that is an error body rather than a piece of text. */
function carriesError(obj: Json): boolean {
  const e = obj.error;
  return (isObject(e) || (typeof e === 'string' && e !== '')) && textOf(obj) === undefined;
}

export interface ReadOptions {
  /** the response's Content-Type; decides between SSE, JSON and plain text */
  contentType?: string;
  /** aborting it destroys the body, so a wait for the next piece ends at once */
  signal?: AbortSignal;
}

type Body = AsyncIterable<Uint8Array | string> & { destroy?(err?: Error): unknown };

/** What a failure while reading the body means: Ctrl-C, or a stream cut short (exit 7). */
function readFailure(err: unknown, signal: AbortSignal | undefined): CliError {
  if (signal?.aborted || err instanceof InterruptedError) return new InterruptedError();
  if (err instanceof CliError && !(err instanceof ConnectionError)) return err;
  const e = err as { code?: string; message?: string };
  const why = e?.code === 'UND_ERR_BODY_TIMEOUT' ? 'no data for too long' : e?.message || e?.code || 'connection lost';
  return new ServiceError(`the reply was cut short (${why})`, 'what arrived is kept above; try again');
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
  try {
    if (signal?.aborted) throw new InterruptedError();
    if (type.includes('json')) yield* readJsonBody(body, signal);
    else if (type.startsWith('text/') && !type.includes('event-stream')) yield* readPlainBody(body, signal);
    else yield* readSseBody(body, signal);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // stopped early (done, an error, the consumer broke off): drop the rest of the response
    body.destroy?.();
  }
}

async function* readSseBody(body: Body, signal: AbortSignal | undefined): AsyncGenerator<StreamEvent> {
  const decoder = new SseDecoder();
  try {
    for await (const chunk of body) {
      yield* decoder.push(chunk);
      if (decoder.finished) break;
    }
  } catch (err) {
    throw readFailure(err, signal);
  }
  yield* decoder.end();
  if (decoder.failure) throw decoder.failure;
}

/** A service that ignored `stream: true` and answered `{ content, session_id }`. */
async function* readJsonBody(body: Body, signal: AbortSignal | undefined): AsyncGenerator<StreamEvent> {
  const decoder = new TextDecoder('utf-8');
  let text = '';
  try {
    for await (const chunk of body) text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
  } catch (err) {
    throw readFailure(err, signal);
  }
  text += decoder.decode();
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch {
    throw new ServiceError('the service answered with JSON that could not be read', 'check the base URL points at a SuperAgents service');
  }
  yield* replyFromJson(obj);
}

/** Session, text and done events for a whole JSON answer `{ content, session_id, timestamp? }`. */
export function replyFromJson(obj: unknown): StreamEvent[] {
  if (!isObject(obj)) throw new ServiceError('the service answered with something that is not a reply', 'check the base URL points at a SuperAgents service');
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
async function* readPlainBody(body: Body, signal: AbortSignal | undefined): AsyncGenerator<StreamEvent> {
  const decoder = new TextDecoder('utf-8');
  const pieces: string[] = [];
  try {
    for await (const chunk of body) {
      const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
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
