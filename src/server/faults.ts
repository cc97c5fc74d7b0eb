// Faults on demand for client tests (CLI.md `server --fault-*`); all off by default.
import { ApiError } from './http.js';

export interface FaultOptions {
  /** added before every answer */
  latencyMs?: number;
  /** share (0..1) of requests answered 500 or 503 */
  errorRate?: number;
  /** every stream is cut (socket destroyed, no `done`) after this many pieces */
  cutStreamAfter?: number;
  /** every agent reports `healthy: false` */
  unhealthy?: boolean;
}

export class Faults {
  private served = 0;

  constructor(readonly options: FaultOptions = {}, private readonly random: () => number = Math.random) {}

  /** whether any per-request fault is on (the hot path skips beforeAnswer otherwise) */
  get active(): boolean {
    return (this.options.latencyMs ?? 0) > 0 || (this.options.errorRate ?? 0) > 0;
  }

  async beforeAnswer(): Promise<void> {
    const { latencyMs = 0, errorRate = 0 } = this.options;
    if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));
    if (errorRate > 0 && this.random() < errorRate) {
      // alternate so clients meet both a crash (500) and an overload (503)
      const status = this.served++ % 2 === 0 ? 503 : 500;
      throw new ApiError(status, status === 503 ? 'Service temporarily unavailable (injected fault)' : 'Internal server error (injected fault)');
    }
  }

  get cutStreamAfter(): number | undefined {
    const n = this.options.cutStreamAfter;
    return n !== undefined && n >= 0 ? n : undefined;
  }

  get unhealthy(): boolean {
    return this.options.unhealthy === true;
  }
}
