// A short-lived local cache of what completion asks the service (agent names and ids, skills), so
// pressing Tab does not spend the 60/min rate limit. One small JSON file per service and key, in the
// platform cache dir; the file name is a hash, so it reveals neither the URL nor the key.
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../core/atomic-write.js';
import { readRegularFile } from '../../core/regular-file.js';

// loaded on use: a static import of node:crypto would load it for every command (bench/get.js)
const crypto = () => process.getBuiltinModule('node:crypto');

/** How long an answer is good for: Tab after Tab within this time costs no request. */
export const CACHE_TTL_MS = 30_000;

export interface CachedAgent {
  id: string;
  name: string;
  status: string;
}

export interface CachedSkill {
  name: string;
  description: string;
  enabled: boolean;
}

interface Slot<T> {
  /** when the service was last asked, answered or not (a failing service is not asked on every Tab) */
  checkedAt: number;
  items: T[];
}

interface CacheData {
  agents?: Slot<CachedAgent>;
  skills?: Record<string, Slot<CachedSkill>>;
}

/** The cache file for one service and key. */
export function cacheFile(dir: string, identity: string): string {
  const hash = crypto().createHash('sha256').update(identity).digest('hex').slice(0, 24);
  return path.join(dir, `completion-${hash}.json`);
}

export class CandidateCache {
  private data: CacheData;

  constructor(
    readonly file: string,
    private readonly now: () => number = Date.now,
  ) {
    this.data = this.load();
  }

  private load(): CacheData {
    try {
      const parsed = JSON.parse(readRegularFile(this.file)) as unknown;
      return parsed && typeof parsed === 'object' ? (parsed as CacheData) : {};
    } catch {
      return {}; // missing, unreadable or not a file (a FIFO is never opened): as if empty
    }
  }

  private isFresh(slot: Slot<unknown> | undefined): boolean {
    const age = this.now() - (slot?.checkedAt ?? -Infinity);
    return age >= 0 && age < CACHE_TTL_MS;
  }

  agentsFresh(): boolean {
    return this.isFresh(this.data.agents);
  }

  agents(): CachedAgent[] {
    return Array.isArray(this.data.agents?.items) ? this.data.agents.items : [];
  }

  skillsFresh(agentId: string): boolean {
    return this.isFresh(this.data.skills?.[agentId]);
  }

  skills(agentId: string): CachedSkill[] {
    const items = this.data.skills?.[agentId]?.items;
    return Array.isArray(items) ? items : [];
  }

  /** Records an attempt: the new list, or (undefined) a failure that keeps the old list. */
  setAgents(items: CachedAgent[] | undefined): void {
    this.data.agents = { checkedAt: this.now(), items: items ?? this.agents() };
  }

  setSkills(agentId: string, items: CachedSkill[] | undefined): void {
    // only the agents still listed keep their skills, so the file cannot grow without end
    const live = new Set(this.agents().map((a) => a.id));
    const kept = Object.entries(this.data.skills ?? {}).filter(([id]) => live.has(id) && id !== agentId);
    this.data.skills = {
      ...Object.fromEntries(kept),
      [agentId]: { checkedAt: this.now(), items: items ?? this.skills(agentId) },
    };
  }

  /** Writes the file atomically (a half-written cache is never read). Failing to write is not an error. */
  save(): void {
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      // a throw-away cache: no flush to disk (a lost write costs one request)
      writeFileAtomic(this.file, JSON.stringify(this.data), { fsync: false });
    } catch {
      // a read-only cache dir only costs a request per Tab
    }
  }
}
