// The one place that writes to the terminal. stdout carries data only; status lines, notices and
// prompts go to stderr, on a TTY only, muted by --quiet; errors always go to stderr.
import { Chalk, type ChalkInstance } from 'chalk';

export interface OutStream {
  write(chunk: string): boolean;
  isTTY?: boolean;
  columns?: number;
}

export interface PrinterOptions {
  json: boolean;
  quiet: boolean;
  /** false with --no-color */
  color: boolean;
  env: NodeJS.ProcessEnv;
}

function colourAllowed(stream: OutStream, opts: PrinterOptions): boolean {
  if (!opts.color || 'NO_COLOR' in opts.env || opts.env.TERM === 'dumb') return false;
  if (opts.env.FORCE_COLOR && opts.env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true;
}

export class Printer {
  /** colours for stdout (level 0 when off) */
  readonly out: ChalkInstance;
  /** colours for stderr */
  readonly err: ChalkInstance;

  constructor(
    private readonly stdout: OutStream,
    private readonly stderr: OutStream,
    readonly options: PrinterOptions,
  ) {
    this.out = new Chalk({ level: colourAllowed(stdout, options) ? 1 : 0 });
    this.err = new Chalk({ level: colourAllowed(stderr, options) ? 1 : 0 });
  }

  get json(): boolean {
    return this.options.json;
  }

  get stdoutIsTTY(): boolean {
    return this.stdout.isTTY === true;
  }

  get stderrIsTTY(): boolean {
    return this.stderr.isTTY === true;
  }

  get columns(): number {
    return this.stdout.columns ?? 80;
  }

  /** Data: a line (or block) on stdout. */
  data(text: string): void {
    this.stdout.write(text.endsWith('\n') ? text : text + '\n');
  }

  /** Data without a newline: streamed text. */
  write(text: string): void {
    this.stdout.write(text);
  }

  /** The API's JSON, pretty, on stdout. */
  printJson(value: unknown): void {
    this.stdout.write(JSON.stringify(value, null, 2) + '\n');
  }

  /** Whether progress and status messages are shown at all. */
  get chatty(): boolean {
    return this.stderr.isTTY === true && !this.options.quiet;
  }

  /** A status line for a person ("✓ Paused demo"): stderr, TTY only, not with --quiet. */
  status(text: string): void {
    if (this.chatty) this.stderr.write(text + '\n');
  }

  success(text: string): void {
    this.status(`${this.err.green('✓')} ${text}`);
  }

  /** A warning worth seeing in logs too: stderr unless --quiet. */
  warn(text: string): void {
    if (!this.options.quiet) this.stderr.write(`${this.err.yellow('!')} ${text}\n`);
  }

  /** Raw text on stderr (used by the error reporter and the debug trace). */
  stderrWrite(text: string): void {
    this.stderr.write(text);
  }
}
