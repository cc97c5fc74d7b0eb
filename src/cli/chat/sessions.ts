// Chat sessions as the CLI speaks of them.
import path from 'node:path';
import { dataDir } from '../../config/paths.js';
import { privateDir, writeFileAtomic } from '../../core/atomic-write.js';
import { readRegularFile } from '../../core/regular-file.js';
import { SessionNotFoundError } from '../../api/errors.js';
import { rephrased } from '../../core/errors.js';
import type { Context } from '../context.js';

/**
 * A session the service does not know (a wrong --session, or one that expired): say how to go on;
 * a failure of the embedded service in its own words.
 */
export function explainChatError(err: unknown, ctx: Context): unknown {
  if (err instanceof SessionNotFoundError) {
    return rephrased(err, err.message, 'type /new to start a fresh conversation');
  }
  return ctx.explainFailure(err);
}

/**
 * The hosted assistant keeps no conversations (docs/api.md, Chat, sessions and the assistant): a
 * session asked for may come back as a new one.
 */
export function notContinued(asked: string, got: string): string {
  return (
    `the service did not continue session ${asked}: it answered ` +
    `in a new session (${got}), without the earlier messages`
  );
}

// ---------------------------------------------------------------------------------------------
// The last conversation with each agent, for `chat --continue` and the REPL: kept locally in the
// data dir, per profile and service (a session id means nothing to another service or account).

const FILE = 'last-sessions.json';
/** at most this many agents remembered (the oldest forgotten), so the file stays small */
const KEPT = 200;

type Kept = Record<string, { session_id: string; at: string }>;

export interface LastSessions {
  get(agentId: string): string | undefined;
  /** remembers; a failure to write only loses the convenience */
  set(agentId: string, sessionId: string): void;
}

export async function lastSessions(ctx: Context): Promise<LastSessions> {
  const { connection } = await ctx.api();
  const dir = dataDir(ctx.env);
  const file = path.join(dir, FILE);
  const scope = `${connection.profileName}|${connection.baseUrl ?? `embedded:${dir}`}`;
  const read = (): Kept => {
    try {
      // a FIFO in its place is not opened (it would block the chat): as if empty
      const data: unknown = JSON.parse(readRegularFile(file));
      return data && typeof data === 'object' && !Array.isArray(data) ? (data as Kept) : {};
    } catch {
      return {};
    }
  };
  return {
    get: (agentId) => read()[`${scope}|${agentId}`]?.session_id,
    set: (agentId, sessionId) => {
      const kept = read();
      delete kept[`${scope}|${agentId}`]; // re-added last: the order is the age
      kept[`${scope}|${agentId}`] = { session_id: sessionId, at: new Date(ctx.clock.now()).toISOString() };
      const entries = Object.entries(kept).slice(-KEPT);
      try {
        privateDir(dir);
        // no fsync: it is written as the reply's first text goes out, and a sync to disk there held
        // the reply back (~20 ms: bench/first-byte.js); the rename still keeps the file whole, and a
        // crash can only lose the convenience
        writeFileAtomic(file, JSON.stringify(Object.fromEntries(entries)), { fsync: false });
      } catch {
        // a read-only data dir: `--continue` will not find it, nothing worse
      }
    },
  };
}
