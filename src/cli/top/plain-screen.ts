// A stand-in for the project's full-screen layer, kept to what `top` needs until that layer is in:
// the alternate screen with the cursor hidden, no wrap and raw keys, given back on leave(), on a signal
// and on the process's exit or a crash; a frame drawn whole when it changed.
import { InterruptedError, TerminatedError } from '../../core/errors.js';
import { toTerminal } from '../../ui/terminal-safe.js';
import type { Context } from '../context.js';
import type { LiveKey, LiveScreen, ScreenHandlers } from './live.js';

const ENTER = '\x1b[?1049h\x1b[?25l\x1b[?7l';
const LEAVE = '\x1b[0m\x1b[?7h\x1b[?25h\x1b[?1049l';
const SEQUENCES: Record<string, LiveKey> = {
  '\x1b[A': { name: 'up' },
  '\x1bOA': { name: 'up' },
  '\x1b[B': { name: 'down' },
  '\x1bOB': { name: 'down' },
  '\r': { name: 'enter' },
  '\n': { name: 'enter' },
  '\x1b': { name: 'escape' },
  '\x03': { name: 'ctrl', char: 'c' },
};

/** The keys in one read (a sequence is taken whole when it comes in one read, as a terminal sends it). */
export function keysOf(chunk: string): LiveKey[] {
  const keys: LiveKey[] = [];
  for (let i = 0; i < chunk.length;) {
    const seq = [4, 3, 1].map((n) => chunk.slice(i, i + n)).find((s) => SEQUENCES[s]);
    const csi = /^\x1b\[[0-?]*[ -/]*[@-~]/.exec(chunk.slice(i))?.[0];
    if (seq) {
      keys.push(SEQUENCES[seq]!);
      i += seq.length;
    } else if (csi)
      i += csi.length; // a key top has no use for
    else {
      const ch = String.fromCodePoint(chunk.codePointAt(i)!);
      keys.push({ name: 'char', char: ch });
      i += ch.length;
    }
  }
  return keys;
}

type RawInput = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(on: boolean): unknown };
type SizedOutput = { write(s: string): unknown; columns?: number; rows?: number } & Partial<NodeJS.EventEmitter>;

export function plainScreen(ctx: Context, h: ScreenHandlers): LiveScreen {
  const stdin = ctx.io.stdin as RawInput;
  const stdout = ctx.io.stdout as SizedOutput;
  let on = false;
  let last = '';
  let unlisten: Array<() => void> = [];
  const onData = (chunk: Buffer | string) => {
    for (const key of keysOf(String(chunk))) h.onKey(key);
  };
  const onResize = () => {
    last = '';
    h.onResize();
  };
  const take = () => {
    stdout.write(ENTER);
    stdin.setRawMode?.(true);
    stdin.on('data', onData);
    stdin.resume();
    stdout.on?.('resize', onResize);
    last = '';
  };
  const give = () => {
    stdin.removeListener('data', onData);
    stdout.removeListener?.('resize', onResize);
    stdin.setRawMode?.(false);
    stdin.pause();
    stdout.write(LEAVE);
  };
  const stopWith = (reason: Error) => () => {
    screen.leave();
    h.onStop(reason);
  };
  const restore = () => screen.leave();
  const screen: LiveScreen = {
    get size() {
      return { columns: stdout.columns || 80, rows: stdout.rows || 24 };
    },
    enter() {
      if (on) return;
      on = true;
      take();
      process.on('exit', restore);
      process.on('uncaughtExceptionMonitor', restore);
      unlisten = [
        ctx.signals.onInterrupt(stopWith(new InterruptedError())),
        ctx.signals.onTerminate(stopWith(new TerminatedError())),
        ctx.signals.onHangup(stopWith(new TerminatedError('SIGHUP'))),
        () => process.removeListener('exit', restore),
        () => process.removeListener('uncaughtExceptionMonitor', restore),
      ];
    },
    draw(lines) {
      if (!on) return;
      const { rows } = screen.size;
      const frame = lines
        .slice(0, rows)
        // no wrap on this screen: the terminal itself stops a line at the last column
        .map((l) => `${toTerminal(l)}\x1b[0m\x1b[K`)
        .join('\r\n');
      if (frame === last) return;
      last = frame;
      stdout.write(`\x1b[H${frame}\x1b[J`);
    },
    suspend() {
      if (on) give();
    },
    resume() {
      if (on) take();
      h.onResize();
    },
    leave() {
      if (!on) return;
      on = false;
      give();
      for (const f of unlisten.splice(0)) f();
    },
  };
  return screen;
}
