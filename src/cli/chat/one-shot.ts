// What `chat` and `assistant ask` share for one message: the message from the arguments or piped
// stdin, the --session value, and one turn with Ctrl-C, a spinner and the session report wired up.
import { SessionNotFoundError } from '../../api/errors.js';
import { LIMITS } from '../../contract.js';
import { toolDisplay } from '../../ui/tool-calls.js';
import type { Context } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { InterruptedError, NoMatchError, TerminatedError, UsageError } from '../../core/errors.js';
import { refuseNul } from '../commands/shared/soul-source.js';
import { decodeUtf8, readStdinBuffer } from '../commands/shared/stdin.js';
import { asksForJson } from './markdown.js';
import { printReply, type PrintedReply } from './print-reply.js';
import { notContinued } from './sessions.js';
import type { SendFn } from './types.js';

/** The message: the words given, else piped stdin; never empty, within the contract's limit. */
/** How to give a message: `give it as arguments, superagent chat AGENT 'message', or pipe it on stdin`. */
export function giveIt(example: string): string {
  return `give it as arguments, ${example}, or pipe it on stdin`;
}

/** A character takes at most 4 bytes of UTF-8: more than this many bytes cannot be a message within the limit. */
const MESSAGE_BYTES = 4 * LIMITS.messageChars;

/** Piped stdin, read no further than one byte past what a message may take (`cat /dev/zero |` never ends). */
async function messageOnStdin(ctx: Context, what: string): Promise<string> {
  const buf = await readStdinBuffer(ctx, what, MESSAGE_BYTES);
  if (buf.length > MESSAGE_BYTES)
    throw new UsageError(
      `${what} is over ${LIMITS.messageChars} characters; at most ${LIMITS.messageChars} are accepted`,
    );
  return refuseNul(decodeUtf8(buf, what), `${what} on standard input`);
}

export async function messageFrom(ctx: Context, words: string[], what: string, example: string): Promise<string> {
  let message: string;
  if (words.length > 0) message = words.join(' ');
  else if (ctx.io.stdin.isTTY) throw new UsageError(`no ${what.replace(/^the /, '')}: ${giveIt(example)}`);
  else message = (await messageOnStdin(ctx, what)).replace(/\s+$/, '');
  if (message.trim() === '') throw new UsageError(`${what} is empty`, giveIt(example));
  if ([...message].length > LIMITS.messageChars)
    throw new UsageError(`${what} is ${[...message].length} characters; at most ${LIMITS.messageChars} are accepted`);
  return message;
}

/**
 * --session: any id the service gave (the hosted service's format is not published, so only what
 * can never be an id is refused here; an unknown one is the service's 404).
 */
export function parseSessionOption(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const id = String(value).trim();
  if (id === '' || id.length > 200 || /[\s\p{Cc}]/u.test(id))
    throw new UsageError(`--session needs a session id as printed by an earlier reply, not '${String(value)}'`);
  return id;
}

export interface TurnOptions {
  sessionId?: string;
  /** print the pieces as they arrive (false with --json and --fields: the reply is held whole, to a cap) */
  echo: boolean;
  /** the option the reply is held whole for, named if it is over the cap (default --json) */
  heldFor?: string;
  /** text beside the spinner, shown on a terminal until the first piece */
  spinner: string;
  /** show the spinner only once the wait is this long */
  spinnerDelayMs: number;
  /** prints what the reply amounts to (--json, parsed --fields), before the session line */
  present?: (reply: PrintedReply) => void;
  /** told the session the reply belongs to (to remember it for --continue) */
  onSession?: (sessionId: string) => void;
}

/** A 404 for the session given with --session says which one and what to do. */
function sessionNotFound(err: unknown, sessionId: string | undefined): unknown {
  if (sessionId && err instanceof SessionNotFoundError) {
    return new NoMatchError(`session ${sessionId} not found`, 'leave out --session to start a new conversation');
  }
  return err;
}

/**
 * Sends one message and prints the reply as it arrives. Ctrl-C aborts the request at once (throws
 * InterruptedError, what was printed stays). The session id goes to stderr as `Session: <id>`
 * (not with --json or --quiet), also when the reply failed part-way, so a script can continue.
 */
export async function oneTurn(ctx: Context, send: SendFn, message: string, opts: TurnOptions): Promise<PrintedReply> {
  const p = ctx.printer;
  const controller = new AbortController();
  const stopListening = ctx.signals.onInterrupt(() => controller.abort(new InterruptedError()));
  // SIGTERM (`timeout 60 superagent chat …`) ends it as Ctrl-C does: the reply drawn whole, then exit 143
  const stopTerm = ctx.signals.onTerminate(() => controller.abort(new TerminatedError()));
  const spinner = ctx.spinner(opts.spinner, { delayMs: opts.spinnerDelayMs });
  let sessionId: string | undefined;
  try {
    const reply = await printReply(ctx, send(message, { sessionId: opts.sessionId, signal: controller.signal }), {
      echo: opts.echo,
      heldFor: opts.heldFor,
      onFirstText: () => spinner.stop(),
      onSession: (id) => {
        sessionId = id;
        opts.onSession?.(id);
      },
      tools: toolDisplay(p, ctx.globals.verbose),
      markdown: !asksForJson(message),
      interrupt: controller.signal,
    });
    spinner.stop();
    if (opts.sessionId && reply.sessionId && reply.sessionId !== opts.sessionId)
      p.warn(notContinued(opts.sessionId, reply.sessionId));
    opts.present?.(reply);
    return reply;
  } catch (err) {
    if (controller.signal.aborted) {
      // the reply's line is ended (printReply), and the Session line below ends on its own
      const stopped =
        controller.signal.reason instanceof TerminatedError ? controller.signal.reason : new InterruptedError();
      stopped.lineEnded = true;
      throw stopped;
    }
    throw sessionNotFound(err, opts.sessionId);
  } finally {
    spinner.stop();
    stopListening();
    stopTerm();
    if (sessionId && !p.json && !p.options.quiet) p.stderrWrite(`${p.err.dim('Session:')} ${sessionId}\n`);
  }
}

/** Ctrl-C in a one-shot command: exit 130 quietly, keeping what was printed. */
export async function exitOnInterrupt(work: () => Promise<number | void>): Promise<number | void> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof InterruptedError) return EXIT.interrupted;
    throw err;
  }
}
