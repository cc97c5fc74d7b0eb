// Chat sessions: one record each in the account's directory, and an empty order file per session
// whose name sorts by creation (`<stamp>.<session id>.<agent id or ->`), so the account's cap drops
// the oldest and a destroyed agent's sessions are found without reading any record.
import fs from 'node:fs';
import path from 'node:path';
import { createFileOnce } from '../../core/atomic-write.js';
import { SESSIONS_KEPT } from './caps.js';
import type { Locks } from '../../core/file-lock.js';
import { type Layout, fromSafeName, listDir, safeName } from './layout.js';
import { accountLock, recordLock } from './owned.js';
import type { RecordFiles, Stored } from './records.js';
import { readShaped, shapedChange } from './shapes.js';

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
  /** the last few turns only (HISTORY_KEPT): replies depend on recent history */
  history: StoredTurn[];
}

const ASSISTANT = '-';
let sequence = 0;

/** An order file's name: creation time, then a per-process sequence for sessions of the same millisecond. */
export function orderName(createdMs: number, sessionId: string, agentId: string | null, seq = sequence++): string {
  const stamp =
    Math.max(0, Math.floor(createdMs)).toString(36).padStart(10, '0') + (seq % 36 ** 4).toString(36).padStart(4, '0');
  return `${stamp}.${safeName(sessionId)}.${agentId === null ? ASSISTANT : safeName(agentId)}`;
}

function parseOrder(name: string): { sessionId: string; agentId: string | null } | undefined {
  const [stamp, session, agent, ...rest] = name.split('.');
  if (!stamp || !session || !agent || rest.length > 0) return undefined; // a temp file
  return { sessionId: fromSafeName(session), agentId: agent === ASSISTANT ? null : fromSafeName(agent) };
}

export class SessionFiles {
  constructor(
    private readonly layout: Layout,
    private readonly files: RecordFiles,
    private readonly locks: Locks,
    private readonly kept = SESSIONS_KEPT,
  ) {}

  private file(account: string, id: string): string {
    return this.layout.file(account, 'session', id);
  }

  /** The session as it is on disk now, with its version. */
  get(account: string, id: string): Stored<StoredSession> | undefined {
    return readShaped<StoredSession>('session', this.file(account, id));
  }

  /**
   * Adds a session, then drops the account's oldest beyond the cap (they are then 404). `check` runs
   * first, under the account's session lock, which forgetAgent holds too: a session of an agent
   * destroyed meanwhile is refused there, not written after its agent's sessions were removed.
   */
  create(account: string, session: StoredSession, createdMs: number, check?: () => void): Promise<void> {
    return this.locks.with(accountLock('session', account), async () => {
      check?.();
      this.write(account, session, orderName(createdMs, session.session_id, session.agent_id));
      const order = listDir(this.layout.orderDir(account))
        .filter((name) => parseOrder(name))
        .sort();
      for (const name of order.slice(0, Math.max(0, order.length - this.kept))) await this.drop(account, name);
    });
  }

  /** Writes a new session and its order file (the order file first: a record is never out of the cap's reach). */
  write(account: string, session: StoredSession, order: string): void {
    const orderFile = path.join(this.layout.orderDir(account), order);
    this.layout.ensure(this.layout.orderDir(account));
    const made = createFileOnce(orderFile, '');
    try {
      this.layout.ensure(this.layout.dir(account, 'session'));
      this.files.put(this.file(account, session.session_id), { v: 1, n: 0, record: session });
    } catch (err) {
      // a record the disk refused leaves no place in the cap behind
      if (made) fs.rmSync(orderFile, { force: true });
      throw err;
    }
  }

  /** Writes the next version of a session if nobody wrote it since `base` (false: read it again). */
  commit(account: string, base: Stored<StoredSession>, next: StoredSession): Promise<boolean> {
    return this.files.commit(recordLock('session', next.session_id), this.file(account, next.session_id), base, next);
  }

  /** Read-modify-write of a session (RecordFiles.update): `change` gets undefined if it is gone. */
  update<R>(account: string, id: string, change: (draft: StoredSession | undefined) => R): Promise<R> {
    const file = this.file(account, id);
    return this.files.update(recordLock('session', id), file, shapedChange('session', file, change));
  }

  /** Removes a destroyed agent's sessions (or every session of the agent, whatever its state). */
  forgetAgent(account: string, agentId: string): Promise<void> {
    return this.locks.with(accountLock('session', account), async () => {
      for (const name of listDir(this.layout.orderDir(account))) {
        if (parseOrder(name)?.agentId === agentId) await this.drop(account, name);
      }
    });
  }

  /** The record, under its lock (a turn being written is not resurrected), then the order file. */
  private async drop(account: string, orderFile: string): Promise<void> {
    const { sessionId } = parseOrder(orderFile)!;
    await this.locks.with(recordLock('session', sessionId), () => this.files.remove(this.file(account, sessionId)));
    fs.rmSync(path.join(this.layout.orderDir(account), orderFile), { force: true });
  }
}
