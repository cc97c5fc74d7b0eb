// What a command may use: parsed globals, environment, streams and the printer. Commands never touch
// `process` directly, so tests can build a Context with buffers.
import type { GlobalOptions } from './globals.js';
import type { OpenedApi } from './connect.js';
import type { OutStream, Printer } from '../ui/printer.js';

export const DEFAULT_TIMEOUT_MS = 30_000;
/** chat and assistant replies take minutes on the hosted service (contract §5) */
export const LONG_TIMEOUT_MS = 600_000;

export interface InStream extends NodeJS.ReadableStream {
  isTTY?: boolean;
}

export interface IO {
  stdout: OutStream;
  stderr: OutStream;
  stdin: InStream;
}

export class Context {
  constructor(
    readonly globals: GlobalOptions,
    readonly env: NodeJS.ProcessEnv,
    readonly io: IO,
    readonly printer: Printer,
  ) {}

  private opened: Promise<OpenedApi> | undefined;

  /** The request time-out: --timeout, else 30 s, or 600 s for the long calls of chat and the assistant. */
  timeoutMs(kind: 'default' | 'long' = 'default'): number {
    if (this.globals.timeout !== undefined) return this.globals.timeout * 1000;
    return kind === 'long' ? LONG_TIMEOUT_MS : DEFAULT_TIMEOUT_MS;
  }

  /** The API client, connecting (or starting the embedded service) on first use. */
  async api(): Promise<OpenedApi> {
    this.opened ??= import('./connect.js').then(({ openApi }) =>
      openApi({ globals: this.globals, env: this.env, printer: this.printer, timeoutMs: this.timeoutMs() }),
    );
    return this.opened;
  }

  /** Closes connections and an in-process service, so the process can exit. */
  async dispose(): Promise<void> {
    if (!this.opened) return;
    const opened = await this.opened.catch(() => undefined);
    await opened?.client.close();
    await opened?.embedded?.close();
  }

  /**
   * Calls `handler` on the next Ctrl-C (SIGINT) instead of the default exit, so a command can stop
   * cleanly and return 130. Returns a function that stops listening. A second Ctrl-C exits at once.
   */
  onInterrupt(handler: () => void): () => void {
    process.once('SIGINT', handler);
    return () => {
      process.removeListener('SIGINT', handler);
    };
  }

  /** A person is there to answer: stdin and stderr are terminals and prompting is allowed. */
  get canPrompt(): boolean {
    return this.globals.input && this.io.stdin.isTTY === true && this.io.stderr.isTTY === true;
  }
}
