// Chat sessions shared by agent chat and the assistant: open or continue one, and record a turn.
// The reply is composed before any lock is taken; the turn is then written only if the session is
// still the one the reply was composed on, and composed again on the newer session if not.
import { randomUUID } from 'node:crypto';
import { UUID_PATTERN } from '../contract.js';
import { ApiError } from './http.js';
import { HISTORY_KEPT, type Store, type Stored, type StoredSession } from './store.js';

export { SESSIONS_KEPT } from './store.js';

/** Compositions of one turn before its reply is appended to the newest history as it is. */
export const RECOMPOSE_ATTEMPTS = 5;

interface OpenedSession {
  /** the session as read, with its version; undefined for a new one */
  base: Stored<StoredSession> | undefined;
  session: StoredSession;
}

function sessionNotFound(): ApiError {
  return new ApiError(404, 'Session not found');
}

/** Continues `sessionId` (which must belong to this owner and agent) as it is now, or opens a new session. */
export function openSession(
  store: Store,
  sessionId: string | undefined,
  owner: string,
  agentId: string | null,
  now: string,
): OpenedSession {
  if (sessionId === undefined) {
    return {
      base: undefined,
      session: { session_id: randomUUID(), owner, agent_id: agentId, created_at: now, turns: 0, history: [] },
    };
  }
  const base = UUID_PATTERN.test(sessionId) ? store.sessions.get(owner, sessionId.toLowerCase()) : undefined;
  const session = base?.record;
  if (!session || session.owner !== owner || session.agent_id !== agentId) throw sessionNotFound();
  return { base, session };
}

export function recordTurn(session: StoredSession, message: string, reply: string): void {
  session.turns += 1;
  session.history.push({ role: 'user', content: message }, { role: 'agent', content: reply });
  if (session.history.length > HISTORY_KEPT) session.history.splice(0, session.history.length - HISTORY_KEPT);
}

export interface TurnRequest<R extends { content: string }> {
  sessionId: string | undefined;
  owner: string;
  agentId: string | null;
  message: string;
  /** the reply to `message` after `history` (slow: no lock is held while it runs) */
  compose: (history: StoredSession['history']) => R;
  /** runs once, after the first composition and before the turn is written (agent chat: its memory) */
  beforeWrite?: (session: StoredSession, reply: R, isNew: boolean) => Promise<void>;
  /** a new session only: runs under the lock its write takes (SessionFiles.create), and may refuse it by throwing */
  beforeCreate?: () => void;
}

export interface Turn<R> {
  session: StoredSession;
  reply: R;
  /**
   * Set for a new session, which is not written yet: deliverReply writes it while the reply's first
   * pieces go out (its write and fsync were most of the wait for a first byte), before the reply completes.
   */
  record?: () => Promise<void>;
}

/**
 * Composes the reply and records the turn (a new session: `record`);
 * the session written last is the one the reply answers.
 */
export async function takeTurn<R extends { content: string }>(store: Store, t: TurnRequest<R>): Promise<Turn<R>> {
  let reply: R | undefined;
  for (let attempt = 1; attempt <= RECOMPOSE_ATTEMPTS; attempt++) {
    const now = new Date(store.now()).toISOString();
    const { base, session } = openSession(store, t.sessionId, t.owner, t.agentId, now);
    reply = t.compose(session.history);
    if (attempt === 1) await t.beforeWrite?.(session, reply, base === undefined);
    recordTurn(session, t.message, reply.content);
    if (!base) {
      const createdMs = store.now();
      return { session, reply, record: () => store.sessions.create(t.owner, session, createdMs, t.beforeCreate) };
    }
    if (await store.sessions.commit(t.owner, base, session)) return { session, reply };
  }
  // a session written that often meanwhile: this reply goes after its newest history
  const last = reply!;
  const session = await store.sessions.update(t.owner, t.sessionId!.toLowerCase(), (draft) => {
    if (!draft) throw sessionNotFound();
    recordTurn(draft, t.message, last.content);
    return draft;
  });
  return { session, reply: last };
}

export function readSessionId(body: Record<string, unknown>): string | undefined {
  const value = body.session_id;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ApiError(400, 'session_id must be a string');
  return value;
}
