// A terminal that hung up (its window closed, the connection to it dropped) stays open as a file, but
// whatever is asked of it fails with EIO: it is no longer a terminal, though it was one. Writing to it
// fails, and so does setting its modes back, which readline does as it closes and Node does as the
// process exits (aborting when that fails). These let the process see it and end cleanly all the same.
import tty from 'node:tty';
import type { OutStream } from './printer.js';

/** The standard streams (0, 1, 2) that are terminals now. */
export function terminalFds(): number[] {
  return [0, 1, 2].filter((fd) => tty.isatty(fd));
}

/** Whether one of `fds`, terminals once, is one no longer: its terminal hung up. */
export function terminalsGone(fds: number[]): boolean {
  return fds.some((fd) => !tty.isatty(fd));
}

interface TerminalStream {
  isTTY?: boolean;
  fd?: number;
}

/** Whether `stream`, a terminal when it was opened, is one no longer: its terminal hung up. */
function terminalGone(stream: TerminalStream): boolean {
  return stream.isTTY === true && typeof stream.fd === 'number' && !tty.isatty(stream.fd);
}

/**
 * Whether the end of `input` is its terminal hanging up: the input of a terminal device (a stand-in
 * of one has no fd) ends only so while the REPL or a question holds it, in raw mode, where Ctrl-D is
 * a key. It may come before the SIGHUP, and before the terminal stops answering as one.
 */
export function endIsHangUp(input: TerminalStream): boolean {
  return input.isTTY === true && typeof input.fd === 'number';
}

/** Whether the terminal that `io` writes to hung up (stdin is left alone: it is opened on first use). */
export function outputTerminalGone(io: { stdout: OutStream; stderr: OutStream }): boolean {
  return terminalGone(io.stderr as TerminalStream) || terminalGone(io.stdout as TerminalStream);
}

interface TerminalInput extends TerminalStream {
  isRaw?: boolean;
  setRawMode?(flag: boolean): unknown;
}

/**
 * `stdin`, its mode set back without failing once its terminal hung up: no mode is left to set then,
 * and readline, which sets it back as it closes at the end of the input, would throw the failure
 * where nothing catches it (inside a prompt).
 */
export function rawModeOutlivesTerminal<T>(stdin: T): T {
  const input = stdin as T & TerminalInput;
  const { fd, setRawMode } = input;
  if (input.isTTY !== true || typeof fd !== 'number' || typeof setRawMode !== 'function') return stdin;
  input.setRawMode = (flag: boolean) => {
    if (flag || tty.isatty(fd)) return setRawMode.call(input, flag);
    input.isRaw = false;
    return input;
  };
  return stdin;
}

/**
 * A write to `stream` that fails because its terminal hung up is no error: nothing can be shown there
 * any more, and the command goes on to its end (an edit is kept first, whatever the line saying so
 * became). Any other failure is thrown as it would be without this listener.
 */
export function writesOutliveTerminal(stream: OutStream): void {
  const target = stream as OutStream & TerminalStream & Partial<Pick<NodeJS.EventEmitter, 'on'>>;
  const { fd } = target;
  if (target.isTTY !== true || typeof fd !== 'number' || typeof target.on !== 'function') return;
  target.on('error', (err: NodeJS.ErrnoException) => {
    // EIO: the terminal going (it may still answer as one for a moment)
    if (err.code !== 'EIO' && tty.isatty(fd)) throw err;
  });
}
