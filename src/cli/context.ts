// The Context is a command's only door to the world: streams, environment, parsed globals, the
// printer, the config store, the OS keychain, the prompter, the editor, the spinner, the clock, signals and the API.
// The real world is wired in by `runChosen` in run.ts (the World; the connection to the service
// made on first use); a test builds one from buffers, a TTY switch, a fake clock and a scripted prompter
// (test/helpers/context.ts), and points `api` at an in-process embedded service.
import type { ConnectOptions, OpenedApi } from './commands/shared/opened-api.js';
import type { GlobalOptions } from './globals.js';
import type { ConfigStore } from '../config/file.js';
import type { Keychain } from '../config/keychain.js';
import type { OutStream, Printer } from '../ui/printer.js';
import type { Prompter } from '../ui/prompt.js';
import type { Editor } from '../ui/editor.js';
import type { Spinner, SpinnerOptions } from '../ui/spinner.js';
import { terminalSafe } from '../ui/terminal-safe.js';
import { BadAnswerError, NoMatchError } from '../core/errors.js';

export const DEFAULT_TIMEOUT_MS = 30_000;
/** chat and assistant replies take minutes on the hosted service (docs/api.md, Rules the client follows) */
export const LONG_TIMEOUT_MS = 600_000;

export interface InStream extends NodeJS.ReadableStream {
  isTTY?: boolean;
}

export interface IO {
  stdout: OutStream;
  stderr: OutStream;
  stdin: InStream;
}

/** A wait longer than this is announced on stderr (Context.sayIfSlow). */
const SLOW_WAIT_MS = 1_000;

export interface Clock {
  now(): number;
  /** resolves after `ms`; rejects with InterruptedError when `signal` aborts */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface Signals {
  /** calls `handler` on the next Ctrl-C instead of the default exit; returns a function that stops listening */
  onInterrupt(handler: () => void): () => void;
  /** calls `handler` when the process is asked to stop (SIGTERM); returns a function that stops listening */
  onTerminate(handler: () => void): () => void;
  /**
   * calls `handler` when the terminal goes away (SIGHUP); only for what holds the terminal (the REPL):
   * a listener would undo `nohup`
   */
  onHangup(handler: () => void): () => void;
  /**
   * calls `handler` on Ctrl-C, then, if nothing else listens, ends the process as Ctrl-C would have
   * (by the signal: a shell stops the rest of its line): for what must be tidied whoever handles it
   */
  onInterruptTidy(handler: () => void): () => void;
}

interface SpinnerEntry {
  label: string;
  options: Parameters<StartSpinner>[1];
  handle: Spinner;
}

export type StartSpinner = (
  label: string,
  options: Omit<SpinnerOptions, 'colour' | 'enabled'> & { enabled?: boolean },
) => Spinner;

/** What a Context is made of; anything left out gets the real thing. */
export interface World {
  env: NodeJS.ProcessEnv;
  io: IO;
  globals: GlobalOptions;
  printer: Printer;
  config: ConfigStore;
  /** the OS keychain, where a profile's key may be kept */
  keychain: Keychain;
  prompter: Prompter;
  editor: Editor;
  clock: Clock;
  signals: Signals;
  spinner: StartSpinner;
  /** connects (or starts the embedded service) on first use */
  openApi: (ctx: Context, options?: ConnectOptions) => Promise<OpenedApi>;
}

export class Context {
  readonly env: NodeJS.ProcessEnv;
  readonly io: IO;
  readonly globals: GlobalOptions;
  readonly printer: Printer;
  readonly config: ConfigStore;
  readonly keychain: Keychain;
  readonly prompter: Prompter;
  readonly editor: Editor;
  readonly clock: Clock;
  readonly signals: Signals;
  private readonly startSpinner: StartSpinner;
  private readonly openApi: World['openApi'];
  private opened: Promise<OpenedApi> | undefined;

  constructor(world: World) {
    ({
      env: this.env,
      io: this.io,
      globals: this.globals,
      printer: this.printer,
      config: this.config,
      keychain: this.keychain,
      prompter: this.prompter,
      editor: this.editor,
      clock: this.clock,
      signals: this.signals,
    } = world);
    this.startSpinner = world.spinner;
    this.openApi = world.openApi;
  }

  /** The request time-out: --timeout, else 30 s, or 600 s for the long calls of chat and the assistant. */
  timeoutMs(kind: 'default' | 'long' = 'default'): number {
    if (this.globals.timeout !== undefined) return this.globals.timeout * 1000;
    return kind === 'long' ? LONG_TIMEOUT_MS : DEFAULT_TIMEOUT_MS;
  }

  /**
   * The API client, connecting (or starting the embedded service) on first use; `options` count on that first use only.
   */
  api(options?: ConnectOptions): Promise<OpenedApi> {
    this.opened ??= this.openApi(this, options).then((o) => (this.connected = o));
    return this.opened;
  }

  private connected: OpenedApi | undefined;

  /** A REPL's line is a command of its own: what the client spends on waits starts again. */
  startTurn(): void {
    this.connected?.client.startCommand();
  }

  /** A failure in the words that fit it: a 500 of the embedded service says what went wrong in it. */
  explainFailure(err: unknown): unknown {
    // no agent of that name: perhaps the one a listing had to leave out
    if (err instanceof NoMatchError) return this.leftOut() ?? err;
    return this.connected?.embedded?.explain(err) ?? err;
  }

  /** A record the service could not read and left out of a list (its error), if any. */
  leftOut(): Error | undefined {
    const embedded = this.connected?.embedded?.leftOut();
    if (embedded || this.leftOutByService === 0) return embedded;
    const n = this.leftOutByService;
    return new BadAnswerError(
      `the service left out ${n} record${n === 1 ? '' : 's'} it cannot read`,
      'its log names them; the list shown lacks them',
    );
  }

  private leftOutByService = 0;

  /** A list answer said (LEFT_OUT_HEADER) that the service left records out of it. */
  serviceLeftOut(count: number): void {
    this.leftOutByService = Math.max(this.leftOutByService, count);
  }

  /**
   * For what needs every record (a list, --all, a fleet's plan or export): a record the embedded
   * service left out is the command's failure (exit 2, naming it), thrown here.
   */
  requireEveryRecord(): void {
    const left = this.leftOut();
    if (left) throw left;
  }

  /** The spinners asked for, the one on screen last (a countdown inside a wait). */
  private readonly spinners: SpinnerEntry[] = [];

  /**
   * A spinner on stderr, only where a person watches (a TTY, no --quiet). One line holds one: a
   * plain wait inside another is said by the one on screen; a countdown (`text`) takes the line,
   * and the wait it interrupted comes back after it, its seconds still counting.
   */
  spinner(label: string, options: Parameters<StartSpinner>[1] = {}): Spinner {
    const under = this.spinners.at(-1);
    if (under && !options.text) return { stop() {} };
    under?.handle.stop();
    // Ctrl-C while a spinner turns and no command listens (a request on its way): the spinner's line
    // is erased before the process ends, not left on the screen
    if (this.spinners.length === 0) this.stopTidying = this.signals.onInterruptTidy(() => this.stopSpinners());
    const entry: SpinnerEntry = {
      label,
      options: { ...options, startedAt: options.startedAt ?? Date.now() },
      handle: { stop() {} },
    };
    entry.handle = this.drawSpinner(entry);
    this.spinners.push(entry);
    let stopped = false;
    return {
      stop: () => {
        if (stopped) return;
        stopped = true;
        entry.handle.stop();
        const at = this.spinners.indexOf(entry);
        this.spinners.splice(at, 1);
        if (this.spinners.length === 0) this.stopTidying?.();
        if (under && this.spinners.at(-1) === under && at === this.spinners.length) {
          under.handle = this.drawSpinner({ ...under, options: { ...under.options, delayMs: 0 } });
        }
      },
    };
  }

  private stopTidying: (() => void) | undefined;

  /** Erases every spinner's line: a command ending at once (SIGTERM) says why on a clean line. */
  stopSpinners(): void {
    for (const entry of this.spinners) entry.handle.stop();
  }

  private drawSpinner(entry: SpinnerEntry): Spinner {
    // the spinner draws its label itself: an agent's name in it is made safe first
    return this.startSpinner(terminalSafe(entry.label), {
      ...entry.options,
      enabled: (entry.options.enabled ?? true) && this.printer.chatty,
    });
  }

  /** A person is there to answer: stdin and stderr are terminals and prompting is allowed. */
  get canPrompt(): boolean {
    return this.globals.input && this.io.stdin.isTTY === true && this.io.stderr.isTTY === true;
  }

  /** Closes connections and an in-process service, so the process can exit. */
  async dispose(): Promise<void> {
    if (!this.opened) return;
    const opened = await this.opened.catch(() => undefined);
    await opened?.client.close();
    // the service finishes a session write it began (its store may wait on another process's lock)
    if (opened?.embedded)
      await this.sayIfSlow(opened.embedded.close(), () =>
        this.printer.warn(
          'Waiting for the local service to finish a write before exiting (Ctrl-C quits now, without it)',
        ),
      );
  }

  /** `work`; if it is still under way after SLOW_WAIT_MS, `say()` once (a wait worth announcing, also in a pipe). */
  async sayIfSlow<T>(work: Promise<T>, say: () => void): Promise<T> {
    let over = false;
    const stop = new AbortController();
    void this.clock.sleep(SLOW_WAIT_MS, stop.signal).then(
      () => over || say(),
      () => undefined,
    );
    try {
      return await work;
    } finally {
      over = true;
      stop.abort();
    }
  }
}
