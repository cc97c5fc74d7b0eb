// Prints a reply as it arrives: each piece goes to stdout the moment it comes (no buffering), the
// line is ended at the end. A stream that breaks keeps what was printed, ends the line and throws
// (exit 7; Ctrl-C: InterruptedError).
import type { Context } from '../context.js';
import { CliError, ServiceError } from '../errors.js';
import type { ReplyEvent } from './types.js';

export interface PrintedReply {
  content: string;
  sessionId?: string;
  timestamp?: string;
}

export interface PrintReplyOptions {
  /** false: collect the reply without printing it (--json, --fields); default true */
  echo?: boolean;
  /** called once, when the first piece of text arrives (stops a spinner) */
  onFirstText?: () => void;
  /** called when the service names the session (so a caller can report it even if the stream breaks) */
  onSession?: (sessionId: string) => void;
}

/** A collected reply that broke is not lost: its text goes out anyway (as JSON with --json). */
function keepPartial(ctx: Context, text: string, sessionId: string | undefined, err: CliError): void {
  if (text === '' && !ctx.printer.json) return;
  if (ctx.printer.json) ctx.printer.printJson({ content: text, session_id: sessionId ?? null, error: { message: err.message, exit_code: err.exitCode } });
  else ctx.printer.data(text);
}

export async function printReply(ctx: Context, events: AsyncIterable<ReplyEvent>, opts: PrintReplyOptions = {}): Promise<PrintedReply> {
  const echo = opts.echo ?? true;
  const p = ctx.printer;
  const pieces: string[] = [];
  let sessionId: string | undefined;
  let done: Extract<ReplyEvent, { type: 'done' }> | undefined;
  let lastChar = '\n';
  const endLine = () => {
    if (echo && lastChar !== '\n') p.write('\n');
    lastChar = '\n';
  };
  try {
    for await (const event of events) {
      if (event.type === 'session') {
        sessionId = event.sessionId;
        opts.onSession?.(sessionId);
      } else if (event.type === 'text') {
        if (event.text === '') continue;
        if (pieces.length === 0) opts.onFirstText?.();
        pieces.push(event.text);
        if (echo) p.write(event.text);
        lastChar = event.text[event.text.length - 1]!;
      } else {
        done = event;
        if (event.sessionId && event.sessionId !== sessionId) {
          sessionId = event.sessionId;
          opts.onSession?.(sessionId);
        }
      }
    }
  } catch (caught) {
    endLine();
    const err = caught instanceof CliError ? caught : new ServiceError(`the reply was cut short (${caught instanceof Error ? caught.message : String(caught)})`);
    if (!echo) keepPartial(ctx, pieces.join(''), sessionId, err);
    throw err;
  }
  endLine();
  const content = done?.content || pieces.join('');
  return { content, sessionId, ...(done?.timestamp ? { timestamp: done.timestamp } : {}) };
}
