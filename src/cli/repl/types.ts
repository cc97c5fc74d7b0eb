// What the REPL is made of and what its parts may use: the session a slash command sees, the table
// entries, and the options a REPL is built from (chat/chat-repl.ts and chat/assistant-repl.ts fill them in).
import type { ReplyEvent, SendFn } from '../chat/types.js';
import type { InStream, Signals } from '../context.js';
import type { OutStream, Printer } from '../../ui/printer.js';

/** What a slash command may use. */
export interface ReplSession {
  /** the conversation the next message continues; undefined: the next message starts a new one */
  sessionId: string | undefined;
  readonly printer: Printer;
  /** aborted by Ctrl-C while the command runs */
  readonly signal: AbortSignal;
  /** a line for the person at the terminal (stderr) */
  note(text: string): void;
  /** every slash command this REPL has (for /help) */
  readonly commandTable: readonly SlashCommand[];
}

export interface SlashCommand {
  /** without the slash */
  name: string;
  aliases?: string[];
  /** shown after the name in /help, e.g. '<text>' */
  args?: string;
  summary: string;
  /** `arg` is what follows the name, trimmed; return 'exit' to leave the REPL */
  run(arg: string, session: ReplSession): Promise<void | 'exit'> | void | 'exit';
  /** the words Tab may complete the argument with */
  complete?(partial: string): Promise<string[]> | string[];
}

export interface ReplOptions {
  input: InStream;
  /** where readline draws the prompt and echoes typing: stderr, so stdout keeps only replies */
  output: OutStream;
  printer: Printer;
  /** the prompt's label: the agent's name, or "assistant" */
  label: string;
  send: SendFn;
  /** prints one reply as it arrives (the chats' printReply); throws when the stream breaks */
  render: RenderReply;
  /** a spinner shown until the first piece of a reply arrives */
  waiting?: StartWaiting;
  /** commands besides the built-in /help, /new, /session and /exit */
  commands?: SlashCommand[];
  /** continue this conversation */
  sessionId?: string;
  /** told as each line (a message or a slash command) starts: a line is a command of its own */
  onLine?: () => void;
  /** told each session a reply belongs to (the chat REPL remembers it for next time) */
  onSession?: (sessionId: string) => void;
  /** lines typed are kept here across runs (see history.ts); none when omitted */
  historyFile?: string;
  historySize?: number;
  /** one line shown at the start */
  intro?: string;
  /** makes a failed turn's error more helpful (a paused agent → a `resume` hint) */
  explainError?: (err: unknown) => unknown;
  debug?: boolean;
  /** SIGTERM and SIGHUP end the REPL as Ctrl-D does (the terminal restored), then exit 143 or 129 */
  signals?: Pick<Signals, 'onTerminate' | 'onHangup' | 'onInterrupt'>;
}

export interface ReplyHooks {
  /** the message the reply answers */
  message: string;
  onFirstText(): void;
  onSession(sessionId: string): void;
}

export type RenderReply = (events: AsyncIterable<ReplyEvent>, hooks: ReplyHooks) => Promise<unknown>;
export type StartWaiting = () => { stop(): void };

export const LEAVE_HINT = 'Press Ctrl-C again or Ctrl-D to leave';
export const CANCELLED = '(cancelled)';
