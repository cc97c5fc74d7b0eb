// The full screen over stand-in streams: what it writes to take the terminal and give it back, raw mode
// set and unset, the terminal given back exactly once however the view ends (left, a signal, the
// process exiting, a crash, the terminal gone), suspend/resume, keys and resizes delivered.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { InterruptedError, TerminatedError } from '../../src/core/errors.js';
import { ENTER, LEAVE, Screen, canUseScreen, type Key, type Size } from '../../src/ui/screen/screen.js';
import { FakeSignals } from '../helpers/context.js';
import { screenText } from '../helpers/screen.js';

class FakeOutput extends EventEmitter {
  isTTY = true;
  columns = 20;
  rows = 5;
  writes: string[] = [];
  failWith: string | undefined;
  write(chunk: string): boolean {
    if (this.failWith) throw Object.assign(new Error(this.failWith), { code: this.failWith });
    this.writes.push(chunk);
    return true;
  }
  get text(): string {
    return this.writes.join('');
  }
}

class FakeInput extends EventEmitter {
  isTTY = true;
  fd = 0;
  isRaw = false;
  modes: boolean[] = [];
  flowing = false;
  setRawMode(flag: boolean): this {
    this.modes.push(flag);
    this.isRaw = flag;
    return this;
  }
  resume(): void {
    this.flowing = true;
  }
  pause(): void {
    this.flowing = false;
  }
}

/** Timers run by the test: a lone ESC is the Escape key when the test says the pause is over. */
class FakeTimers {
  private pending = new Map<number, () => void>();
  private next = 0;
  setTimeout(callback: () => void): number {
    this.pending.set(++this.next, callback);
    return this.next;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  runAll(): void {
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const f of due) f();
  }
  get count(): number {
    return this.pending.size;
  }
}

function setup() {
  const stdout = new FakeOutput();
  const stdin = new FakeInput();
  const signals = new FakeSignals();
  const proc = new EventEmitter();
  const timers = new FakeTimers();
  const keys: Key[] = [];
  const sizes: Size[] = [];
  const stops: Array<InterruptedError | TerminatedError> = [];
  /** whether the terminal was given back when each stop was told */
  const givenBackAtStop: boolean[] = [];
  const screen = new Screen({
    stdout,
    stdin,
    signals,
    process: proc,
    timers,
    onKey: (k) => keys.push(k),
    onResize: (s) => sizes.push(s),
    onStop: (r) => {
      stops.push(r);
      givenBackAtStop.push(leaves() === 1 && !stdin.isRaw && screen.state === 'off');
    },
  });
  const leaves = () => stdout.text.split(LEAVE).length - 1;
  return { stdout, stdin, signals, proc, timers, keys, sizes, stops, givenBackAtStop, screen, leaves };
}

describe('Screen', () => {
  it('enter() takes the alternate screen, hides the cursor, sets raw mode and reads the input', () => {
    const t = setup();
    t.screen.enter();
    expect(t.stdout.writes).toEqual([ENTER]);
    expect(ENTER).toContain('\x1b[?1049h');
    expect(ENTER).toContain('\x1b[?25l');
    expect(t.stdin.modes).toEqual([true]);
    expect(t.stdin.flowing).toBe(true);
    expect(t.screen.state).toBe('on');
    t.screen.leave();
  });

  it('leave() gives everything back once, however often it is called, and stops listening', () => {
    const t = setup();
    t.screen.enter();
    t.screen.leave();
    t.screen.leave();
    t.proc.emit('exit', 0);
    expect(t.stdout.writes).toEqual([ENTER, LEAVE]);
    expect(LEAVE).toContain('\x1b[?25h');
    expect(LEAVE).toContain('\x1b[?1049l');
    expect(t.stdin.modes).toEqual([true, false]);
    expect(t.stdin.flowing).toBe(false);
    expect(t.stdin.listenerCount('data') + t.stdout.listenerCount('resize') + t.stdout.listenerCount('error')).toBe(0);
    expect(t.proc.listenerCount('exit') + t.proc.listenerCount('uncaughtExceptionMonitor')).toBe(0);
    expect(t.signals.terminateListeners + t.signals.hangupListeners).toBe(0);
  });

  it('sets raw mode back to what it was: a terminal already raw stays raw', () => {
    const t = setup();
    t.stdin.isRaw = true;
    t.screen.enter();
    t.screen.leave();
    expect(t.stdin.modes).toEqual([true, true]);
  });

  it("gives the terminal back when the process exits, and before a crash's report", () => {
    const t = setup();
    t.screen.enter();
    t.proc.emit('exit', 1);
    expect(t.leaves()).toBe(1);
    const u = setup();
    u.screen.enter();
    u.proc.emit('uncaughtExceptionMonitor', new Error('bug'), 'uncaughtException');
    expect(u.leaves()).toBe(1);
    expect(u.stdin.isRaw).toBe(false);
    u.proc.emit('exit', 1);
    expect(u.leaves()).toBe(1);
  });

  it.each([
    ['SIGINT', (s: FakeSignals) => s.interrupt(), InterruptedError, undefined],
    ['SIGTERM', (s: FakeSignals) => s.terminate(), TerminatedError, 'SIGTERM'],
    ['SIGHUP', (s: FakeSignals) => s.hangup(), TerminatedError, 'SIGHUP'],
  ])('on %s gives the terminal back first, then hands the command the error to end with', (_n, send, cls, sig) => {
    const t = setup();
    t.screen.enter();
    expect(send(t.signals)).toBe(true);
    expect(t.givenBackAtStop).toEqual([true]);
    expect(t.stops[0]).toBeInstanceOf(cls);
    if (sig) expect((t.stops[0] as TerminatedError).signal).toBe(sig);
    expect(t.stops[0]!.lineEnded).toBe(true);
    t.proc.emit('exit', 130);
    expect(t.leaves()).toBe(1);
  });

  it('when the terminal goes (EIO on stdout, or the end of its input) stops as a hang-up, writing nothing more', () => {
    const t = setup();
    t.screen.enter();
    t.stdout.emit('error', Object.assign(new Error('EIO'), { code: 'EIO' }));
    expect(t.stops.map((s) => (s as TerminatedError).signal)).toEqual(['SIGHUP']);
    expect(t.stdout.writes).toEqual([ENTER]);
    expect(t.stdin.isRaw).toBe(false);

    const u = setup();
    u.screen.enter();
    u.stdin.emit('end');
    expect(u.stops.map((s) => (s as TerminatedError).signal)).toEqual(['SIGHUP']);

    const v = setup();
    v.screen.enter();
    v.stdout.failWith = 'EPIPE';
    expect(v.screen.draw(['x'])).toBe(true);
    expect(v.stops).toHaveLength(1);
    expect(v.screen.state).toBe('off');
  });

  it('delivers keys, holding a lone ESC until the pause (the timer) says it is Escape', () => {
    const t = setup();
    t.screen.enter();
    t.stdin.emit('data', Buffer.from('j\x1b[A'));
    expect(t.keys).toEqual([{ name: 'char', char: 'j' }, { name: 'up' }]);
    t.stdin.emit('data', Buffer.from('\x1b'));
    expect(t.keys).toHaveLength(2);
    t.stdin.emit('data', Buffer.from('[B'));
    expect(t.keys.at(-1)).toEqual({ name: 'down' });
    expect(t.timers.count).toBe(0);
    t.stdin.emit('data', Buffer.from('\x1b'));
    t.timers.runAll();
    expect(t.keys.at(-1)).toEqual({ name: 'escape' });
    t.screen.leave();
  });

  it('delivers no key once a key has ended the view', () => {
    const t = setup();
    const screen = new Screen({
      stdout: t.stdout,
      stdin: t.stdin,
      signals: t.signals,
      process: t.proc,
      timers: t.timers,
      onKey: (k) => {
        t.keys.push(k);
        screen.leave();
      },
      onResize: () => undefined,
      onStop: () => undefined,
    });
    screen.enter();
    t.stdin.emit('data', Buffer.from('qqq'));
    expect(t.keys).toHaveLength(1);
  });

  it('tells a resize with the new size, and the next frame is drawn whole', () => {
    const t = setup();
    t.screen.enter();
    t.screen.draw(['a', 'b']);
    expect(t.screen.draw(['a', 'b'])).toBe(false);
    t.stdout.columns = 40;
    t.stdout.rows = 10;
    t.stdout.emit('resize');
    expect(t.sizes).toEqual([{ columns: 40, rows: 10 }]);
    expect(t.screen.draw(['a', 'b'])).toBe(true);
    // a resize and back (the screen may have been redrawn by the terminal): drawn whole all the same
    t.stdout.emit('resize');
    expect(t.screen.draw(['a', 'b'])).toBe(true);
    t.screen.leave();
  });

  it('suspend() gives the terminal to something else; resume() takes it back and asks for a whole frame', () => {
    const t = setup();
    t.screen.enter();
    t.screen.draw(['view']);
    t.screen.suspend();
    expect(t.screen.state).toBe('suspended');
    expect(t.stdout.writes.at(-1)).toBe(LEAVE);
    expect(t.stdin.isRaw).toBe(false);
    expect(t.signals.terminateListeners).toBe(0);
    // meanwhile the other program's keys and signals are not ours, and nothing is drawn
    t.stdin.emit('data', Buffer.from('q'));
    expect(t.keys).toEqual([]);
    expect(t.screen.draw(['other'])).toBe(false);
    t.screen.resume();
    expect(t.stdout.writes.at(-1)).toBe(ENTER);
    expect(t.stdin.isRaw).toBe(true);
    expect(t.sizes).toEqual([{ columns: 20, rows: 5 }]);
    expect(t.screen.draw(['view'])).toBe(true);
    t.screen.leave();
    t.proc.emit('exit', 0);
    expect(t.leaves()).toBe(2);
  });

  it('gives back the mode the terminal had at enter(), not one left by what ran while suspended', () => {
    const t = setup();
    t.screen.enter();
    t.screen.suspend();
    t.stdin.isRaw = true; // the other program left it raw
    t.screen.resume();
    t.screen.leave();
    expect(t.stdin.modes.at(-1)).toBe(false);
  });

  it("on a real terminal (xterm.js): the shell's screen is back as it was after leave()", async () => {
    const t = setup();
    t.stdout.writes.push('$ superagent top\n');
    t.screen.enter();
    t.screen.draw(['agent-1  running', 'agent-2  paused']);
    t.screen.leave();
    expect(await screenText(t.stdout.writes, 20, 5)).toBe('$ superagent top');
    const u = setup();
    u.screen.enter();
    u.screen.draw(['agent-1  running']);
    expect(await screenText(u.stdout.writes, 20, 5)).toBe('agent-1  running');
  });

  it('leave() while suspended writes nothing (the terminal is already given back) and stops watching the exit', () => {
    const t = setup();
    t.screen.enter();
    t.screen.suspend();
    const before = t.stdout.writes.length;
    t.screen.leave();
    t.proc.emit('exit', 0);
    expect(t.stdout.writes).toHaveLength(before);
    expect(t.proc.listenerCount('exit')).toBe(0);
  });

  it('a size the terminal does not give is 80×24', () => {
    const t = setup();
    t.stdout.columns = 0;
    t.stdout.rows = NaN;
    expect(t.screen.size).toEqual({ columns: 80, rows: 24 });
  });
});

describe('canUseScreen', () => {
  it('needs a terminal on both sides, and one that is not dumb', () => {
    const out = new FakeOutput();
    const input = new FakeInput();
    expect(canUseScreen(out, input, {})).toBe(true);
    expect(canUseScreen(out, input, { TERM: 'dumb' })).toBe(false);
    input.isTTY = false;
    expect(canUseScreen(out, input, {})).toBe(false);
  });
});
