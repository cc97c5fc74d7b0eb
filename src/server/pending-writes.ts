// Writes the service has promised but not yet made: a new session is written beside its reply's
// first pieces (deliver.ts), after the client has already seen its id. close() waits for them, so a
// service stopped meanwhile (Ctrl-C of a chat on the embedded service, `server` on SIGTERM) does not
// leave the client holding the id of a session that was never written. A failure is logged here, as
// it happens: the stream it belonged to may have ended long before (the client gone, a fault).
import { LoggedFailure } from './http.js';

export class PendingWrites {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly logFailure: (err: unknown) => void) {}

  /** `write`, tracked until it settles; a failure is logged at once and rethrown as a LoggedFailure. */
  track(write: Promise<void>): Promise<void> {
    const tracked = write.catch((err: unknown) => {
      this.logFailure(err);
      throw new LoggedFailure(err);
    });
    const settled = tracked.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(settled);
    void settled.then(() => this.pending.delete(settled));
    return tracked;
  }

  /** Resolves once every write tracked so far (and any tracked meanwhile) has ended, its failure logged. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
  }
}
