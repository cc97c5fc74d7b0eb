// The commands layer's harness: a command line run in this process through the real parser, Context
// and exit-code map (src/cli/run.ts), with the world replaced by buffers and stand-ins: a TTY
// switch per stream, an in-memory config store, a scripted prompter, an editor function, a fake
// clock, Ctrl-C on demand, and an embedded service on loopback. What only a process or a real
// terminal shows stays in test/e2e.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ConfigData, ConfigStore } from '../../src/config/file.js';
import { SOURCES } from '../../src/api/money/types.js';
import { endpointVariable } from '../../src/cli/commands/shared/money.js';
import { EMBEDDED_KEY_PREFIX } from '../../src/contract.js';
import { InterruptedError } from '../../src/core/errors.js';
import {
  Context,
  type Clock,
  type InStream,
  type Signals,
  type StartSpinner,
  type World,
} from '../../src/cli/context.js';
import { toGlobals } from '../../src/cli/globals.js';
import { Printer, type OutStream } from '../../src/ui/printer.js';
import { run, type WorldOverrides } from '../../src/cli/run.js';
import type { Editor, EditorCommand } from '../../src/ui/editor.js';
import type { Prompter } from '../../src/ui/prompt.js';
import type { Spinner } from '../../src/ui/spinner.js';
import { MemoryKeychain } from './keychain.js';

/** Collects what a command writes; `isTTY` and `columns` are what the command sees. */
export class Capture {
  text = '';
  constructor(
    public isTTY = false,
    public columns?: number,
    /** told of every write as it happens (a test may react: press Ctrl-C at the first piece, say) */
    private readonly notify?: (chunk: string, all: string) => void,
  ) {}

  rows?: number;

  write(chunk: string): boolean {
    this.text += chunk;
    this.notify?.(chunk, this.text);
    return true;
  }
}

/** The config file, in memory (`data` may be inspected and set by the test). */
export class MemoryConfig implements ConfigStore {
  readonly path = '/virtual/superagent/config.json';
  writes = 0;
  constructor(
    public data: ConfigData = {},
    /** the keychain of the same machine: where `login` keeps the key that this file says is there */
    readonly keychain = new MemoryKeychain(),
  ) {}

  read(): ConfigData {
    return structuredClone(this.data);
  }

  async write(change: (data: ConfigData) => void): Promise<void> {
    const next = this.read();
    change(next);
    this.data = next;
    this.writes++;
  }
}

/** A clock whose sleeps return at once and are remembered (retry waits, watch intervals). */
export class FakeClock implements Clock {
  slept: number[] = [];
  constructor(private time = Date.parse('2026-11-22T12:00:00Z')) {}

  now(): number {
    return this.time;
  }

  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) throw new InterruptedError();
    this.slept.push(ms);
    this.time += ms;
    await Promise.resolve();
  }
}

/** Ctrl-C, pressed by the test. */
export class FakeSignals implements Signals {
  private handlers: Array<() => void> = [];
  private terminators: Array<() => void> = [];
  private hangups: Array<() => void> = [];
  private tidiers: Array<() => void> = [];

  onInterrupt(handler: () => void): () => void {
    this.handlers.push(handler);
    return () => void (this.handlers = this.handlers.filter((h) => h !== handler));
  }

  onTerminate(handler: () => void): () => void {
    this.terminators.push(handler);
    return () => void (this.terminators = this.terminators.filter((h) => h !== handler));
  }

  /** the terminal's own hang-up is tried on a real terminal (test/e2e/signals-terminal.test.ts) */
  onHangup(handler: () => void): () => void {
    this.hangups.push(handler);
    return () => void (this.hangups = this.hangups.filter((h) => h !== handler));
  }

  onInterruptTidy(handler: () => void): () => void {
    this.tidiers.push(handler);
    return () => void (this.tidiers = this.tidiers.filter((h) => h !== handler));
  }

  /** Ctrl-C; true when a command was listening */
  interrupt(): boolean {
    for (const tidy of [...this.tidiers]) tidy();
    const h = this.handlers.shift();
    h?.();
    return h !== undefined;
  }

  /** SIGTERM; true when a command was listening */
  terminate(): boolean {
    const h = this.terminators.shift();
    h?.();
    return h !== undefined;
  }

  /** SIGHUP; true when a command was listening */
  hangup(): boolean {
    const h = this.hangups.shift();
    h?.();
    return h !== undefined;
  }

  /** how many handlers wait for SIGHUP */
  get hangupListeners(): number {
    return this.hangups.length;
  }

  /** how many handlers wait for SIGTERM (a command that stopped listening leaves none behind) */
  get terminateListeners(): number {
    return this.terminators.length;
  }
}

export type Answer = string | boolean | Error;

/** Answers questions in order; a question nobody scripted fails the test. */
export class ScriptedPrompter implements Prompter {
  asked: string[] = [];
  constructor(private readonly answers: Answer[] = []) {}

  private next(message: string): Answer {
    this.asked.push(message);
    if (this.answers.length === 0) throw new Error(`unexpected prompt: ${message}`);
    const answer = this.answers.shift()!;
    if (answer instanceof Error) throw answer;
    return answer;
  }

  async text(
    message: string,
    opts: { default?: string; validate?: (v: string) => true | string } = {},
  ): Promise<string> {
    const a = String(this.next(message));
    const value = a === '' && opts.default !== undefined ? opts.default : a;
    const ok = opts.validate?.(value) ?? true;
    if (ok !== true) throw new Error(`the prompt '${message}' refused '${value}': ${ok}`);
    return value;
  }

  async secret(message: string): Promise<string> {
    return String(this.next(message));
  }

  async choice<T extends string>(message: string, choices: readonly T[], def?: T): Promise<T> {
    const a = String(this.next(message));
    const value = (a === '' ? def : a) as T;
    if (!choices.includes(value)) throw new Error(`'${value}' is not a choice of '${message}'`);
    return value;
  }

  async confirm(message: string): Promise<boolean> {
    const a = this.next(message);
    return a === true || a === 'y' || a === 'yes';
  }
}

/**
 * An editor that is a function of the file (it may write it,
 * throw, or leave it); `stop` aborts when it is told to stop.
 */
export function fakeEditor(
  edit: (file: string, stop?: AbortSignal) => void | Promise<void>,
  line = 'fake-editor',
): Editor {
  const command: EditorCommand = { source: 'EDITOR', line, argv: [line] };
  return { command: () => command, open: async (file, stop) => edit(file, stop) };
}

export interface TerminalSwitch {
  stdin?: boolean;
  stdout?: boolean;
  stderr?: boolean;
  columns?: number;
  /** the terminal's height, when a test needs one (undefined: not reported) */
  rows?: number;
}

export interface RunOptions {
  /** true: stdin, stdout and stderr are terminals; or per stream */
  tty?: boolean | TerminalSwitch;
  /** what stdin holds (a pipe unless tty.stdin); a Readable is used as stdin as it is */
  input?: string | Buffer | AsyncIterable<Buffer>;
  env?: Record<string, string | undefined>;
  config?: MemoryConfig;
  answers?: Answer[];
  editor?: Editor;
  clock?: Clock;
  signals?: FakeSignals;
  /** more stand-ins (a spinner that records, say) */
  world?: WorldOverrides;
  /** called on every write to stdout, with everything written so far */
  onStdout?: (chunk: string, all: string) => void;
  /** the same for stderr */
  onStderr?: (chunk: string, all: string) => void;
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** the questions the command asked */
  asked: string[];
}

export interface Target {
  url: string;
  key: string;
}

function stdinFrom(input: RunOptions['input'], isTTY: boolean): InStream {
  const chunks =
    input === undefined
      ? []
      : typeof input === 'string'
        ? [Buffer.from(input)]
        : Buffer.isBuffer(input)
          ? [input]
          : input;
  // a Readable is the stdin itself (a test may end it late, or see whether it was let go)
  const stream = (chunks instanceof Readable ? chunks : Readable.from(chunks)) as unknown as InStream;
  stream.isTTY = isTTY;
  return stream;
}

const NO_SPINNER = (): Spinner => ({ stop() {} });

/**
 * Every chain source switched off: a service that is not the embedded one (a mock of the hosted one)
 * would have the money commands read the public endpoints, and nothing may leave loopback.
 */
export const SOURCES_OFF = Object.fromEntries(SOURCES.map((source) => [endpointVariable(source), 'off']));

/** Environment with nothing of the developer's own setup, pointed at `target` when given. */
export function testEnv(target: Target | undefined, env: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const simulated = target?.key.startsWith(EMBEDDED_KEY_PREFIX) === true;
  return {
    PATH: process.env.PATH,
    HOME: '/nonexistent-home',
    TERM: 'dumb',
    SUPERAGENT_DATA_DIR: '/nonexistent-data-dir',
    ...(target ? { SUPERAGENT_BASE_URL: target.url, SUPERAGENT_API_KEY: target.key } : {}),
    ...(simulated ? {} : SOURCES_OFF),
    ...env,
  };
}

/** Runs one command line (`'skills enable demo hyperliquid'` or its words) in this process. */
export async function runLine(
  target: Target | undefined,
  argv: string | string[],
  o: RunOptions = {},
): Promise<CliRun> {
  const words = typeof argv === 'string' ? argv.split(' ').filter(Boolean) : argv;
  const tty: TerminalSwitch = o.tty === true ? { stdin: true, stdout: true, stderr: true } : o.tty || {};
  const stdout = new Capture(tty.stdout === true, tty.columns ?? (tty.stdout ? 100 : undefined), o.onStdout);
  stdout.rows = tty.rows;
  const stderr = new Capture(tty.stderr === true, tty.columns ?? (tty.stderr ? 100 : undefined), o.onStderr);
  const prompter = new ScriptedPrompter([...(o.answers ?? [])]);
  const config = o.config ?? new MemoryConfig();
  // a cache dir of the run's own (launch and apply keep a lock there), unless the test shares one between runs
  const cache =
    o.env && 'XDG_CACHE_HOME' in o.env ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-cache-'));
  try {
    const code = await run(
      words,
      testEnv(target, { XDG_CACHE_HOME: cache, ...o.env }),
      { stdout, stderr, stdin: stdinFrom(o.input, tty.stdin === true) },
      {
        config,
        keychain: config.keychain,
        prompter,
        editor:
          o.editor ??
          fakeEditor(() => {
            throw new Error('the editor was opened, and the test gave none');
          }),
        clock: o.clock,
        signals: o.signals ?? new FakeSignals(),
        spinner: NO_SPINNER,
        ...o.world,
      },
    );
    return { code, stdout: stdout.text, stderr: stderr.text, asked: prompter.asked };
  } finally {
    if (cache) fs.rmSync(cache, { recursive: true, force: true });
  }
}

/** A spinner that records what it was started with, and whether it was stopped. */
export function spinnerRecorder() {
  type Started = {
    label: string;
    delayMs?: number;
    enabled?: boolean;
    stopped: boolean;
    text?: (ms: number) => string;
  };
  const started: Started[] = [];
  const spinner: StartSpinner = (label, o) => {
    const s = { label, delayMs: o.delayMs, enabled: o.enabled, stopped: false, text: o.text };
    started.push(s);
    return { stop: () => void (s.stopped = true) };
  };
  return { started, world: { spinner } };
}

/** `runLine` bound to one service (and default options), for a file or a describe. */
export function cliFor(target: () => Target | undefined, defaults: RunOptions = {}) {
  return (argv: string | string[], o: RunOptions = {}) =>
    runLine(target(), argv, { ...defaults, ...o, env: { ...defaults.env, ...o.env } });
}

/**
 * A Context on these streams for a unit test of one part (the reply printer, the spinners): the
 * rest of its world is stand-ins that fail if touched.
 */
export function bareContext(o: {
  stdout: OutStream;
  stderr: OutStream;
  spinner?: StartSpinner;
  openApi?: World['openApi'];
  /** the environment (testEnv(service) to reach one through the real openApi), and the clock */
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
}): Context {
  const env = o.env ?? {};
  return new Context({
    env,
    io: { stdout: o.stdout, stderr: o.stderr, stdin: process.stdin },
    globals: toGlobals({}, env),
    printer: new Printer(o.stdout, o.stderr, { json: false, quiet: false, color: false, env }),
    config: new MemoryConfig(),
    keychain: new MemoryKeychain('no keychain here'),
    prompter: new ScriptedPrompter(),
    editor: fakeEditor(() => {
      throw new Error('no editor here');
    }),
    clock: o.clock ?? new FakeClock(),
    signals: new FakeSignals(),
    spinner: o.spinner ?? NO_SPINNER,
    openApi: o.openApi ?? (() => Promise.reject(new Error('no service here'))),
  });
}
