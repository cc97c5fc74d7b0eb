// SSE bytes → typed reply events (docs/api.md, Streaming replies), leniently: a StringDecoder (a UTF-8
// character split between chunks survives; a third of TextDecoder's cost in stream mode, which matters on a
// 20,000-piece reply; a leading byte-order mark is dropped as TextDecoder would) → eventsource-parser
// (a line or event past ANSWER_LIMITS.eventChars is cut off) → what each event means
// (reply-events.ts). Text is given once: a completion event's `content` (Agno's `RunCompleted`
// repeats the whole reply) counts only when nothing streamed. The reply's text is handed on, never
// kept here: a reply may be larger than the memory (or than a string may be). Reading a response
// body with it: sse.ts.
import { StringDecoder } from 'node:string_decoder';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { StreamCutError } from './errors.js';
import { isCompletionEvent, isObject, meaningOf, type ToolReport } from './reply-events.js';
import { BadAnswerError, SuperagentError } from '../core/errors.js';
import { ANSWER_LIMITS } from '../contract.js';
import { eventTooLarge, nestsDeeperThan } from './answer-checks.js';

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
  /** the reply is over (its text was in the text events: not repeated here, so never held whole) */
  | { type: 'done'; sessionId?: string; timestamp?: string };

type Json = Record<string, unknown>;

function startsLikeJson(data: string): boolean {
  for (let i = 0; i < data.length; i++) {
    const c = data.charCodeAt(i);
    if (c === 0x7b /* { */ || c === 0x22 /* " */) return true;
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a) return false;
  }
  return false;
}

function parseData(data: string): { obj?: Json; plain?: string; broken?: boolean } {
  if (startsLikeJson(data)) {
    try {
      const value: unknown = JSON.parse(data);
      if (isObject(value)) return { obj: value };
      if (typeof value === 'string') return { plain: value };
    } catch {
      // not JSON after all: plain text (unless it is the stream's last event, cut part-way)
      return { plain: data, broken: true };
    }
  }
  return { plain: data };
}

/** How much of a line's start is kept to tell what an event too long to read was. */
const LINE_HEAD = 256;

/** The event a data line's JSON names first (`data: {"event":"RunCompleted",…`), from its start alone. */
function eventNamedIn(lineHead: string): string | undefined {
  return /^data: ?\s*\{\s*"(?:event|type)"\s*:\s*"([A-Za-z_]+)"/.exec(lineHead)?.[1];
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
  private readonly decoder = new StringDecoder('utf8');
  private started = false;
  private readonly parser = createParser({
    onEvent: (m) => this.onMessage(m),
    // a line or an event that never ends is cut off, not buffered until the memory runs out
    maxBufferSize: ANSWER_LIMITS.eventChars,
    onError: (e) => {
      if (e.type !== 'max-buffer-size-exceeded') return;
      // Agno's RunCompleted repeats the whole reply, so a long reply's is past the limit. Once text has
      // come its content is not used: the reply is over where it starts, the rest of it not read
      const name = eventNamedIn(this.lineHead);
      if (name && isCompletionEvent(name) && this.texted) this.complete(undefined, undefined);
      else this.fail(eventTooLarge());
    },
  });
  /** the start of the line being read (a line past the limit is told by it) */
  private lineHead = '';
  private pending: StreamEvent[] = [];
  /** text pieces since the last other event: one text event when taken (pieces that arrived together are one) */
  private pieces: string[] = [];
  /** whether any text was given out (or gathered to be): a completion's `content` counts only when none was */
  private get texted(): boolean {
    return this.textGiven || this.pieces.length > 0;
  }
  private textGiven = false;
  private sessionId: string | undefined;
  private over = false;
  /** the body is over: an event still open now was cut off, not finished */
  private ending = false;
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
    if (!this.over) this.feed(typeof chunk === 'string' ? chunk : this.decoder.write(chunk));
    return this.take();
  }

  private feed(text: string): void {
    if (!this.started && text !== '') {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a byte-order mark is no part of the stream
    }
    // searched from the end: a line's end is near it but while a line longer than the chunk goes on
    const nl = text.lastIndexOf('\n');
    if (nl !== -1) this.lineHead = text.slice(nl + 1, nl + 1 + LINE_HEAD);
    else if (this.lineHead.length < LINE_HEAD) this.lineHead += text.slice(0, LINE_HEAD - this.lineHead.length);
    this.parser.feed(text);
  }

  /** The stream is over: an event not closed by a blank line still counts, and a missing completion is implied. */
  end(): StreamEvent[] {
    this.ending = true;
    if (!this.over) this.feed(this.decoder.end() + '\n\n');
    if (!this.over) this.complete(undefined, undefined);
    return this.take();
  }

  /**
   * The events of the chunk just fed. Pieces that arrived together are one piece: they reach the
   * screen at the same moment anyway, and a long fast stream costs one write per chunk, not per piece.
   */
  private take(): StreamEvent[] {
    this.endText();
    const out = this.pending;
    this.pending = [];
    return out;
  }

  /** The pieces gathered since the last other event become one text event. */
  private endText(): void {
    if (this.pieces.length === 0) return;
    const text = this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join('');
    this.pieces = [];
    this.textGiven = true;
    this.pending.push({ type: 'text', text });
  }

  /** Another event: after the text that came before it. */
  private add(event: StreamEvent): void {
    this.endText();
    this.pending.push(event);
  }

  private fail(failure: SuperagentError): void {
    this.over = true;
    this.failure = failure;
  }

  private onMessage(message: EventSourceMessage): void {
    if (this.over) return;
    const { data } = message;
    if (data.length < 16 && data.trim() === '[DONE]') return this.complete(undefined, undefined);
    if (nestsDeeperThan(data))
      return this.fail(
        new BadAnswerError(
          `the service sent an event nested more than ${ANSWER_LIMITS.jsonDepth} deep`,
          'what arrived is kept above',
        ),
      );
    const { obj, plain, broken } = parseData(data);
    // `data: {"event":"RunCont` and the connection closed: a reply cut short, not text to show
    if (broken && this.ending)
      return this.fail(
        new StreamCutError(
          'the reply was cut short (its last event ended part-way)',
          'what arrived is kept above; try again',
        ),
      );
    const sid = obj?.session_id ?? obj?.sessionId;
    if (typeof sid === 'string' && sid !== '' && sid !== this.sessionId) {
      this.sessionId = sid;
      this.add({ type: 'session', sessionId: sid });
    }
    const meaning = meaningOf(message.event, obj, plain);
    switch (meaning.kind) {
      case 'text':
        return this.addText(meaning.text);
      case 'complete':
        return this.complete(meaning.content, meaning.timestamp);
      case 'failure':
        return this.fail(streamFailure(meaning.message));
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
    this.pieces.push(text);
  }

  private toolStarted(t: ToolReport): void {
    const id = t.id ?? `tool-${++this.toolCount}`;
    const call: ToolCall = { id, name: t.name ?? 'tool', args: t.args, state: 'running' };
    this.calls.set(id, { call, startedAt: this.now() });
    this.add({ type: 'tool', call: { ...call } });
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
    this.add({ type: 'tool', call });
  }

  /** The reply is over: a completion's `content` is its text only when nothing streamed. */
  private complete(content: string | undefined, timestamp: string | undefined): void {
    if (!this.texted && content) this.addText(content);
    this.over = true;
    if (this.toolFailure !== undefined) {
      this.failure = streamFailure(this.toolFailure);
      return;
    }
    this.endText();
    this.pending.push({ type: 'done', sessionId: this.sessionId, ...(timestamp ? { timestamp } : {}) });
  }
}
