// Where the simulation keeps its state in the data dir, beside the agents' records:
//   records/sim/paper.<address>.json   an agent's paper Hyperliquid account (made at launch, removed at destroy)
//   records/sim/seed.<address>.json    holdings a test or demo gave an address
//   records/sim/market.scenario.json   the scenario under way: when it began, from what level (shared)
//   records/sim/market.clock.json      the market step at a time, at a speed: a restart at another speed goes on
// Versioned record files like the rest of the store (store/records.ts), each under its own lock.
import { makeDir, removeStaleTemps } from '../../core/atomic-write.js';
import type { Locks } from '../../core/file-lock.js';
import { safeName } from '../store/layout.js';
import { readRecord, type RecordFiles } from '../store/records.js';
import type { PaperAccount } from './paper.js';
import type { PmAccount } from './polymarket.js';
import { addressKey, type SimChain } from './tokens.js';

export interface PaperRecord {
  account: string;
  agent_id: string;
  address: string;
  paper: PaperAccount;
  /** its paper Polymarket account (polymarket.ts); missing in a record from before them */
  polymarket?: PmAccount;
}

export interface SeededHolding {
  chain: SimChain;
  /** the token's symbol, as the token list spells it */
  asset: string;
  /** an exact decimal string */
  amount: string;
}

export interface SeedRecord {
  holdings: SeededHolding[];
}

type SimKind = 'paper' | 'seed' | 'market';

export class SimRecords {
  constructor(
    private readonly dir: string,
    private readonly files: RecordFiles,
    private readonly locks: Locks,
  ) {}

  private file(kind: SimKind, address: string): string {
    return `${this.dir}/${kind}.${safeName(addressKey(address))}.json`;
  }

  private lock(kind: SimKind, address: string): string {
    return `sim-${kind}.${safeName(addressKey(address))}`;
  }

  read<T>(kind: SimKind, address: string): T | undefined {
    return this.files.cached<T>(this.file(kind, address))?.record;
  }

  /** Writes the record whole, whatever was there. */
  async put<T>(kind: SimKind, address: string, record: T): Promise<void> {
    makeDir(this.dir);
    const file = this.file(kind, address);
    await this.locks.with(this.lock(kind, address), () => {
      const base = readRecord<T>(file);
      this.files.put(file, { v: (base?.v ?? 0) + 1, n: 0, record });
    });
  }

  /** Read-modify-write (RecordFiles.update): `change` gets undefined when there is none. */
  update<T, R>(kind: SimKind, address: string, change: (draft: T | undefined) => R): Promise<R> {
    return this.files.update(this.lock(kind, address), this.file(kind, address), change);
  }

  /** Temp files of writers killed before their rename (Store.tidy). */
  sweepTemps(): void {
    removeStaleTemps(this.dir, 'paper');
    removeStaleTemps(this.dir, 'seed');
    removeStaleTemps(this.dir, 'market');
  }

  remove(kind: SimKind, address: string): Promise<void> {
    return this.locks.with(this.lock(kind, address), () => this.files.remove(this.file(kind, address)));
  }
}
