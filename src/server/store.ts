// The service's persistence: one file per record under <data dir>/records (store/layout.ts), so a
// write costs the record it changes. A write prepares its change outside any lock and commits it
// under the record's lock only if the record's version is still the one it read (store/records.ts);
// checks across records (the agent limit, the session cap) take their account's lock. Locks are held
// for a check-and-write only, kept fresh while held, and taken over from dead holders (core/file-lock.ts).
// A data dir with the older single state.json is migrated on open (store/migrate.ts).
import fs from 'node:fs';
import path from 'node:path';
import { makeDir, writeFileAtomic } from '../core/atomic-write.js';
import { asEnvironmentError } from '../core/errors.js';
import { DESTROYED_GRACE_MS, SESSIONS_KEPT } from './store/caps.js';
import { Locks, type LockOptions } from '../core/file-lock.js';
import { Layout } from './store/layout.js';
import { ensureLayout } from './store/migrate.js';
import { OwnedRecords, accountLock, type Listed } from './store/owned.js';
import { RecordFiles, type WriteHooks } from './store/records.js';
import { SessionFiles } from './store/session-files.js';
import { SimRecords } from './sim/records.js';

export { HISTORY_KEPT, SESSIONS_KEPT } from './store/caps.js';
export { StoreCorruptError, type Stored, type WriteHooks } from './store/records.js';
export type { StoredSession, StoredTurn } from './store/session-files.js';
export type { Found } from './store/owned.js';

export type AgentStatus = 'running' | 'paused' | 'destroyed';

export interface StoredAgent {
  agent_id: string;
  owner: string;
  name: string;
  description: string;
  status: AgentStatus;
  model: string;
  model_provider: string;
  created_at: string;
  updated_at: string;
  /** when it was destroyed: the record is purged DESTROYED_GRACE_MS later */
  destroyed_at?: string;
  bot_username: string | null;
  /** stored for the (simulated) bot bridge; never returned by the API */
  telegram_bot_token: string | null;
  evm_address: string;
  solana_address: string;
  soul_md: string;
  memory_md: string;
  skills: Record<string, boolean>;
  container_started_at: string;
  restarts: number;
}

export interface ClassicTrigger {
  type: 'scheduled' | 'alpha';
  cron?: string;
  match?: string;
  min_impact_rating?: number;
}

export interface StoredClassic {
  id: string;
  owner: string;
  user_id: string;
  name: string;
  description: string;
  data: { goal: string; instructions: string; memory_enabled: boolean; trading_enabled: boolean; model: string };
  triggers: ClassicTrigger[];
  enabled: boolean;
  stats: { runs: number; alerts: number; last_run_at: string | null };
  created_at: string;
  updated_at: string;
}

/** How often opening the store also tidies it (Store.tidy). */
export const TIDY_INTERVAL_MS = 60 * 60 * 1000;

export interface StoreOptions {
  /** the clock of destroyed_at and of purges (tests move it instead of waiting) */
  now?: () => number;
  lock?: LockOptions;
  hooks?: WriteHooks;
  destroyedGraceMs?: number;
  sessionsKept?: number;
  /** a record a listing had to leave out (not readable): said, so the listing need not fail whole */
  onLeftOut?: (message: string) => void;
}

export class Store {
  readonly layout: Layout;
  readonly agents: OwnedRecords<StoredAgent>;
  readonly classic: OwnedRecords<StoredClassic>;
  readonly sessions: SessionFiles;
  /** the simulated chains' state: paper accounts and seeded holdings (sim/records.ts) */
  readonly sim: SimRecords;
  readonly now: () => number;
  private readonly graceMs: number;
  private readonly locks: Locks;

  constructor(
    readonly dir: string,
    options: StoreOptions = {},
  ) {
    this.layout = new Layout(dir);
    this.now = options.now ?? Date.now;
    this.graceMs = options.destroyedGraceMs ?? DESTROYED_GRACE_MS;
    const locks = (this.locks = new Locks(this.layout.locks, options.lock));
    const files = new RecordFiles(locks, options.hooks);
    this.agents = new OwnedRecords(this.layout, files, locks, 'agent', options.onLeftOut);
    this.classic = new OwnedRecords(this.layout, files, locks, 'classic', options.onLeftOut);
    this.sessions = new SessionFiles(this.layout, files, locks, options.sessionsKept ?? SESSIONS_KEPT);
    this.sim = new SimRecords(path.join(this.layout.root, 'sim'), files, locks);
  }

  /**
   * Creates the data dir and the store's directory if missing (migrating state.json), and tidies up.
   * A store it cannot write (a read-only file system) fails here (EnvironmentError), not at the first write.
   */
  open(): this {
    makeDir(this.dir);
    ensureLayout(this.layout);
    for (const dir of [this.layout.locks, this.layout.owners, this.layout.accounts]) makeDir(dir);
    try {
      // every write takes a lock first
      fs.accessSync(this.layout.locks, fs.constants.W_OK);
    } catch (err) {
      throw asEnvironmentError(err, { action: 'cannot write in' }) ?? err;
    }
    this.tidy();
    return this;
  }

  /**
   * At most once per TIDY_INTERVAL_MS (every CLI command may open the store): temp files of writers
   * killed between write and rename (never read), and destroyed agents past their grace time in
   * accounts nobody lists (the others are purged as they are listed).
   */
  private tidy(): void {
    const stamp = path.join(this.layout.root, 'tidied');
    const last = fs.statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? -Infinity;
    if (Math.abs(this.now() - last) < TIDY_INTERVAL_MS) return;
    writeFileAtomic(stamp, '', { fsync: false });
    const at = new Date(this.now());
    fs.utimesSync(stamp, at, at);
    this.layout.sweepTemps();
    this.sim.sweepTemps();
    for (const account of this.layout.accountIds()) this.liveAgents(account);
  }

  /** The account's agents that are not destroyed, in launch order; destroyed ones past their grace time are purged. */
  liveAgents(account: string): Array<Listed<StoredAgent>> {
    const live: Array<Listed<StoredAgent>> = [];
    for (const entry of this.agents.list(account)) {
      if (entry.record.status !== 'destroyed') live.push(entry);
      else if (this.expired(entry.record)) this.agents.removeNow(account, entry.id);
    }
    return live;
  }

  private expired(agent: StoredAgent): boolean {
    const at = Date.parse(agent.destroyed_at ?? agent.updated_at);
    return !(at > this.now() - this.graceMs); // an unreadable date counts as long ago
  }

  /** Adds an agent under its account's lock, after `guard` (which may throw: the limit, the name) saw the live ones. */
  launchAgent(account: string, agent: StoredAgent, guard: (live: StoredAgent[]) => void): Promise<void> {
    return this.agents.insert(account, agent.agent_id, agent, () =>
      guard(this.liveAgents(account).map((e) => e.record)),
    );
  }

  /**
   * Changes an agent (OwnedRecords.update) under its account's lock too, after `guard` (which may
   * throw) saw the live ones: a rename, which launches and other renames must not race to one name.
   */
  changeAgentChecked<R>(
    account: string,
    id: string,
    guard: (live: StoredAgent[]) => void,
    change: (draft: StoredAgent | undefined) => R,
  ): Promise<R> {
    return this.locks.with(accountLock('agent', account), () => {
      guard(this.liveAgents(account).map((e) => e.record));
      return this.agents.update(account, id, change);
    });
  }
}
