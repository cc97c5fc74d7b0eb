// The Context's spinners (src/cli/context.ts): one line holds one spinner. A plain wait inside another
// is said by the one on screen; a countdown takes the line and the wait it interrupted comes back
// after it, still counting from its own start.
import { describe, expect, it } from 'vitest';
import type { StartSpinner } from '../../src/cli/context.js';
import { bareContext } from '../helpers/context.js';

/** A Context on a terminal whose spinners are recorded: what was drawn, in order, and what is on screen. */
function recorded() {
  const events: string[] = [];
  const starts: Array<{ label: string; startedAt?: number; delayMs?: number }> = [];
  const spinner: StartSpinner = (label, options) => {
    starts.push({ label, startedAt: options.startedAt, delayMs: options.delayMs });
    events.push(`draw ${label}`);
    return { stop: () => events.push(`clear ${label}`) };
  };
  const tty = { write: () => true, isTTY: true };
  const ctx = bareContext({ stdout: tty, stderr: tty, spinner });
  return { ctx, events, starts };
}

describe('Context.spinner', () => {
  it('a plain wait inside another draws nothing: the one on screen says it', () => {
    const { ctx, events } = recorded();
    const outer = ctx.spinner('Waiting for demo…');
    const inner = ctx.spinner('Waiting for the service…');
    inner.stop();
    outer.stop();
    expect(events).toEqual(['draw Waiting for demo…', 'clear Waiting for demo…']);
  });

  it('a countdown takes the line; the wait it interrupted comes back at once, counting from its start', () => {
    const { ctx, events, starts } = recorded();
    const outer = ctx.spinner('Waiting for the service…', { delayMs: 300 });
    const countdown = ctx.spinner('', { text: () => 'Rate limited by the service; retrying in 20 s' });
    countdown.stop();
    countdown.stop(); // twice is harmless
    outer.stop();
    expect(events).toEqual([
      'draw Waiting for the service…',
      'clear Waiting for the service…',
      'draw ',
      'clear ',
      'draw Waiting for the service…',
      'clear Waiting for the service…',
    ]);
    expect(starts[2]).toEqual({ label: 'Waiting for the service…', startedAt: starts[0]!.startedAt, delayMs: 0 });
  });

  it('the wait that ended before its countdown is not drawn again', () => {
    const { ctx, events } = recorded();
    const outer = ctx.spinner('Waiting…');
    const countdown = ctx.spinner('', { text: () => 'retrying in 3 s' });
    outer.stop();
    countdown.stop();
    expect(events.filter((e) => e.startsWith('draw'))).toEqual(['draw Waiting…', 'draw ']);
    // and the line is free again
    ctx.spinner('Next').stop();
    expect(events.at(-2)).toBe('draw Next');
  });
});
