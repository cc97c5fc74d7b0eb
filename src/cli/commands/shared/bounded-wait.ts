// A wait on something that may never end (input whose writer keeps it open, a locked keychain whose
// unlock prompt nobody sees): said on stderr once it takes more than a moment, and given up when
// its time is up.
import type { Context } from '../../context.js';

export interface WaitBounds {
  /** the longest wait, in ms (none: unbounded) */
  ms?: number;
  /**
   * a shorter bound, which holds only if `holds()` when it comes: a keychain whose service has not
   * answered yet (a bus that does not answer in seconds never will, a locked keyring is given longer)
   */
  sooner?: { ms: number; holds: () => boolean };
  /** says on stderr what the command waits for (once the wait takes more than a moment, in a pipe too) */
  say: () => void;
  /** when the time is up (`ms`: the bound that came): lets go of the work, and returns the error to fail with */
  giveUp: (ms: number) => Error;
}

export async function boundedWait<T>(ctx: Context, work: Promise<T>, bounds: WaitBounds): Promise<T> {
  // work done at once (input there whole, a keychain in memory) ends within a turn of the event
  // loop: only work still under way starts a wait on the clock (no timer, and no sleep a fake clock would count)
  const nextTurn = new Promise<false>((resolve) => setImmediate(resolve, false));
  const ended = await Promise.race([
    work.then(
      () => true,
      () => true,
    ),
    nextTurn,
  ]);
  if (ended) return work;
  const timer = new AbortController();
  const expiry = bounds.ms === undefined && bounds.sooner === undefined ? [] : [expire(ctx, bounds, timer.signal)];
  work.catch(() => undefined); // once given up on, the work fails with nobody waiting for it
  try {
    return await ctx.sayIfSlow(Promise.race([work, ...expiry]), bounds.say);
  } finally {
    timer.abort();
  }
}

/** Fails with giveUp's error once a bound comes; never settles once `stopped` (the work ended first). */
async function expire(ctx: Context, { ms, sooner, giveUp }: WaitBounds, stopped: AbortSignal): Promise<never> {
  const never = new Promise<never>(() => undefined);
  let came: number | undefined;
  try {
    let slept = 0;
    // one that no longer holds (a keychain already reached) is not slept at all
    if (sooner !== undefined && sooner.holds() && (ms === undefined || sooner.ms < ms)) {
      await ctx.clock.sleep(sooner.ms, stopped);
      slept = sooner.ms;
      if (sooner.holds()) came = sooner.ms;
    }
    if (came === undefined && ms !== undefined) {
      await ctx.clock.sleep(ms - slept, stopped);
      came = ms;
    }
  } catch {
    return never; // the sleep was stopped
  }
  if (came === undefined) return never;
  throw giveUp(came);
}
