// guard's requests to the service within --budget a minute, the kill switch first: a pause never waits
// on the budget behind reads. Reads are paced to the budget less a reserve kept for pauses; a pause goes
// at once and is counted all the same.
import { RateBudget, type Pacer, type PacerClock } from '../../api/rate-budget.js';

export class GuardPacer implements Pacer {
  readonly reads: RateBudget;
  private urgent = 0;

  constructor(perMinute: number, clock: PacerClock) {
    const reserve = Math.min(5, Math.floor(perMinute / 5));
    this.reads = new RateBudget(Math.max(1, perMinute - reserve), clock);
  }

  /** `work` with its requests sent at once, whatever the budget says (pauses). */
  async first<T>(work: () => Promise<T>): Promise<T> {
    this.urgent++;
    try {
      return await work();
    } finally {
      this.urgent--;
    }
  }

  async beforeRequest(signal?: AbortSignal): Promise<void> {
    if (this.urgent > 0) this.reads.sent++;
    else await this.reads.beforeRequest(signal);
  }

  afterRequest(): void {
    this.reads.afterRequest();
  }
}
