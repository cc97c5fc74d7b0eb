// Reading a streamed reply (docs/api.md, Streaming replies) from a response body, as it arrives: SSE through
// sse-decoder.ts, or a body that is JSON or plain text instead. --timeout is the longest wait for
// reply text; a body that is neither a stream nor a reply, or a reply without any text, is exit 7.
import { ConnectionError, StreamCutError, TimeoutError } from './errors.js';
import { nestsTooDeep, noReplyText, notAsDescribed, nestsDeeperThan } from './answer-checks.js';
import { SseDecoder, type StreamEvent } from './sse-decoder.js';
import { bodyText } from './transport.js';
import { isObject, structuredText, textOf } from './reply-events.js';
import { BadAnswerError, InterruptedError, SuperagentError } from '../core/errors.js';

export { SseDecoder, type StreamEvent, type ToolCall } from './sse-decoder.js';

export interface ReadOptions {
  /** the response's Content-Type; decides between SSE, JSON and plain text */
  contentType?: string;
  /** aborting it destroys the body, so a wait for the next piece ends at once */
  signal?: AbortSignal;
  /**
   * --timeout for a stream: the longest wait for the next piece of reply text that is not blank.
   * Pings, blank or white-space data, tool calls and other events do not count, so a
   * service cannot hold the reply open without saying anything; a JSON answer must come whole in it.
   */
  idleMs?: number;
  /** the proxy the reply comes through (masked): named when the stream breaks, it may be the one that cut it */
  proxy?: string;
}

/** Ends the body when no reply text arrived for `ms`. */
class IdleLimit {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ms: number,
    private readonly expire: () => void,
  ) {
    this.kick();
  }

  kick(): void {
    // refresh() restarts the same timer: cheaper than a new one for every piece of a fast stream
    if (this.timer) this.timer.refresh();
    else this.timer = setTimeout(this.expire, this.ms);
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

type Body = AsyncIterable<Uint8Array | string> & { destroy?(err?: Error): unknown };
type Reader = (body: Body) => AsyncGenerator<StreamEvent>;

/** What a failure while reading the body means: Ctrl-C, or a stream cut short (exit 7). */
function readFailure(err: unknown, signal: AbortSignal | undefined, proxy?: string): SuperagentError {
  if (signal?.aborted || err instanceof InterruptedError) return new InterruptedError();
  if (err instanceof TimeoutError || (err instanceof SuperagentError && !(err instanceof ConnectionError))) return err;
  const e = err as { code?: string; message?: string };
  const why = e?.message || e?.code || 'connection lost';
  const by = proxy ? `, perhaps by the proxy ${proxy}` : '';
  return new StreamCutError(`the reply was cut short (${why})${by}`, 'what arrived is kept above; try again');
}

const hasText = (text: string) => /\S/.test(text);

/**
 * The reader for a Content-Type: SSE, JSON, or plain text. No type at all is read as JSON when the
 * body starts like JSON, else as SSE; any other type (an image, bytes) is not a reply.
 */
function readerFor(type: string): Reader | undefined {
  if (type.includes('event-stream')) return readSseBody;
  if (type.includes('json')) return readJsonBody;
  if (type.startsWith('text/')) return readPlainBody;
  if (type === '') return readSniffed;
  return undefined;
}

/**
 * The reply in `body` as events, read as it arrives. Ends with one `done` event; throws an
 * exit-7 error when the stream breaks or holds no reply text, InterruptedError when `signal` aborts.
 */
export async function* readReplyStream(body: Body, opts: ReadOptions = {}): AsyncGenerator<StreamEvent> {
  const { signal } = opts;
  const type = (opts.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  const onAbort = () => body.destroy?.(new InterruptedError());
  signal?.addEventListener('abort', onAbort, { once: true });
  const secs = (opts.idleMs ?? 0) / 1000;
  const idle = opts.idleMs
    ? new IdleLimit(opts.idleMs, () =>
        body.destroy?.(
          new TimeoutError(
            `no reply text within ${secs} s`,
            'what arrived is kept above; raise the limit with --timeout SECONDS',
          ),
        ),
      )
    : undefined;
  let texts = false;
  try {
    if (signal?.aborted) throw new InterruptedError();
    const reader = readerFor(type);
    if (!reader) throw notAsDescribed(`the reply came as ${type}, not as text/event-stream or JSON`);
    try {
      for await (const event of reader(body)) {
        if (event.type === 'text' && hasText(event.text)) {
          texts = true;
          idle?.kick(); // only text that says something: blank pieces, pings and tool calls are no reply
        }
        if (event.type === 'done' && !texts) throw noReplyText();
        yield event;
      }
    } catch (err) {
      throw readFailure(err, signal, opts.proxy);
    }
  } finally {
    idle?.stop();
    signal?.removeEventListener('abort', onAbort);
    // stopped early (done, an error, the consumer broke off): drop the rest of the response
    body.destroy?.();
  }
}

async function* readSseBody(body: Body): AsyncGenerator<StreamEvent> {
  const decoder = new SseDecoder();
  for await (const chunk of body) {
    yield* decoder.push(chunk);
    if (decoder.finished) break;
  }
  yield* decoder.end();
  if (decoder.failure) throw decoder.failure;
}

/** A service that ignored `stream: true` and answered `{ content, session_id }`, whole within the limit. */
async function* readJsonBody(body: Body): AsyncGenerator<StreamEvent> {
  const text = await bodyText(body);
  if (nestsDeeperThan(text)) throw nestsTooDeep();
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch {
    throw new BadAnswerError(
      'the service answered with JSON that could not be read',
      'check the base URL points at a SuperAgents service',
    );
  }
  yield* replyFromJson(obj);
}

/** No Content-Type: JSON when the first bytes look like it, SSE otherwise. */
async function* readSniffed(body: Body): AsyncGenerator<StreamEvent> {
  const chunks = body[Symbol.asyncIterator]();
  const first = await chunks.next();
  const start = first.done
    ? ''
    : typeof first.value === 'string'
      ? first.value
      : Buffer.from(first.value).subarray(0, 64).toString('utf8');
  const rest: Body = {
    async *[Symbol.asyncIterator]() {
      if (!first.done) yield first.value;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
    },
  };
  yield* (/^\s*[{[]/.test(start) ? readJsonBody : readSseBody)(rest);
}

/**
 * Session, text and done events for a whole JSON answer `{ content, session_id, timestamp? }`.
 * Content that is an object or a list (structured output) is its JSON text; any other type is refused.
 */
export function replyFromJson(obj: unknown): StreamEvent[] {
  if (!isObject(obj))
    throw new BadAnswerError(
      'the service answered with something that is not a reply',
      'check the base URL points at a SuperAgents service',
    );
  const sid = obj.session_id ?? obj.sessionId;
  const sessionId = typeof sid === 'string' && sid !== '' ? sid : undefined;
  const content = textOf(obj) ?? structuredText(obj.content);
  if (content === undefined && obj.content !== undefined)
    throw notAsDescribed(`content is ${obj.content === null ? 'null' : `a ${typeof obj.content}`}, not text`);
  if (content === undefined || !hasText(content)) throw noReplyText();
  const timestamp = typeof obj.timestamp === 'string' ? obj.timestamp : undefined;
  const events: StreamEvent[] = [];
  if (sessionId) events.push({ type: 'session', sessionId });
  events.push({ type: 'text', text: content });
  events.push({ type: 'done', sessionId, ...(timestamp ? { timestamp } : {}) });
  return events;
}

/** A body of plain text: every chunk is a piece. */
async function* readPlainBody(body: Body): AsyncGenerator<StreamEvent> {
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of body) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (text) yield { type: 'text', text };
  }
  const rest = decoder.decode();
  if (rest) yield { type: 'text', text: rest };
  yield { type: 'done' };
}
