// What every route handler can reach: the store, the clock-free runtime options and the faults.
import type { Provider } from '../contract.js';
import type { Faults } from './faults.js';
import type { PendingWrites } from './pending-writes.js';
import type { Simulation } from './sim/simulation.js';
import type { Store } from './store.js';

export interface Service {
  store: Store;
  faults: Faults;
  tokenDelayMs: number;
  /** every wait of the service (token delay, generation time); a test may record them instead */
  sleep: (ms: number) => Promise<void>;
  pingIntervalMs: number;
  assistantTimeLimitMs: number;
  connectedProviders: ReadonlySet<Provider>;
  /** benchmarking aid (bench/stream-throughput.js): send every reply as this many pieces */
  replyPieces?: number;
  /** writes promised to a client and still under way (a new session): close() waits for them */
  pendingWrites: PendingWrites;
  /** the simulated chains the agents' money lives on (sim/simulation.ts) */
  sim: Simulation;
}
