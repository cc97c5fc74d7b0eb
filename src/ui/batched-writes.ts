// Pieces of a reply that arrive together (one read of the socket carries many SSE events) go out in
// one write: a write per piece cost a system call each, a third of a long reply's time on a pipe
// (bench/stream-throughput.js). Nothing waits for more text than what already came: the batch is
// written as soon as the event loop has handed over what that read held (setImmediate).

export class BatchedWrites {
  private pending: string[] = [];
  private scheduled = false;
  private chain: Promise<void> = Promise.resolve();
  private failure: { error: unknown } | undefined;

  /** `sink` writes one batch; an async sink's batches still go out one after another, in order. */
  constructor(private readonly sink: (text: string) => void | Promise<void>) {}

  push(text: string): void {
    this.pending.push(text);
    if (this.scheduled) return;
    this.scheduled = true;
    // a failing sink shows where flush() is awaited (the end of the reply), not as an unhandled rejection
    setImmediate(() => void this.flush().catch(() => undefined));
  }

  /** Writes what is pending now; resolves when every batch so far is out, rejects if any failed. */
  async flush(): Promise<void> {
    this.scheduled = false;
    if (this.pending.length > 0) {
      const text = this.pending.length === 1 ? this.pending[0]! : this.pending.join('');
      this.pending = [];
      // after a failure nothing more is written (the sink is broken), and the failure stays reported
      this.chain = this.chain.then(async () => {
        if (this.failure) return;
        try {
          await this.sink(text);
        } catch (error) {
          this.failure = { error };
        }
      });
    }
    await this.chain;
    if (this.failure) throw this.failure.error;
  }
}
