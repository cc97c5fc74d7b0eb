// Faults on demand for client tests (docs/cli.md `server --fault-*`); all off by default.
import { ApiError } from './http.js';
import type { Interruption } from './sse.js';

export interface FaultOptions {
  /** added before every answer */
  latencyMs?: number;
  /** share (0..1) of requests answered 500 or 503 (a stream that has begun fails in-band) */
  errorRate?: number;
  /** every stream sends this many pieces, then an `error` event, then the connection is dropped */
  cutStreamAfter?: number;
  /** every agent reports `healthy: false` */
  unhealthy?: boolean;
  /** programmatic only (tests): latency and the error rate apply to the requests it picks, no others */
  onlyFor?: (request: { method: string; path: string }) => boolean;
}

export const CUT_STREAM_MESSAGE = 'Stream interrupted by an injected fault';

export class Faults {
  private served = 0;

  constructor(
    readonly options: FaultOptions = {},
    private readonly random: () => number = Math.random,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  /** whether any per-request fault is on (the hot path skips draw otherwise) */
  get active(): boolean {
    return (this.options.latencyMs ?? 0) > 0 || (this.options.errorRate ?? 0) > 0;
  }

  /** Waits the added latency, then returns the failure this request draws, if any. */
  async draw(request: { method: string; path: string }): Promise<ApiError | undefined> {
    const { latencyMs = 0, errorRate = 0, onlyFor } = this.options;
    if (onlyFor && !onlyFor(request)) return undefined;
    if (latencyMs > 0) await this.sleep(latencyMs);
    if (errorRate <= 0 || this.random() >= errorRate) return undefined;
    // alternate so clients meet both a crash (500) and an overload (503)
    const status = this.served++ % 2 === 0 ? 503 : 500;
    return new ApiError(
      status,
      status === 503 ? 'Service temporarily unavailable (injected fault)' : 'Internal server error (injected fault)',
    );
  }

  get cutStreamAfter(): number | undefined {
    const n = this.options.cutStreamAfter;
    return n !== undefined && n >= 0 ? n : undefined;
  }

  /**
   * How a stream of `pieces` pieces fails, if it does: cut after `cutStreamAfter` pieces, or — for
   * a request that drew `drawn` — after about half of them; whichever comes first.
   */
  streamInterruption(pieces: number, drawn: ApiError | undefined): Interruption | undefined {
    const cut = this.cutStreamAfter;
    const half = Math.floor(pieces / 2);
    if (drawn && (cut === undefined || half < cut)) {
      return { afterPieces: half, statusCode: drawn.statusCode, message: drawn.message, drop: false };
    }
    if (cut === undefined) return undefined;
    return { afterPieces: cut, statusCode: 502, message: CUT_STREAM_MESSAGE, drop: true };
  }

  get unhealthy(): boolean {
    return this.options.unhealthy === true;
  }
}
