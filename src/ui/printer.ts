// The one place that writes to the terminal. stdout carries data only; status lines, notices and
// prompts go to stderr, on a TTY only, muted by --quiet; errors always go to stderr. What reaches a
// terminal passes terminal-safe.ts (no control character from the service); a pipe gets the bytes.
import type { ChalkInstance } from 'chalk';
import { maskUrls } from './mask.js';
import { TerminalSafeStream, jsonForTerminal, ours, terminalSafe, toTerminal, unmark } from './terminal-safe.js';

export interface OutStream {
  write(chunk: string): boolean;
  isTTY?: boolean;
  columns?: number;
  rows?: number;
  /** true while the stream holds more than it wants (a pipe read slower than it is written): wait for 'drain' */
  writableNeedDrain?: boolean;
  once?(event: 'drain' | 'close', listener: () => void): unknown;
  off?(event: 'drain' | 'close', listener: () => void): unknown;
}

export interface PrinterOptions {
  json: boolean;
  quiet: boolean;
  /** false with --no-color */
  color: boolean;
  env: NodeJS.ProcessEnv;
}

/**
 * The terminal's width when it is one a layout can use; undefined for 0 (a pty nobody sized, as
 * under `script`), a missing or absurd value. Every use of the width goes through here.
 */
export function usableColumns(stream: Pick<OutStream, 'columns'>): number | undefined {
  const c = stream.columns;
  return typeof c === 'number' && Number.isInteger(c) && c >= 10 && c <= 2000 ? c : undefined;
}

export function colourAllowed(stream: OutStream, opts: PrinterOptions): boolean {
  if (!opts.color || 'NO_COLOR' in opts.env || opts.env.TERM === 'dumb') return false;
  if (opts.env.FORCE_COLOR && opts.env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true;
}

/** A styler that leaves text as it is, at any depth of chaining (`plain.red.bold('x') === 'x'`). */
export const plain: ChalkInstance = new Proxy(((text: unknown) => String(text)) as unknown as ChalkInstance, {
  get: () => plain,
});

/** Creates the printer, loading chalk only when some stream will actually show colour. */
export async function createPrinter(stdout: OutStream, stderr: OutStream, options: PrinterOptions): Promise<Printer> {
  const outColour = colourAllowed(stdout, options);
  const errColour = colourAllowed(stderr, options);
  if (!outColour && !errColour) return new Printer(stdout, stderr, options, plain, plain);
  const { Chalk } = await import('../vendor/chalk.js');
  return new Printer(
    stdout,
    stderr,
    options,
    outColour ? marked(new Chalk({ level: 1 })) : plain,
    errColour ? marked(new Chalk({ level: 1 })) : plain,
  );
}

/**
 * A styler whose escapes are markers (terminal-safe.ts `ours`), at any depth of chaining. What it
 * styles may be the service's text: made safe first, so only the styler's own escapes become ours.
 */
function marked(chalk: ChalkInstance): ChalkInstance {
  // the target is a fresh arrow function: chalk's own properties are not configurable, so a proxy of
  // chalk itself could not answer them with wrapped stylers
  const call = chalk as unknown as (...args: unknown[]) => unknown;
  return new Proxy((() => undefined) as unknown as ChalkInstance, {
    apply: (_target, _self, args) => ours(String(call(...args.map((a) => terminalSafe(String(a)))))),
    get: (_target, prop) => {
      const value: unknown = Reflect.get(chalk, prop);
      return typeof value === 'function' ? marked(value as ChalkInstance) : value;
    },
  });
}

/** Writes to a stream: made safe for a terminal, or as it is (our markers undone) for a pipe. */
export function emit(stream: OutStream, text: string): void {
  stream.write(stream.isTTY ? toTerminal(text) : unmark(text));
}

/** JSON text and a line end; on a terminal escaped, not made visible: the same JSON a parser would get. */
function writeJson(stream: OutStream, json: string): void {
  const text = json + '\n';
  stream.write(stream.isTTY ? jsonForTerminal(text) : text);
}

export class Printer {
  constructor(
    private readonly stdout: OutStream,
    private readonly stderr: OutStream,
    readonly options: PrinterOptions,
    /** colours for stdout (plain when off) */
    readonly out: ChalkInstance = plain,
    /** colours for stderr */
    readonly err: ChalkInstance = plain,
  ) {}

  /** whether stderr shows colour (for the spinner, which draws its own) */
  get stderrColour(): boolean {
    return this.err !== plain;
  }

  /** whether stdout shows colour (for rendered Markdown, which paints its own) */
  get stdoutColour(): boolean {
    return this.out !== plain;
  }

  get json(): boolean {
    return this.options.json;
  }

  /** Switches machine output on (a profile whose `output` is json), as if --json were given. */
  setJson(on: boolean): void {
    this.options.json = on;
  }

  get stdoutIsTTY(): boolean {
    return this.stdout.isTTY === true;
  }

  get stderrIsTTY(): boolean {
    return this.stderr.isTTY === true;
  }

  get columns(): number {
    return usableColumns(this.stdout) ?? 80;
  }

  /** The terminal's height (24 when it does not say). */
  get rows(): number {
    const r = this.stdout.rows;
    return typeof r === 'number' && Number.isInteger(r) && r >= 2 && r <= 1000 ? r : 24;
  }

  private readonly streamed = new TerminalSafeStream();

  /** Data: a line (or block) on stdout. */
  data(text: string): void {
    emit(this.stdout, text.endsWith('\n') ? text : text + '\n');
  }

  /** Data without a newline: streamed text (a CRLF split between two pieces is still one line end). */
  write(text: string): void {
    this.stdout.write(this.stdout.isTTY ? this.streamed.push(text) : unmark(text));
  }

  /** Whether stdout holds more than it wants: streamed text should wait for `drained()` before more comes. */
  get stdoutBacklogged(): boolean {
    return this.stdout.writableNeedDrain === true;
  }

  /** Resolves once stdout has taken what it held (at once when it holds little), has closed, or `stop` aborts. */
  drained(stop?: AbortSignal): Promise<void> {
    const s = this.stdout;
    if (!s.writableNeedDrain || !s.once || !s.off || stop?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        s.off!('drain', done);
        s.off!('close', done);
        stop?.removeEventListener('abort', done);
        resolve();
      };
      s.once!('drain', done);
      s.once!('close', done);
      stop?.addEventListener('abort', done, { once: true });
    });
  }

  /** Text already made safe by the caller (a table laid out with its colours): written as it is. */
  writeSafe(text: string): void {
    this.stdout.write(text);
  }

  /** The API's JSON, pretty, on stdout. */
  printJson(value: unknown): void {
    writeJson(this.stdout, JSON.stringify(value, null, 2));
  }

  /** One compact JSON line (a stream of answers, as `health --watch --json`), on stdout or stderr. */
  printJsonLine(value: unknown, to: 'stdout' | 'stderr' = 'stdout'): void {
    writeJson(to === 'stdout' ? this.stdout : this.stderr, JSON.stringify(value));
  }

  /** Whether progress and status messages are shown at all. */
  get chatty(): boolean {
    return this.stderr.isTTY === true && !this.options.quiet;
  }

  /** A status line for a person ("✓ Paused demo"): stderr, TTY only, not with --quiet. */
  status(text: string): void {
    if (this.chatty) emit(this.stderr, maskUrls(text) + '\n');
  }

  success(text: string): void {
    this.status(`${this.err.green('✓')} ${text}`);
  }

  /**
   * A change a log should record (where a key was kept): stderr unless --quiet, piped too; ✓ on a
   * terminal.
   */
  done(text: string): void {
    if (this.chatty) this.success(text);
    else if (!this.options.quiet) emit(this.stderr, `${maskUrls(text)}\n`);
  }

  /**
   * A warning about a surprising state (a key that still wins after logout): stderr unless --quiet,
   * also in CI logs, where that surprise costs most.
   */
  warn(text: string): void {
    if (!this.options.quiet) emit(this.stderr, `${this.err.yellow('!')} ${maskUrls(text)}\n`);
  }

  /** Text on stderr (the error reporter, the debug trace, tool lines), made safe on a terminal. */
  stderrWrite(text: string): void {
    emit(this.stderr, maskUrls(text));
  }
}
