// The interactive loop behind `chat <agent>` and `assistant` (STYLE 10, after llm's `_run_chat`). It
// knows nothing of HTTP: it gets a SendFn, a renderer that prints a reply's pieces on stdout as they
// arrive, and a table of slash commands. readline draws the prompt and echoes typing on stderr, and is
// muted while a reply streams so keys typed meanwhile cannot break into the reply's text.
import { EventEmitter } from 'node:events';
import type readline from 'node:readline';
import { notContinued } from '../chat/sessions.js';
import type { ReplyEvent, SendFn } from '../chat/types.js';
import type { InStream } from '../context.js';
import { EXIT } from '../exit-codes.js';
import { reportError } from '../exit-codes.js';
import type { OutStream, Printer } from '../../ui/printer.js';
import { HISTORY_SIZE, loadHistory, saveHistory } from './history.js';

/** What a slash command may use. */
export interface ReplSession {
  /** the conversation the next message continues; undefined: the next message starts a new one */
  sessionId: string | undefined;
  readonly printer: Printer;
  /** aborted by Ctrl-C while the command runs */
  readonly signal: AbortSignal;
  /** a line for the person at the terminal (stderr) */
  note(text: string): void;
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
  /** lines typed are kept here across runs (see history.ts); none when omitted */
  historyFile?: string;
  historySize?: number;
  /** one line shown at the start */
  intro?: string;
  /** makes a failed turn's error more helpful (a paused agent → a `resume` hint) */
  explainError?: (err: unknown) => unknown;
  debug?: boolean;
}

export interface ReplyHooks {
  onFirstText(): void;
  onSession(sessionId: string): void;
}

export type RenderReply = (events: AsyncIterable<ReplyEvent>, hooks: ReplyHooks) => Promise<unknown>;
export type StartWaiting = () => { stop(): void };

export const LEAVE_HINT = 'Press Ctrl-C again or Ctrl-D to leave';
export const CANCELLED = '(cancelled)';

type Input = { kind: 'line'; text: string; unseen: boolean } | { kind: 'eof' } | { kind: 'leave' };

/** Lines (and the end) from readline, waited for one at a time. */
class InputQueue {
  private readonly items: Input[] = [];
  private waiter: ((input: Input) => void) | undefined;

  push(input: Input): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    if (waiter) waiter(input);
    else this.items.push(input);
  }

  shift(): Input | undefined {
    return this.items.shift();
  }

  next(): Promise<Input> {
    const queued = this.items.shift();
    return queued ? Promise.resolve(queued) : new Promise((resolve) => (this.waiter = resolve));
  }
}

/**
 * readline's output: stderr, muted while a reply or a command runs, so keys typed meanwhile (kept
 * by readline for the next prompt) cannot break into the streamed text.
 */
class PromptOutput extends EventEmitter {
  muted = false;
  private readonly onResize = () => this.emit('resize');

  constructor(private readonly target: OutStream) {
    super();
    (target as Partial<EventEmitter>).on?.('resize', this.onResize);
  }

  get isTTY(): boolean {
    return this.target.isTTY === true;
  }

  get columns(): number | undefined {
    return this.target.columns;
  }

  write(chunk: string | Uint8Array, encoding?: unknown, callback?: unknown): boolean {
    if (!this.muted) this.target.write(String(chunk));
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(done as () => void);
    return true;
  }

  /** Unmuted text that readline does not know about (its idea of the cursor stays right). */
  raw(text: string): void {
    this.target.write(text);
  }

  dispose(): void {
    (this.target as Partial<EventEmitter>).removeListener?.('resize', this.onResize);
  }
}

/** Iterates `source` until `signal` aborts, then stops at once even if the source is still waiting. */
async function* abortable<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  // one pending step at a time, rejected by an abort (no reaction piles up on a long reply)
  let rejectStep: ((reason: unknown) => void) | undefined;
  const onAbort = () => rejectStep?.(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  let finished = false;
  try {
    for (;;) {
      if (signal.aborted) throw signal.reason;
      const result = await new Promise<IteratorResult<T>>((resolve, reject) => {
        rejectStep = reject;
        it.next().then(resolve, reject);
      });
      rejectStep = undefined;
      if (result.done) {
        finished = true;
        return;
      }
      yield result.value;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    // Tell the source to stop (closes the request); do not wait for it.
    if (!finished) void Promise.resolve(it.return?.()).catch(() => undefined);
  }
}

/** Lines typed so far of a message that spans several (`\` at the end, or a `"""` block). */
interface Pending {
  lines: string[];
  block: boolean;
}

const BLOCK = '"""';

class Repl implements ReplSession {
  sessionId: string | undefined;
  readonly printer: Printer;
  private readonly queue = new InputQueue();
  private readonly out: PromptOutput;
  private readonly commands = new Map<string, SlashCommand>();
  private readonly table: SlashCommand[];
  private rl!: readline.Interface;
  private work: AbortController | undefined;
  private pending: Pending | undefined;
  private armedToLeave = false;
  private closed = false;

  constructor(private readonly o: ReplOptions) {
    this.printer = o.printer;
    this.sessionId = o.sessionId;
    this.out = new PromptOutput(o.output);
    this.table = [...builtinCommands(), ...(o.commands ?? [])];
    for (const c of this.table) for (const n of [c.name, ...(c.aliases ?? [])]) this.commands.set(n, c);
  }

  get signal(): AbortSignal {
    return this.work?.signal ?? new AbortController().signal;
  }

  get terminal(): boolean {
    return this.o.input.isTTY === true;
  }

  get commandTable(): readonly SlashCommand[] {
    return this.table;
  }

  note(text: string): void {
    this.out.raw(text + '\n');
  }

  async run(): Promise<number> {
    this.open();
    try {
      if (this.o.intro) this.note(this.printer.err.dim(this.o.intro));
      for (;;) {
        const input = this.queue.shift() ?? (this.showPrompt(), await this.queue.next());
        if (input.kind !== 'line') {
          if (input.kind === 'eof' && this.terminal) this.out.raw('\n'); // Ctrl-D leaves the cursor after the prompt
          return EXIT.ok;
        }
        this.armedToLeave = false;
        if (input.unseen) this.out.raw(this.promptText() + input.text + '\n');
        const message = this.collect(input.text);
        if (message === undefined) continue;
        if ((await this.handle(message)) === 'exit') return EXIT.ok;
      }
    } finally {
      this.close();
    }
  }

  private open(): void {
    const size = this.o.historySize ?? HISTORY_SIZE;
    const history = this.o.historyFile ? loadHistory(this.o.historyFile, size) : [];
    // loaded here, not at the top: only the REPL needs it, and a static import costs every command
    this.rl = process.getBuiltinModule('node:readline').createInterface({
      input: this.o.input,
      output: this.out as unknown as NodeJS.WritableStream,
      terminal: this.terminal,
      history,
      historySize: size,
      removeHistoryDuplicates: true,
    });
    this.rl.on('line', (text) => this.queue.push({ kind: 'line', text, unseen: this.out.muted }));
    this.rl.on('close', () => this.onClose());
    this.rl.on('SIGINT', () => this.onInterrupt());
    this.rl.on('history', (lines: string[]) => this.saveHistory(lines));
  }

  private close(): void {
    this.rl.removeAllListeners('close');
    this.rl.close();
    this.out.dispose();
  }

  private saveHistory(lines: string[]): void {
    if (!this.o.historyFile) return;
    try {
      saveHistory(this.o.historyFile, lines, this.o.historySize ?? HISTORY_SIZE);
    } catch (err) {
      this.note(this.printer.err.yellow(`! could not save the history: ${(err as Error).message}`));
      this.o.historyFile = undefined; // once is enough
    }
  }

  private onClose(): void {
    this.closed = true;
    // Ctrl-D on a terminal leaves at once, even mid-reply; piped input ends after its last line.
    if (this.terminal) this.work?.abort();
    this.queue.push({ kind: 'eof' });
  }

  /** Ctrl-C: cancels running work, else drops the line being typed, else (twice) leaves. */
  private onInterrupt(): void {
    if (this.work) {
      this.work.abort();
      return;
    }
    if (this.rl.line !== '' || this.pending) {
      this.rl.write(null, { ctrl: true, name: 'e' });
      this.out.raw('^C\n');
      this.silently(() => this.rl.write(null, { ctrl: true, name: 'u' }));
      this.pending = undefined;
      this.armedToLeave = false;
      this.showPrompt();
      return;
    }
    if (this.armedToLeave) {
      this.out.raw('\n');
      this.queue.push({ kind: 'leave' });
      return;
    }
    this.armedToLeave = true;
    this.out.raw('\n' + this.printer.err.dim(`(${LEAVE_HINT})`) + '\n');
    this.showPrompt();
  }

  private silently(fn: () => void): void {
    const was = this.out.muted;
    this.out.muted = true;
    try {
      fn();
    } finally {
      this.out.muted = was;
    }
  }

  private promptText(): string {
    const e = this.printer.err;
    return this.pending ? e.dim('… ') : `${e.bold(this.o.label)}${e.dim('›')} `;
  }

  private showPrompt(): void {
    this.rl.setPrompt(this.promptText());
    this.rl.prompt(true);
  }

  /** Joins multi-line input; undefined while the message is not complete yet. */
  private collect(line: string): string | undefined {
    const p = this.pending;
    if (p?.block) {
      if (!line.trimEnd().endsWith(BLOCK)) {
        p.lines.push(line);
        return undefined;
      }
      const last = line.trimEnd().slice(0, -BLOCK.length);
      if (last !== '') p.lines.push(last);
      this.pending = undefined;
      return p.lines.join('\n');
    }
    if (line.endsWith('\\')) {
      (this.pending ??= { lines: [], block: false }).lines.push(line.slice(0, -1));
      return undefined;
    }
    if (p) {
      this.pending = undefined;
      return [...p.lines, line].join('\n');
    }
    const trimmed = line.trim();
    if (trimmed.startsWith(BLOCK)) {
      if (trimmed.length >= 2 * BLOCK.length && trimmed.endsWith(BLOCK)) return trimmed.slice(BLOCK.length, -BLOCK.length);
      const first = trimmed.slice(BLOCK.length);
      this.pending = { lines: first === '' ? [] : [first], block: true };
      return undefined;
    }
    return line;
  }

  private async handle(message: string): Promise<void | 'exit'> {
    const trimmed = message.trim();
    if (trimmed === '') return;
    if (trimmed.startsWith('/') && !trimmed.startsWith('//')) return this.command(trimmed.slice(1));
    // `//text` sends "/text"
    return this.busy((signal) => this.turn(trimmed.startsWith('//') ? message.replace('/', '') : message, signal));
  }

  private async command(line: string): Promise<void | 'exit'> {
    const [name = '', ...rest] = line.split(/\s+/);
    const cmd = this.commands.get(name.toLowerCase());
    if (!cmd) {
      this.note(`Unknown command /${name}: type /help to see the commands`);
      return;
    }
    return this.busy(() => cmd.run(rest.join(' ').trim(), this));
  }

  /** Runs a turn or a command with Ctrl-C wired to abort it; an error is reported and the loop goes on. */
  private async busy(task: (signal: AbortSignal) => Promise<void | 'exit'> | void | 'exit'): Promise<void | 'exit'> {
    const work = new AbortController();
    this.work = work;
    this.out.muted = this.terminal;
    try {
      return await task(work.signal);
    } catch (err) {
      if (work.signal.aborted) this.note(this.printer.err.dim(CANCELLED));
      else this.report(err);
    } finally {
      this.work = undefined;
      this.resumeTyping();
    }
  }

  /** Back from work: readline's line (typed meanwhile, unseen) is re-typed after the next prompt. */
  private resumeTyping(): void {
    if (this.closed) return;
    const typed = this.rl.line;
    if (typed !== '') {
      // still muted: readline empties its line and forgets the rows it thinks it drew
      this.rl.write(null, { ctrl: true, name: 'e' });
      this.rl.write(null, { ctrl: true, name: 'u' });
    }
    this.out.muted = false;
    if (typed !== '') {
      this.showPrompt();
      this.rl.write(typed);
    }
  }

  private report(err: unknown): void {
    const explained = this.o.explainError?.(err) ?? err;
    reportError(explained, { write: (s) => (this.out.raw(s), true) }, { json: false, debug: this.o.debug ?? false, colour: this.printer.err.red.bold });
  }

  private warnedNewSession = false;

  /** The session the service answered in; a different one than asked for is said once (contract §5). */
  private sessionNamed(id: string): void {
    if (this.sessionId && id !== this.sessionId && !this.warnedNewSession) {
      this.warnedNewSession = true;
      this.note(this.printer.err.yellow(`! ${notContinued(this.sessionId, id)}`));
    }
    this.sessionId = id;
  }

  private async turn(message: string, signal: AbortSignal): Promise<void> {
    const waiting = this.o.waiting?.();
    const events = abortable<ReplyEvent>(this.o.send(message, { sessionId: this.sessionId, signal }), signal);
    try {
      await this.o.render(events, {
        onFirstText: () => waiting?.stop(),
        onSession: (id) => this.sessionNamed(id),
      });
    } finally {
      waiting?.stop();
    }
  }
}

function builtinCommands(): SlashCommand[] {
  return [
    { name: 'help', aliases: ['?'], summary: 'show the commands and keys', run: (_arg, s) => showHelp(s as Repl) },
    {
      name: 'new',
      summary: 'start a new conversation',
      run: (_arg, s) => {
        s.sessionId = undefined;
        s.note('New session: the next message starts a fresh conversation.');
      },
    },
    {
      name: 'session',
      summary: 'show the id of this conversation',
      run: (_arg, s) => {
        if (s.sessionId) s.printer.data(s.sessionId);
        else s.note('No session yet: the next message starts one.');
      },
    },
    { name: 'exit', aliases: ['quit'], summary: 'leave (or Ctrl-D)', run: () => 'exit' },
  ];
}

function showHelp(repl: Repl): void {
  const rows = repl.commandTable.map((c) => [`/${c.name}${c.args ? ` ${c.args}` : ''}`, c.summary]);
  const width = Math.max(...rows.map(([left]) => left!.length));
  const lines = [
    'Commands:',
    ...rows.map(([left, right]) => `  ${left!.padEnd(width)}  ${right}`),
    '',
    'Keys and input:',
    '  end a line with \\ to continue on the next one, or put lines between """ and """',
    '  //text sends "/text"; arrow keys recall earlier lines',
    '  Ctrl-C cancels a reply (at an empty prompt, twice, leaves); Ctrl-D or /exit leaves',
  ];
  repl.printer.data(lines.join('\n'));
}

/** Runs the REPL until /exit, Ctrl-D or Ctrl-C twice; resolves to the exit code (0). */
export function runRepl(options: ReplOptions): Promise<number> {
  return new Repl(options).run();
}
