// Running a command line: commander (program/build.ts) parses it, dispatches to the command (its
// module loaded then) or writes help; this file builds the Context from the real world (or from a
// test's stand-ins), runs the command, and turns any failure into one line on stderr and an exit
// code (exit-codes.ts). main.ts hands every command line over to run().
import { ConfigFile } from '../config/file.js';
import { osKeychain } from '../config/keychain.js';
import { configDir } from '../config/paths.js';
import { InterruptedError } from '../core/errors.js';
import { systemEditor } from '../ui/editor.js';
import { createPrinter, usableColumns, type OutStream } from '../ui/printer.js';
import { terminalPrompter } from '../ui/prompt.js';
import { startSpinner } from '../ui/spinner.js';
import { rawModeOutlivesTerminal, terminalFds, terminalsGone, writesOutliveTerminal } from '../ui/terminal-gone.js';
import { Context, type Clock, type IO, type Signals, type StartSpinner, type World } from './context.js';
import { EXIT, reportError } from './exit-codes.js';
import { parseLine, type Chosen } from './program/build.js';

/** Stand-ins for parts of the world (tests); the rest is the real thing. */
export type WorldOverrides = Partial<Omit<World, 'env' | 'io' | 'globals' | 'printer'>>;

const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(new InterruptedError());
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(new InterruptedError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** What signals are listened for on: the process itself (a test gives a stand-in). */
export type SignalTarget = Pick<NodeJS.Process, 'on' | 'removeListener' | 'listenerCount' | 'kill' | 'pid'>;

/**
 * The signals of `proc` (this process), as the Context hands them to a command. Ctrl-C or SIGTERM
 * again while the first is handled ends the process: a person insisting. A hang-up is no person: the
 * shell passes SIGHUP on to its job and the kernel sends it again as the shell exits, so it comes two
 * or three times at once. Once one is taken (`hungUp`), no signal repeated ends the process any more,
 * and SIGHUP stays taken after the command stops listening: what it does about the hang-up (keeping
 * an edit, giving the terminal back) is not cut short, and the process then ends as hung up (`endHungUp`).
 * The same once a command stops listening with its terminal gone (`terminalGone`): it saw the hang-up
 * another way (the end of the terminal's input), and the SIGHUP may be still to come.
 */
export function processSignals(
  proc: SignalTarget = process,
  terminalGone: () => boolean = () => false,
): Signals & { readonly hungUp: boolean } {
  let hungUp = false;
  const absorb = () => undefined;
  const hangUp = () => {
    if (hungUp) return;
    hungUp = true;
    proc.on('SIGHUP', absorb); // the terminal is gone: no `nohup` left to undo
  };
  /**
   * `handler` on the next `name`; a second one meanwhile does what it would without us (ends the
   * process), unless after a hang-up. The listener stays until the command stops listening, not just
   * until it fires: a library that listens too (signal-exit, under the prompts) re-raises the signal
   * when it finds itself alone.
   */
  const onSignal = (name: NodeJS.Signals) => (handler: () => void) => {
    let fired = false;
    const listener = () => {
      if (name === 'SIGHUP') hangUp();
      if (fired && hungUp) return;
      if (fired) {
        proc.removeListener(name, listener);
        proc.kill(proc.pid, name);
        return;
      }
      fired = true;
      handler();
    };
    proc.on(name, listener);
    return () => {
      if (name === 'SIGHUP' && terminalGone()) hangUp();
      proc.removeListener(name, listener);
    };
  };

  /** `handler` on each SIGINT; then, when no other listener is left to handle it, the signal's own end. */
  const tidyOnInterrupt = (handler: () => void) => {
    const listener = () => {
      handler();
      if (proc.listenerCount('SIGINT') === 1) {
        proc.removeListener('SIGINT', listener);
        proc.kill(proc.pid, 'SIGINT');
      }
    };
    proc.on('SIGINT', listener);
    return () => void proc.removeListener('SIGINT', listener);
  };

  return {
    onInterrupt: onSignal('SIGINT'),
    onTerminate: onSignal('SIGTERM'),
    onHangup: onSignal('SIGHUP'),
    onInterruptTidy: tidyOnInterrupt,
    get hungUp() {
      return hungUp;
    },
  };
}

function columns(io: IO): number {
  return usableColumns(io.stdout) ?? 80;
}

/** How long output still on its way (to a pipe) may take to leave once the terminal hung up. */
const FLUSH_MS = 1_000;

/** Once what was written to `stream` has left, or its writing failed, or FLUSH_MS passed. */
function flushed(stream: OutStream): Promise<void> {
  const s = stream as OutStream & { writableLength?: number; destroyed?: boolean };
  const { once, off } = s;
  if (!s.writableLength || s.destroyed || !once || !off) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      off.call(s, 'drain', done);
      off.call(s, 'close', done);
      resolve();
    };
    const timer = setTimeout(done, FLUSH_MS);
    once.call(s, 'drain', done);
    once.call(s, 'close', done); // a failed write destroys the stream
  });
}

/**
 * The end of a process that hung up (or whose terminal did): by SIGHUP, as if nobody had listened (a
 * shell sees 129), once the command has done what it does about it. An exit would have Node set the
 * terminal's modes back, which fails on a terminal gone (EIO, perhaps a moment after the hang-up was
 * seen) and aborts. Output still on its way to a pipe or a file leaves first.
 */
async function endHungUp(io: IO): Promise<void> {
  await Promise.all([flushed(io.stdout), flushed(io.stderr)]);
  process.removeAllListeners('SIGHUP'); // its default action again
  process.kill(process.pid, 'SIGHUP');
  // it is delivered at once; were it not, the command's own code, the usual way
  await new Promise((resolve) => setTimeout(resolve, FLUSH_MS));
}

/** This process's streams, made to outlive their terminal (terminal-gone.ts). */
function outlivingTerminal(io: IO): IO {
  writesOutliveTerminal(io.stderr); // stdout's failures are main.ts's
  let stdin: IO['stdin'] | undefined;
  return {
    stdout: io.stdout,
    stderr: io.stderr,
    get stdin() {
      return (stdin ??= rawModeOutlivesTerminal(io.stdin)); // opened on first use only
    },
  };
}

export async function run(
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: IO,
  overrides: WorldOverrides = {},
): Promise<number> {
  if (overrides.signals) return runIn(argv, env, io, overrides, overrides.signals); // a test's world
  // this process: its terminal may hang up under the command
  const terminals = terminalFds();
  const signals = processSignals(process, () => terminalsGone(terminals));
  const code = await runIn(argv, env, outlivingTerminal(io), overrides, signals);
  if (code === EXIT.hangup || signals.hungUp || terminalsGone(terminals)) await endHungUp(io);
  return code;
}

async function runIn(
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: IO,
  overrides: WorldOverrides,
  signals: Signals,
): Promise<number> {
  const json = argv.includes('--json');
  const debug = argv.includes('--debug');
  let code: number = EXIT.ok;
  const world = { env, stdout: io.stdout, stderr: io.stderr, columns: columns(io) };
  try {
    await parseLine(argv, world, async (chosen) => {
      code = await runChosen(chosen, env, io, overrides, signals);
    });
    return code;
  } catch (err) {
    return reportError(err, io.stderr, { json, debug });
  }
}

/** The command commander chose, run in its Context; a failure of its own is reported here. */
async function runChosen(
  { entry, module, input, globals }: Chosen,
  env: NodeJS.ProcessEnv,
  io: IO,
  overrides: WorldOverrides,
  signals: Signals,
): Promise<number> {
  const { json, quiet, color } = globals;
  const printer = await createPrinter(io.stdout, io.stderr, { json, quiet, color, env });
  const spinner: StartSpinner = (label, o) =>
    startSpinner(io.stderr, label, { ...o, enabled: o.enabled ?? true, colour: printer.stderrColour });
  const ctx = new Context({
    env,
    io,
    globals,
    printer,
    config: overrides.config ?? new ConfigFile(configDir(env), { warn: (line) => printer.warn(line) }),
    keychain: overrides.keychain ?? osKeychain(),
    prompter: overrides.prompter ?? terminalPrompter(io, signals),
    editor: overrides.editor ?? systemEditor(env),
    clock: overrides.clock ?? realClock,
    signals,
    spinner: overrides.spinner ?? spinner,
    openApi: overrides.openApi ?? (async (c, o) => (await import('./commands/shared/connect.js')).openApi(c, o)),
  });
  try {
    const code = (await module.run(input as never, ctx)) ?? EXIT.ok;
    // a command that needed no list of everything (its agent was found) succeeds, and says what the
    // service could not read (also in a pipe: the state needs fixing)
    const leftOut = entry.hidden ? undefined : ctx.leftOut();
    if (leftOut) ctx.printer.warn(leftOut.message.charAt(0).toUpperCase() + leftOut.message.slice(1));
    return code;
  } catch (err) {
    // a spinner still turning would redraw itself under the error line, then erase it
    ctx.stopSpinners();
    // printer.json: a profile with `output json` turns it on too
    const how = { json: ctx.printer.json, debug: globals.debug, colour: ctx.printer.err.red.bold };
    return reportError(ctx.explainFailure(err), io.stderr, how);
  } finally {
    await ctx.dispose();
  }
}
