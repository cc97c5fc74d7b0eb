// Chat sessions shared by agent chat and the assistant: open or continue one, record a turn.
import { randomUUID } from 'node:crypto';
import { UUID_PATTERN } from '../contract.js';
import { ApiError } from './http.js';
import { HISTORY_KEPT, type State, type StoredSession } from './store.js';

/** Continues `sessionId` (which must belong to this owner and agent) or opens a new session. */
export function openSession(
  state: State,
  sessionId: string | undefined,
  owner: string,
  agentId: string | null,
  now: string,
): { session: StoredSession; isNew: boolean } {
  if (sessionId !== undefined) {
    const session = UUID_PATTERN.test(sessionId) ? state.sessions[sessionId.toLowerCase()] : undefined;
    if (!session || session.owner !== owner || session.agent_id !== agentId) throw new ApiError(404, 'Session not found');
    return { session, isNew: false };
  }
  const session: StoredSession = { session_id: randomUUID(), owner, agent_id: agentId, created_at: now, turns: 0, history: [] };
  state.sessions[session.session_id] = session;
  forgetOldSessions(state, owner);
  return { session, isNew: true };
}

/** [ours] sessions kept per account: every write rewrites the whole store, so it must not grow forever */
export const SESSIONS_KEPT = 200;

/** Drops an account's oldest sessions beyond SESSIONS_KEPT (a continued one is then 404 `Session not found`). */
function forgetOldSessions(state: State, owner: string): void {
  const mine = Object.values(state.sessions).filter((s) => s.owner === owner);
  if (mine.length <= SESSIONS_KEPT) return;
  // insertion order is creation order
  for (const s of mine.slice(0, mine.length - SESSIONS_KEPT)) delete state.sessions[s.session_id];
}

/** A destroyed agent's conversations go with it. */
export function forgetAgentSessions(state: State, agentId: string): void {
  for (const s of Object.values(state.sessions)) if (s.agent_id === agentId) delete state.sessions[s.session_id];
}

export function recordTurn(session: StoredSession, message: string, reply: string): void {
  session.turns += 1;
  session.history.push({ role: 'user', content: message }, { role: 'agent', content: reply });
  if (session.history.length > HISTORY_KEPT) session.history.splice(0, session.history.length - HISTORY_KEPT);
}

export function readSessionId(body: Record<string, unknown>): string | undefined {
  const value = body.session_id;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ApiError(400, 'session_id must be a string');
  return value;
}
