// What a chat turn yields, whatever is on the other end (an agent or the assistant), so the REPL and
// the one-shot printer know nothing of HTTP.
import type { StreamEvent, ToolCall } from '../../api/sse.js';

export type ReplyEvent = StreamEvent;
export type { ToolCall };

export interface SendOptions {
  sessionId?: string;
  signal: AbortSignal;
}

/** Sends one message and yields the reply as it arrives. Throws a CliError (exit 7 for a cut stream). */
export type SendFn = (message: string, opts: SendOptions) => AsyncIterable<ReplyEvent>;
