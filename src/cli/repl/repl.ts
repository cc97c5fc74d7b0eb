// The interactive loop behind `chat <agent>` and `assistant` (after llm's `_run_chat`). It
// knows nothing of HTTP: it gets a SendFn, a renderer that prints a reply's pieces on stdout as they
// arrive, and a table of slash commands. readline draws the prompt and echoes typing on stderr, and is
// muted while a reply streams so keys typed meanwhile cannot break into the reply's text.
import type readline from 'node:readline';
import { InterruptedError, TerminatedError } from '../../core/errors.js';
import { didYouMean } from '../../core/suggest.js';
import { notContinued } from '../chat/sessions.js';
import type { ReplyEvent } from '../chat/types.js';
import { EXIT, reportError } from '../exit-codes.js';
import type { Printer } from '../../ui/printer.js';
import { endIsHangUp } from '../../ui/terminal-gone.js';
import { toTerminal, unmark } from '../../ui/terminal-safe.js';
import { wrapWords } from '../../ui/format.js';
import { builtinCommands } from './builtins.js';
import { completeSlash } from './complete-slash.js';
import { HISTORY_SIZE, loadHistory, saveHistory } from './history.js';
import { BRACKETED_PASTE_OFF, BRACKETED_PASTE_ON } from './input.js';
import { HISTORY_BREAK, InputQueue, MultilineInput, PromptOutput, abortable, type Message } from './input.js';

/** how long the reply's reader gets to print before the prompt is drawn (stdout piped, prompt on a terminal) */
const PIPE_SETTLE_MS = 50;
import { CANCELLED, LEAVE_HINT, type ReplOptions, type ReplSession, type SlashCommand } from './types.js';

export * from './types.js';

class Repl implements ReplSession {
  sessionId: string | undefined;
  readonly printer: Printer;
  private readonly queue = new InputQueue();
  private readonly out: PromptOutput;
  private readonly commands = new Map<string, SlashCommand>();
  private readonly table: SlashCommand[];
  private rl!: readline.Interface;
  private work: AbortController | undefined;
  private readonly multiline = new MultilineInput();
  private armedToLeave = false;
  private closed = false;
  /** set by SIGTERM or SIGHUP: the REPL ends at once, then the command exits with it */
  private stopped: TerminatedError | InterruptedError | undefined;
  private unlisten: Array<() => void> = [];

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
      // wrapped on words: the terminal would cut one at its edge
      if (this.o.intro)
        for (const line of wrapWords(this.o.intro, this.printer.columns - 1)) this.note(this.printer.err.dim(line));
      for (;;) {
        if (this.stopped) throw this.stopped; // before any line typed ahead is sent
        const input = this.queue.shift() ?? (this.showPrompt(), await this.queue.next());
        if (this.stopped) throw this.stopped;
        if (input.kind !== 'line') {
          if (input.kind === 'eof' && this.terminal) this.out.raw('\n'); // Ctrl-D leaves the cursor after the prompt
          return EXIT.ok;
        }
        this.armedToLeave = false;
        if (input.unseen && this.terminal) this.out.raw(this.promptText() + input.text + '\n');
        const message = this.multiline.add(input.text);
        if (message === undefined) continue;
        if (message.lines.length > 1) this.keepInHistory(message);
        if ((await this.handle(message.text)) === 'exit') return EXIT.ok;
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
      completer: (line: string, done: (err: Error | null, result: [string[], string]) => void) => {
        this.complete(line).then(
          (r) => done(null, r),
          () => done(null, [[], line]),
        );
      },
    });
    this.rl.on('line', (text) => {
      // lines of a paste are one message: held until the line the paste leaves open is entered
      if (this.pasting) this.multiline.hold(text);
      else this.queue.push({ kind: 'line', text, unseen: this.out.muted });
    });
    if (this.terminal) {
      this.o.input.on('keypress', this.onKeypress);
      this.o.input.on('end', this.onHangup);
      this.out.control(BRACKETED_PASTE_ON);
    }
    this.rl.on('close', () => this.onClose());
    this.rl.on('SIGINT', () => this.onInterrupt());
    this.rl.on('history', (lines: string[]) => this.saveHistory(lines));
    const signals = this.o.signals;
    // a SIGINT sent to the process (`kill -INT`; Ctrl-C at the keyboard is a key here, in raw mode)
    // ends the REPL as SIGTERM does, so the terminal is restored (exit 130)
    if (signals)
      this.unlisten = [
        signals.onTerminate(() => this.stop('SIGTERM')),
        signals.onHangup(() => this.stop('SIGHUP')),
        signals.onInterrupt(() => this.stop('SIGINT')),
      ];
  }

  /** SIGTERM, SIGHUP or SIGINT: any work is cancelled and the loop ends, so close() restores the terminal. */
  private stop(signal: 'SIGTERM' | 'SIGHUP' | 'SIGINT'): void {
    this.stopped ??= signal === 'SIGINT' ? new InterruptedError() : new TerminatedError(signal);
    this.work?.abort();
    this.queue.push({ kind: 'leave' });
  }

  private close(): void {
    for (const off of this.unlisten.splice(0)) off();
    this.o.input.removeListener('keypress', this.onKeypress);
    this.o.input.removeListener('end', this.onHangup);
    this.out.control(BRACKETED_PASTE_OFF);
    this.rl.removeAllListeners('close');
    this.rl.close();
    this.out.dispose();
  }

  /** Tab: slash command names, then what a command's own completion offers (skill names, say). */
  private complete(line: string): Promise<[string[], string]> {
    return completeSlash(line, this.commands);
  }

  private pasting = false;
  /** The terminal marks a paste (bracketed paste mode): its lines are held as one message. */
  private readonly onKeypress = (_s: unknown, key: { name?: string } | undefined) => {
    if (key?.name === 'paste-start') this.pasting = true;
    else if (key?.name === 'paste-end') {
      this.pasting = false;
      if (this.multiline.active) this.showPrompt(); // the continuation prompt, keeping the line being typed
    }
  };

  /**
   * A message of several lines is one history entry instead of its typed lines: the message as sent
   * (its breaks shown as ⏎, without the `\` or `"""` that joined them), recalled whole.
   */
  private keepInHistory({ lines, text }: Message): void {
    const history = (this.rl as unknown as { history: string[] }).history;
    if (!Array.isArray(history)) return;
    for (const line of lines) {
      const at = history.indexOf(line);
      if (at !== -1 && at < lines.length + 1) history.splice(at, 1);
    }
    history.unshift(text.split('\n').join(HISTORY_BREAK));
    this.saveHistory(history);
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

  /** The end of a terminal's input, its hang-up perhaps before the SIGHUP (`endIsHangUp`): as SIGHUP. */
  private readonly onHangup = () => {
    if (endIsHangUp(this.o.input)) this.stop('SIGHUP');
  };

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
    if (this.rl.line !== '' || this.multiline.active) {
      this.rl.write(null, { ctrl: true, name: 'e' });
      this.out.raw('^C\n');
      this.silently(() => this.rl.write(null, { ctrl: true, name: 'u' }));
      this.multiline.reset();
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
    return this.multiline.active ? e.dim('… ') : `${e.bold(this.o.label)}${e.dim('›')} `;
  }

  private showPrompt(): void {
    if (!this.terminal) return; // input piped: nobody types at a prompt, and a log would end with half a line
    // readline writes the prompt itself: the agent's name made safe, our colours as real escapes
    this.rl.setPrompt(this.o.output.isTTY ? toTerminal(this.promptText()) : unmark(this.promptText()));
    this.rl.prompt(true);
  }

  private async handle(message: string): Promise<void | 'exit'> {
    const trimmed = message.trim();
    if (trimmed === '') return;
    this.o.onLine?.();
    if (trimmed.startsWith('/') && !trimmed.startsWith('//')) return this.command(trimmed.slice(1));
    // `//text` sends "/text"
    return this.busy((signal) => this.turn(trimmed.startsWith('//') ? message.replace('/', '') : message, signal));
  }

  private async command(line: string): Promise<void | 'exit'> {
    const [name = '', ...rest] = line.split(/\s+/);
    const cmd = this.commands.get(name.toLowerCase());
    if (!cmd) {
      // the CLI's one-line form: what is wrong, then the nearest command in parentheses
      const guess = didYouMean(name, [...this.commands.keys()], (c) => `'/${c}'`);
      this.note(`Unknown command '/${name}'${guess ? ` (${guess})` : ''}; /help lists the commands`);
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
    reportError(explained, this.out.stream, {
      json: false,
      debug: this.o.debug ?? false,
      colour: this.printer.err.red.bold,
    });
  }

  private warnedNewSession = false;
  /** said once the reply is over: written while it streams, it would split the reply's line */
  private afterReply: string | undefined;

  /** The session the service answered in; a different one than asked for is said once. */
  private sessionNamed(id: string): void {
    if (this.sessionId && id !== this.sessionId && !this.warnedNewSession) {
      this.warnedNewSession = true;
      this.afterReply = this.printer.err.yellow(`! ${notContinued(this.sessionId, id)}`);
    }
    this.sessionId = id;
    this.o.onSession?.(id);
  }

  private async turn(message: string, signal: AbortSignal): Promise<void> {
    const waiting = this.o.waiting?.();
    const events = abortable<ReplyEvent>(this.o.send(message, { sessionId: this.sessionId, signal }), signal);
    try {
      await this.o.render(events, {
        message,
        onFirstText: () => waiting?.stop(),
        onSession: (id) => this.sessionNamed(id),
      });
    } finally {
      waiting?.stop();
      if (this.afterReply) this.note(this.afterReply);
      this.afterReply = undefined;
      // stdout piped (`| tee log`) but the prompt on the terminal: give the reader a moment to
      // print the reply's last line before readline redraws the prompt's line over it
      if (!this.printer.stdoutIsTTY && this.terminal) await new Promise((r) => setTimeout(r, PIPE_SETTLE_MS));
    }
  }
}

/** Runs the REPL until /exit, Ctrl-D or Ctrl-C twice; resolves to the exit code (0). */
export function runRepl(options: ReplOptions): Promise<number> {
  return new Repl(options).run();
}
