// A wait on something that may never end (input whose writer keeps it open, a locked keychain whose
// unlock prompt nobody sees): said on stderr once it takes more than a moment, and given up when
// its time is up.
import type { Context } from '../../context.js';

export interface WaitBounds {
  /** the longest wait, in ms (none: unbounded) */
  ms?: number;
  /** says on stderr what the command waits for (once the wait takes more than a moment, in a pipe too) */
  say: () => void;
  /** when the time is up: lets go of the work, and returns the error the command fails with */
  giveUp: () => Error;
}

export async function boundedWait<T>(ctx: Context, work: Promise<T>, bounds: WaitBounds): Promise<T> {
  // work done at once (input there whole, a keychain in memory) ends within a turn of the event
  // loop: only work still under way starts a wait on the clock (no timer, and no sleep a fake clock would count)
  const nextTurn = new Promise<false>((resolve) => setImmediate(resolve, false));
  const ended = await Promise.race([work.then(() => true, () => true), nextTurn]);
  if (ended) return work;
  const timer = new AbortController();
  const expiry = bounds.ms === undefined ? [] : [
    ctx.clock.sleep(bounds.ms, timer.signal).then(
      () => {
        throw bounds.giveUp();
      },
      () => undefined as never, // the work ended first
    ),
  ];
  work.catch(() => undefined); // once given up on, the work fails with nobody waiting for it
  try {
    return await ctx.sayIfSlow(Promise.race([work, ...expiry]), bounds.say);
  } finally {
    timer.abort();
  }
}
