// What a command may use: parsed globals, environment, streams and the printer. Commands never touch
// `process` directly, so tests can build a Context with buffers.
import type { GlobalOptions } from './globals.js';
import { Printer, type OutStream } from '../ui/printer.js';

export interface InStream extends NodeJS.ReadableStream {
  isTTY?: boolean;
}

export interface IO {
  stdout: OutStream;
  stderr: OutStream;
  stdin: InStream;
}

export class Context {
  readonly printer: Printer;

  constructor(
    readonly globals: GlobalOptions,
    readonly env: NodeJS.ProcessEnv,
    readonly io: IO,
  ) {
    this.printer = new Printer(io.stdout, io.stderr, { json: globals.json, quiet: globals.quiet, color: globals.color, env });
  }

  /** A person is there to answer: stdin and stderr are terminals and prompting is allowed. */
  get canPrompt(): boolean {
    return this.globals.input && this.io.stdin.isTTY === true && this.io.stderr.isTTY === true;
  }
}
