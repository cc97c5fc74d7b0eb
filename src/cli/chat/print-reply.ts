// Prints a reply as it arrives: the pieces of each read go to stdout at once (no waiting for more), the
// line is ended at the end; on a terminal, rendered as Markdown as it streams (markdown.ts), unless
// --raw or `render raw`. Tool calls go to stderr through ToolLines and are collected for --json.
// A stream that breaks or reports a failure keeps what was printed, ends the line and throws
// (exit 7; Ctrl-C: InterruptedError). A reply printed is not kept: only one collected (--json,
// --fields) is held whole, up to a cap (held-reply.ts). stdout read slower than the reply comes (a
// slow pipe) holds the reading back, so what waits to be written stays small too.
import { ToolLines, type ToolDisplay } from '../../ui/tool-calls.js';
import type { Context } from '../context.js';
import { exitCodeFor } from '../exit-codes.js';
import { StreamCutError } from '../../api/errors.js';
import { InterruptedError, SuperagentError } from '../../core/errors.js';
import { ReplyView, rendersMarkdown } from './markdown.js';
import { BatchedWrites } from '../../ui/batched-writes.js';
import { HeldReply } from './held-reply.js';
import type { ReplyEvent, ToolCall } from './types.js';

export interface PrintedReply {
  /** the whole text, only when it was collected (echo false), and not when it was over the cap */
  content?: string;
  sessionId?: string;
  timestamp?: string;
  /** every tool call the service reported, in the order they started, each in its last state */
  toolCalls: ToolCall[];
}

export interface PrintReplyOptions {
  /** false: collect the reply without printing it (--json, --fields); default true */
  echo?: boolean;
  /** what the reply is collected for, named if it is over the cap (HELD_REPLY_BYTES); default --json */
  heldFor?: string;
  /** called once, when the first piece of text or the first tool call arrives (stops a spinner) */
  onFirstText?: () => void;
  /**
   * called when the service names the session (so a caller can report it even if the stream breaks),
   * once the first text that came with it is out: remembering it is a file write, not worth a later first byte
   */
  onSession?: (sessionId: string) => void;
  /** how tool calls are shown on stderr (default: not at all) */
  tools?: ToolDisplay;
  /** false: never rendered as Markdown (an answer asked for as JSON); default: on a terminal that allows it */
  markdown?: boolean;
  /**
   * Ctrl-C of a one-shot command: the terminal (in cooked mode) echoed `^C` on the current line,
   * so when this aborts that line is ended, even at a line's start (the REPL draws its own ^C)
   */
  interrupt?: AbortSignal;
}

/** A tool call as --json lists it (snake_case, like the API). */
export function toolCallJson(call: ToolCall): Record<string, unknown> {
  return {
    id: call.id,
    name: call.name,
    arguments: call.args ?? null,
    status: call.state,
    ...(call.result !== undefined ? { result: call.result } : {}),
    ...(call.error !== undefined ? { error: call.error } : {}),
    duration_ms: call.durationMs ?? null,
  };
}

/**
 * A collected reply that broke is not lost: its text goes out anyway (as JSON with --json, beside the
 * error). One over the cap has none (`content: null` with --json).
 */
function keepPartial(ctx: Context, reply: PrintedReply, err: SuperagentError): void {
  if (!reply.content && !ctx.printer.json) return;
  if (ctx.printer.json) {
    ctx.printer.printJson({
      content: reply.content ?? null,
      session_id: reply.sessionId ?? null,
      tool_calls: reply.toolCalls.map(toolCallJson),
      error: { message: err.message, exit_code: exitCodeFor(err) },
    });
  } else ctx.printer.data(reply.content!);
}

export async function printReply(
  ctx: Context,
  events: AsyncIterable<ReplyEvent>,
  opts: PrintReplyOptions = {},
): Promise<PrintedReply> {
  const echo = opts.echo ?? true;
  const p = ctx.printer;
  const held = echo ? undefined : new HeldReply(opts.heldFor ?? '--json');
  const calls = new Map<string, ToolCall>();
  let sessionId: string | undefined;
  let done: Extract<ReplyEvent, { type: 'done' }> | undefined;
  let started = false;
  let lastChar = '\n';
  const view = echo && opts.markdown !== false && (await rendersMarkdown(ctx)) ? new ReplyView(ctx) : undefined;
  const out = echo ? new BatchedWrites(view ? (text) => view.write(text) : (text) => p.write(text)) : undefined;
  const first = () => {
    if (!started) opts.onFirstText?.();
    started = true;
  };
  let told: string | undefined;
  const tell = () => {
    if (sessionId === told) return;
    told = sessionId;
    if (sessionId !== undefined) opts.onSession?.(sessionId);
  };
  // a tool line drawn while the reply's own line is open on the same terminal starts on a line of its own
  const tools = new ToolLines(p, opts.tools ?? 'off', () => {
    if (view) view.hide();
    else if (echo && p.stdoutIsTTY && lastChar !== '\n') {
      p.write('\n');
      lastChar = '\n';
    }
  });
  /** `erased`: the ^C was on rows a redraw took off the screen */
  const endInterruptedLine = (erased = false) => {
    // the ^C was echoed after an open tool line: ending that line ended it
    if (tools.close() || erased) return;
    if (echo && p.stdoutIsTTY) {
      p.write('\n');
      lastChar = '\n';
    } else if (p.stderrIsTTY) p.stderrWrite('\n');
  };
  const endLine = async () => {
    await out?.flush();
    tools.close();
    if (view) await view.end();
    else if (echo && lastChar !== '\n') p.write('\n');
    lastChar = '\n';
  };
  const reply = (): PrintedReply => ({
    content: held?.text,
    sessionId,
    ...(done?.timestamp ? { timestamp: done.timestamp } : {}),
    toolCalls: [...calls.values()],
  });
  try {
    for await (const event of events) {
      if (event.type === 'session') {
        sessionId = event.sessionId;
      } else if (event.type === 'text') {
        if (event.text === '') continue;
        first();
        tools.close();
        held?.add(event.text);
        out?.push(event.text);
        lastChar = event.text[event.text.length - 1]!;
        if (sessionId !== told) {
          await out?.flush(); // out now, not on the next turn of the loop
          tell();
        }
        // stdout holds more than it takes: no more is read until it has taken it (or Ctrl-C)
        if (out && p.stdoutBacklogged) await out.flush().then(() => p.drained(opts.interrupt));
      } else if (event.type === 'tool') {
        first();
        calls.set(event.call.id, event.call);
        await out?.flush(); // the text before the call is on screen before its line
        tools.show(event.call);
        tell();
      } else {
        done = event;
        if (event.sessionId) sessionId = event.sessionId;
      }
    }
    await out?.flush();
    tell();
    // Ctrl-C while a reply that had all arrived was still being drawn
    if (opts.interrupt?.aborted)
      throw opts.interrupt.reason instanceof SuperagentError ? opts.interrupt.reason : new InterruptedError();
  } catch (caught) {
    tell();
    // the text that came before the failure is kept on screen; a sink that failed (the renderer) is left alone
    if (
      (await out?.flush().then(
        () => true,
        () => false,
      )) ??
      true
    ) {
      if (opts.interrupt?.reason instanceof InterruptedError) {
        // a rendered reply is drawn whole first (its redraw takes the echoed ^C with the tail)
        const erased = view?.tailShown ?? false;
        if (view) await endLine();
        endInterruptedLine(erased);
      }
      await endLine();
    } else tools.close();
    tools.finish();
    const err =
      caught instanceof SuperagentError
        ? caught
        : new StreamCutError(`the reply was cut short (${caught instanceof Error ? caught.message : String(caught)})`);
    if (!echo) keepPartial(ctx, reply(), err);
    throw err;
  }
  await endLine();
  tools.finish();
  return reply();
}
