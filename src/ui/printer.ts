// The one place that writes to the terminal. stdout carries data only; status lines, notices and
// prompts go to stderr, on a TTY only, muted by --quiet; errors always go to stderr.
import type { ChalkInstance } from 'chalk';

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

export function colourAllowed(stream: OutStream, opts: PrinterOptions): boolean {
  if (!opts.color || 'NO_COLOR' in opts.env || opts.env.TERM === 'dumb') return false;
  if (opts.env.FORCE_COLOR && opts.env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true;
}

/** A styler that leaves text as it is, at any depth of chaining (`plain.red.bold('x') === 'x'`). */
const plain: ChalkInstance = new Proxy(((text: unknown) => String(text)) as unknown as ChalkInstance, { get: () => plain });

/** Creates the printer, loading chalk only when some stream will actually show colour. */
export async function createPrinter(stdout: OutStream, stderr: OutStream, options: PrinterOptions): Promise<Printer> {
  const outColour = colourAllowed(stdout, options);
  const errColour = colourAllowed(stderr, options);
  if (!outColour && !errColour) return new Printer(stdout, stderr, options, plain, plain);
  const { Chalk } = await import('../vendor/chalk.js');
  return new Printer(stdout, stderr, options, outColour ? new Chalk({ level: 1 }) : plain, errColour ? new Chalk({ level: 1 }) : plain);
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
    return this.stdout.columns || 80; // some ptys report 0
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

  /**
   * A warning about a surprising state (a key that still wins after logout): stderr unless --quiet,
   * also in CI logs, where that surprise costs most.
   */
  warn(text: string): void {
    if (!this.options.quiet) this.stderr.write(`${this.err.yellow('!')} ${text}\n`);
  }

  /** Raw text on stderr (used by the error reporter and the debug trace). */
  stderrWrite(text: string): void {
    this.stderr.write(text);
  }
}
