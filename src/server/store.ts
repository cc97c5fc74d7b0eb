// The service's persistence: one JSON document in the data dir.
// Reads are served from memory and refreshed when the file changes (another process wrote it).
// Writes take a cross-process lock, re-read, apply, write a temp file, fsync and rename,
// so several processes never lose each other's updates and a kill -9 leaves the old or new file whole.
import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { createFileOnce, removeStaleTemps, writeFileAtomic } from '../core/atomic-write.js';

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

export interface StoredTurn {
  role: 'user' | 'agent';
  content: string;
}

export interface StoredSession {
  session_id: string;
  owner: string;
  /** null for assistant sessions */
  agent_id: string | null;
  created_at: string;
  turns: number;
  /** the last few turns only: replies depend on recent history, and the file stays small */
  history: StoredTurn[];
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

export interface State {
  version: 1;
  superagents: Record<string, StoredAgent>;
  sessions: Record<string, StoredSession>;
  classic: Record<string, StoredClassic>;
}

export const HISTORY_KEPT = 20;

function emptyState(): State {
  return { version: 1, superagents: {}, sessions: {}, classic: {} };
}

export class StoreCorruptError extends Error {}

export class Store {
  readonly file: string;
  private state: State = emptyState();
  private signature = '';
  /** serialises this process's writers before they contend for the file lock */
  private queue: Promise<unknown> = Promise.resolve();
  private freshThisTurn = false;

  constructor(readonly dir: string) {
    this.file = path.join(dir, 'state.json');
  }

  /** Creates the data dir and the file if missing, and loads it. */
  open(): this {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    if (!fs.existsSync(this.file)) this.createEmpty();
    // a writer killed between write and rename leaves a temp file; it is never read
    removeStaleTemps(this.dir, path.basename(this.file));
    this.refresh();
    return this;
  }

  /** Creates the file whole (temp + link), so a concurrent reader never sees it half-written. */
  private createEmpty(): void {
    createFileOnce(this.file, JSON.stringify(emptyState()));
  }

  /** The current state, re-read only if another process replaced the file. Do not mutate. */
  read(): Readonly<State> {
    // one stat per event-loop turn is enough to see other processes' writes (and halves a GET's cost)
    if (!this.freshThisTurn) {
      this.refresh();
      this.freshThisTurn = true;
      setImmediate(() => {
        this.freshThisTurn = false;
      });
    }
    return this.state;
  }

  /**
   * Applies `change` to the freshest state under the lock and persists it.
   * If `change` throws, nothing is written and the error propagates.
   */
  update<T>(change: (state: State) => T): Promise<T> {
    const run = this.queue.then(() => this.locked(change));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async locked<T>(change: (state: State) => T): Promise<T> {
    const release = await lockfile.lock(this.file, {
      realpath: false,
      stale: 3000,
      update: 1000,
      retries: { retries: 400, minTimeout: 2, maxTimeout: 25, factor: 1.3 },
    });
    try {
      this.refresh();
      const draft = structuredClone(this.state);
      const result = change(draft);
      this.write(draft);
      return result;
    } finally {
      await release().catch(() => undefined);
    }
  }

  private write(next: State): void {
    writeFileAtomic(this.file, JSON.stringify(next));
    this.state = next;
    this.signature = this.statSignature();
  }

  private statSignature(): string {
    const st = fs.statSync(this.file);
    return `${st.ino}:${st.size}:${st.mtimeMs}`;
  }

  private refresh(): void {
    const signature = this.statSignature();
    if (signature === this.signature) return;
    const text = fs.readFileSync(this.file, 'utf8');
    let parsed: State;
    try {
      // an empty file (created by an older version or by hand) is an empty store
      parsed = (text.trim() === '' ? emptyState() : JSON.parse(text)) as State;
    } catch {
      throw new StoreCorruptError(`The data file ${this.file} is not valid JSON; move it aside to start afresh`);
    }
    this.state = { ...emptyState(), ...parsed };
    this.signature = signature;
  }
}
