// Ctrl-C or SIGTERM while launch or apply holds its launch turn: what is under way is given up at
// once (a request on its way is left to the service, which may act on it), the turn is let go the
// moment the signal comes, and the command ends saying what may have reached the service.
import { InterruptedError, TerminatedError } from '../../../core/errors.js';
import type { Context } from '../../context.js';

export class Stop {
  private readonly controller = new AbortController();
  private readonly unlisten: Array<() => void>;
  private readonly stopped: Promise<never>;

  constructor(ctx: Context) {
    const stop = (reason: InterruptedError | TerminatedError) => () => {
      // the request given up still shows its wait: its line goes before the one saying why
      ctx.stopSpinners();
      this.controller.abort(reason);
    };
    // first on the signal: the race below is lost by whatever the work was waiting for
    this.stopped = new Promise<never>((_, reject) => {
      this.signal.addEventListener('abort', () => reject(this.signal.reason), { once: true });
    });
    this.stopped.catch(() => undefined); // told through race(), if anyone races
    this.unlisten = [
      ctx.signals.onInterrupt(stop(new InterruptedError())),
      ctx.signals.onTerminate(stop(new TerminatedError())),
    ];
  }

  /** Aborts on the first Ctrl-C or SIGTERM, its reason the error to end with. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The signal's error, if one came. */
  get reason(): InterruptedError | TerminatedError | undefined {
    return this.signal.aborted ? (this.signal.reason as InterruptedError | TerminatedError) : undefined;
  }

  /** `work`, or the signal's error as soon as one comes (`work` then goes on unheard). */
  race<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.stopped]);
  }

  end(): void {
    for (const stopListening of this.unlisten) stopListening();
  }
}

/** `fn` with a Stop listening for the signals, until it ends. */
export async function withStop<T>(ctx: Context, fn: (stop: Stop) => Promise<T>): Promise<T> {
  const stop = new Stop(ctx);
  try {
    return await fn(stop);
  } finally {
    stop.end();
  }
}
