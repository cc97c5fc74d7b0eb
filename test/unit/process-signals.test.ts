// The process's signals as a command listens for them (run.ts processSignals), on a stand-in for the
// process that records what would end it. Ctrl-C or SIGTERM again while the first is handled ends the
// process, as a person insisting means; a terminal's hang-up comes two or three times at once (the
// shell passes it on to its job, the kernel sends it again as the shell exits) and must not end the
// process before the command has done with the first (keeping an edit). The real terminal closed:
// test/e2e/terminal-closed.test.ts.
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { processSignals, type SignalTarget } from '../../src/cli/run.js';

/** A process that records the signals it sends itself (each would end it: none is listened for then). */
class FakeProcess extends EventEmitter {
  readonly pid = 4242;
  readonly ended: string[] = [];
  kill(pid: number, signal: string): true {
    expect(pid).toBe(this.pid);
    this.ended.push(signal);
    return true;
  }
}

function setUp() {
  const proc = new FakeProcess();
  return { proc, signals: processSignals(proc as unknown as SignalTarget) };
}

describe('a signal again while the first is handled', () => {
  it.each([
    ['SIGINT', 'onInterrupt'],
    ['SIGTERM', 'onTerminate'],
  ] as const)('%s twice (a person insisting): the process ends by the second', (name, on) => {
    const { proc, signals } = setUp();
    let handled = 0;
    const stop = signals[on](() => handled++);
    proc.emit(name);
    expect([handled, proc.ended]).toEqual([1, []]);
    proc.emit(name);
    expect([handled, proc.ended]).toEqual([1, [name]]);
    stop();
  });

  it('SIGHUP three times at once (a terminal closing): handled once, the process not ended', () => {
    const { proc, signals } = setUp();
    let handled = 0;
    const stop = signals.onHangup(() => handled++);
    expect(signals.hungUp).toBe(false);
    for (let i = 0; i < 3; i++) proc.emit('SIGHUP');
    expect([handled, proc.ended]).toEqual([1, []]);
    expect(signals.hungUp, 'the process ends as hung up once the command is over (run.ts)').toBe(true);
    stop();
  });

  it('after a hang-up, SIGTERM twice does not end the process either (whatever tears the session down)', () => {
    const { proc, signals } = setUp();
    const seen: string[] = [];
    const stops = [signals.onHangup(() => seen.push('SIGHUP')), signals.onTerminate(() => seen.push('SIGTERM'))];
    proc.emit('SIGHUP');
    proc.emit('SIGTERM');
    proc.emit('SIGTERM');
    proc.emit('SIGHUP');
    expect([seen, proc.ended]).toEqual([['SIGHUP', 'SIGTERM'], []]);
    for (const stop of stops) stop();
  });

  it('after a hang-up, a SIGHUP after the command stopped listening is still taken (not its default end)', () => {
    const { proc, signals } = setUp();
    const stop = signals.onHangup(() => undefined);
    proc.emit('SIGHUP');
    stop();
    // the process ends as hung up when the command is over (run.ts), not in the middle of what follows
    expect(proc.listenerCount('SIGHUP')).toBe(1);
  });

  it(
    'a command that stops listening as its terminal is gone ' + '(its input ended first): the SIGHUP to come is taken',
    () => {
      // between a question's end and the caller keeping the edit, SIGHUP's default action would end the process
      const proc = new FakeProcess();
      const signals = processSignals(proc as unknown as SignalTarget, () => true);
      signals.onHangup(() => undefined)();
      expect([proc.listenerCount('SIGHUP'), signals.hungUp]).toEqual([1, true]);
    },
  );

  it('no hang-up: a command that stopped listening leaves no SIGHUP listener (which would undo nohup)', () => {
    const { proc, signals } = setUp();
    signals.onHangup(() => undefined)();
    expect(proc.listenerCount('SIGHUP')).toBe(0);
  });
});
