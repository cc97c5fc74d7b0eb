// Writes the service has promised but not yet made: a new session is written beside its reply's
// first pieces (deliver.ts), after the client has already seen its id. close() waits for them, so a
// service stopped meanwhile (Ctrl-C of a chat on the embedded service, `server` on SIGTERM) does not
// leave the client holding the id of a session that was never written.
export class PendingWrites {
  private readonly pending = new Set<Promise<void>>();

  /** `write`, tracked until it settles; its outcome is the caller's to handle, as before. */
  track<T>(write: Promise<T>): Promise<T> {
    const settled = write.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(settled);
    void settled.then(() => this.pending.delete(settled));
    return write;
  }

  /** Resolves once every write tracked so far (and any tracked meanwhile) has settled. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
  }
}
