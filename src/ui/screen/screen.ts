// The terminal as a full screen: the alternate screen (the shell's lines come back untouched after),
// the cursor hidden, the keyboard in raw mode, read as keys (keys.ts); frames drawn by frame.ts. The
// terminal is given back exactly once however the view ends: left by the command, a signal, the
// process exiting, a crash (given back first, so the crash report prints on the normal screen) or the
// terminal going away. suspend() lends the terminal to something else (a chat) and resume() takes it
// back. No TUI library: this is all a live view needs, and loads in no time.
import { InterruptedError, TerminatedError } from '../../core/errors.js';
import { endIsHangUp } from '../terminal-gone.js';
import { FrameWriter, type Size } from './frame.js';
import { KeyDecoder, type Key } from './keys.js';

export type { Key, SpecialKey } from './keys.js';
export type { Size } from './frame.js';

/** alternate screen on, cursor hidden, no wrap at the last column (a character wider than measured stays in its row) */
export const ENTER = '\x1b[?1049h\x1b[?25l\x1b[?7l';
/** colours off, wrap back on, cursor shown, the normal screen back as it was */
export const LEAVE = '\x1b[0m\x1b[?7h\x1b[?25h\x1b[?1049l';

// what an EventEmitter's listeners are: process.stdout and a test's stand-in alike
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Listener = (...args: any[]) => void;

/** The terminal's output (process.stdout; a test's stand-in). */
export interface ScreenOutput {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
  rows?: number;
  on?(event: string, listener: Listener): unknown;
  removeListener?(event: string, listener: Listener): unknown;
}

/** The terminal's input (process.stdin; a test's stand-in). */
export interface ScreenInput {
  isTTY?: boolean;
  fd?: number;
  isRaw?: boolean;
  setRawMode?(flag: boolean): unknown;
  on(event: string, listener: Listener): unknown;
  removeListener(event: string, listener: Listener): unknown;
  resume?(): unknown;
  pause?(): unknown;
}

/** Ctrl-C (as a signal: `kill -INT`), SIGTERM and SIGHUP: the Context's signals (src/ui does not know the Context). */
export interface ScreenSignals {
  onInterrupt(handler: () => void): () => void;
  onTerminate(handler: () => void): () => void;
  onHangup(handler: () => void): () => void;
}

/** What the screen watches on the process: its exit and a crash. */
export type ScreenProcess = Pick<NodeJS.EventEmitter, 'on' | 'removeListener'>;

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface ScreenOptions {
  stdout: ScreenOutput;
  stdin: ScreenInput;
  signals: ScreenSignals;
  /** process by default */
  process?: ScreenProcess;
  /** setTimeout/clearTimeout by default: decide when a lone ESC is the Escape key */
  timers?: Timers;
  /** how long after an ESC with nothing more it is the Escape key (ms); 50 by default */
  escapeMs?: number;
  onKey(key: Key): void;
  /** the terminal's new size (also after resume(): draw the frame again) */
  onResize(size: Size): void;
  /**
   * The screen was given back because the command must end: a signal (InterruptedError for SIGINT,
   * TerminatedError for SIGTERM, TerminatedError('SIGHUP') for a hang-up or the terminal gone). The
   * command throws it, for the exit code every command ends such with (130, 143, 129).
   */
  onStop(reason: InterruptedError | TerminatedError): void;
}

export type ScreenState = 'off' | 'on' | 'suspended';

/** Whether a full screen can be drawn on these streams: both a terminal, and one that can move its cursor. */
export function canUseScreen(stdout: ScreenOutput, stdin: ScreenInput, env: NodeJS.ProcessEnv): boolean {
  return stdout.isTTY === true && stdin.isTTY === true && env.TERM !== 'dumb';
}

const dimension = (value: number | undefined, fallback: number) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 10_000 ? value : fallback;

/** A failure of a write that means the terminal is gone (its reader, or the terminal itself). */
const isGone = (err: unknown) => ['EPIPE', 'EIO'].includes((err as NodeJS.ErrnoException | undefined)?.code ?? '');

export class Screen {
  private current: ScreenState = 'off';
  /** nothing can be written to the terminal any more */
  private gone = false;
  private wasRaw = false;
  private readonly frames: FrameWriter;
  private readonly decoder = new KeyDecoder();
  private escapeTimer: unknown;
  /** what enter()/resume() listens to, undone by suspend() and leave() */
  private unlisten: Array<() => void> = [];
  /** the process's exit and crash: listened to from enter() to leave(), suspended or not */
  private unwatch: Array<() => void> = [];
  private readonly proc: ScreenProcess;
  private readonly timers: Timers;

  constructor(private readonly o: ScreenOptions) {
    this.proc = o.process ?? process;
    this.timers = o.timers ?? {
      setTimeout: (f, ms) => setTimeout(f, ms),
      clearTimeout: (h) => clearTimeout(h as never),
    };
    this.frames = new FrameWriter({ write: (chunk) => this.write(chunk) });
  }

  get state(): ScreenState {
    return this.current;
  }

  /** The terminal's size now (80×24 when it does not say). */
  get size(): Size {
    return { columns: dimension(this.o.stdout.columns, 80), rows: dimension(this.o.stdout.rows, 24) };
  }

  /** Takes the terminal: alternate screen, cursor hidden, raw mode, keys and resizes listened to. */
  enter(): void {
    if (this.current !== 'off') return;
    this.gone = false;
    // the mode given back at the end, whatever a program run while suspended leaves
    this.wasRaw = this.o.stdin.isRaw === true;
    const restore = () => this.leave();
    this.proc.on('exit', restore);
    this.proc.on('uncaughtExceptionMonitor', restore); // before the crash report, which then shows
    this.unwatch = [
      () => this.proc.removeListener('exit', restore),
      () => this.proc.removeListener('uncaughtExceptionMonitor', restore),
    ];
    this.take();
  }

  /** Draws `lines` for the current size (frame.ts): true when something was written. */
  draw(lines: readonly string[]): boolean {
    if (this.current !== 'on' || this.gone) return false;
    return this.frames.draw(lines, this.size);
  }

  /** Gives the terminal back to be used by something else; resume() takes it again. */
  suspend(): void {
    if (this.current !== 'on') return;
    this.give();
    this.current = 'suspended';
  }

  /** Takes the terminal back after suspend(), and asks for a frame (onResize): the screen is drawn whole. */
  resume(): void {
    if (this.current !== 'suspended') return;
    this.take();
    this.o.onResize(this.size);
  }

  /** Gives the terminal back as it was, once: any later call (the exit after a crash, say) does nothing. */
  leave(): void {
    if (this.current === 'off') return;
    if (this.current === 'on') this.give();
    for (const off of this.unwatch.splice(0)) off();
    this.current = 'off';
  }

  private take(): void {
    const { stdin, stdout, signals } = this.o;
    this.current = 'on';
    this.frames.invalidate();
    this.write(ENTER);
    this.setRaw(true);
    const onData = (chunk: Uint8Array | string) => this.onData(chunk);
    const onEnd = () => {
      if (endIsHangUp(stdin)) this.stop(new TerminatedError('SIGHUP'));
    };
    const onResize = () => {
      this.frames.invalidate();
      this.o.onResize(this.size);
    };
    const onError = (err: unknown) => {
      if (isGone(err)) this.terminalGone();
    };
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.resume?.();
    stdout.on?.('resize', onResize);
    stdout.on?.('error', onError);
    this.unlisten = [
      () => stdin.removeListener('data', onData),
      () => stdin.removeListener('end', onEnd),
      () => stdout.removeListener?.('resize', onResize),
      () => stdout.removeListener?.('error', onError),
      signals.onInterrupt(() => this.stop(new InterruptedError())),
      signals.onTerminate(() => this.stop(new TerminatedError('SIGTERM'))),
      signals.onHangup(() => this.stop(new TerminatedError('SIGHUP'))),
    ];
  }

  /** The terminal as it was before take(), nothing of ours listening. */
  private give(): void {
    for (const off of this.unlisten.splice(0)) off();
    this.timers.clearTimeout(this.escapeTimer);
    this.decoder.flush(); // a key half read belongs to no one now
    this.write(LEAVE);
    this.setRaw(this.wasRaw);
    this.o.stdin.pause?.(); // a stdin still flowing would keep the process alive
  }

  private stop(reason: InterruptedError | TerminatedError): void {
    if (this.current === 'off') return;
    this.leave();
    reason.lineEnded = true; // the normal screen is back as it was: its last line was ended before
    this.o.onStop(reason);
  }

  private terminalGone(): void {
    this.gone = true;
    this.stop(new TerminatedError('SIGHUP'));
  }

  private onData(chunk: Uint8Array | string): void {
    this.timers.clearTimeout(this.escapeTimer);
    const keys = this.decoder.push(chunk);
    if (this.decoder.pending) {
      this.escapeTimer = this.timers.setTimeout(() => this.deliver(this.decoder.flush()), this.o.escapeMs ?? 50);
    }
    this.deliver(keys);
  }

  private deliver(keys: Key[]): void {
    // a key may end the view (q): the keys after it are no longer ours
    for (const key of keys) if (this.current === 'on') this.o.onKey(key);
  }

  private write(chunk: string): void {
    if (this.gone) return;
    try {
      this.o.stdout.write(chunk);
    } catch (err) {
      if (!isGone(err)) throw err;
      this.terminalGone();
    }
  }

  private setRaw(flag: boolean): void {
    const { stdin } = this.o;
    if (stdin.isTTY !== true || typeof stdin.setRawMode !== 'function') return;
    try {
      stdin.setRawMode(flag);
    } catch (err) {
      // a terminal hung up has no mode left to set (terminal-gone.ts)
      if (!isGone(err)) throw err;
    }
  }
}
