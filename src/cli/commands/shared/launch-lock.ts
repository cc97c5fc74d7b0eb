// Launches take turns, per service and key, on this machine. A launch checks the list for the name
// (and the agent limit) and then launches; two runs at once both found the name free and made two
// agents of it, each with a wallet of its own. The embedded service refuses a second live agent of
// one name, but another service may not, so `launch` and `apply` hold an advisory lock from the list
// their check reads to their last launch. It is a lock file in the cache dir (core/file-lock.ts:
// taken over at once from a holder that died, from a live one only once it has given no sign of life
// for as long as a turn is waited for). Runs on other machines take no turn here: launch and apply
// read the list again after their launches for them (assertNoTwins).
import { createHash } from 'node:crypto';
import path from 'node:path';
import { cacheDir } from '../../../config/paths.js';
import type { ApiClient } from '../../../api/client.js';
import { superagents } from '../../../api/superagents.js';
import { sameAgentName } from '../../../contract.js';
import { asEnvironmentError, BadAnswerError, EnvironmentError, StateConflictError } from '../../../core/errors.js';
import { makeDir } from '../../../core/atomic-write.js';
import { LockTimeoutError, Locks, type HeldLock } from '../../../core/file-lock.js';
import type { Context } from '../../context.js';
import type { Stop } from './stop.js';

/** The longest wait for another run's turn: apply's launches are paced, and wait out 429s. */
export const LAUNCH_TURN_WAIT_MS = 2 * 60_000;

export function launchLockDir(env: NodeJS.ProcessEnv): string {
  return path.join(cacheDir(env), 'locks');
}

/** The lock of one service and key: named by a digest, so neither the key nor the URL is written anywhere. */
export function launchLockName(service: string, apiKey: string): string {
  const key = createHash('sha256').update(apiKey).digest('hex');
  return `launches.${createHash('sha256').update(`${service}\n${key}`).digest('hex').slice(0, 32)}`;
}

/** A refusal of the machine (read-only, full, no permission) where the lock is kept: exit 2 in words. */
function unusableDir(dir: string, err: unknown): unknown {
  const env = asEnvironmentError(err);
  if (!env) return err;
  const hint = 'make it writable, or set XDG_CACHE_HOME to a directory you can write';
  return new EnvironmentError(dir, env.code, 'cannot keep the launch lock in', env.full ? undefined : hint);
}

/**
 * Waits for this service's launch turn and takes it; the caller releases it, and so does `signal`
 * (Ctrl-C, SIGTERM) the moment it aborts, wherever the caller is. A wait of more than a moment is
 * said on stderr (also in a CI log), with the process waited for.
 */
export async function takeLaunchTurn(ctx: Context, signal?: AbortSignal): Promise<HeldLock> {
  const turn = await waitForTurn(ctx, signal);
  if (signal?.aborted) {
    turn.release();
    throw signal.reason;
  }
  signal?.addEventListener('abort', () => turn.release(), { once: true });
  return turn;
}

async function waitForTurn(ctx: Context, signal: AbortSignal | undefined): Promise<HeldLock> {
  const { client, embedded } = await ctx.api();
  // the embedded service listens on a new port in each process: its data dir is what it is
  const service = embedded ? `embedded ${embedded.dataDir}` : client.options.baseUrl;
  const name = launchLockName(service, client.options.apiKey ?? '');
  const dir = launchLockDir(ctx.env);
  let holder: { pid?: number } | undefined;
  const locks = new Locks(dir, {
    // a live run may be held up (stopped with Ctrl-Z, a busy machine) in the middle of its launches
    liveStaleMs: LAUNCH_TURN_WAIT_MS,
    maxWaitMs: LAUNCH_TURN_WAIT_MS,
    now: () => ctx.clock.now(),
    sleep: (ms) => ctx.clock.sleep(ms, signal),
    onBusy: (h) => (holder = h),
  });
  const minutes = LAUNCH_TURN_WAIT_MS / 60_000;
  const who = () => `another superagent launch or apply (pid ${holder?.pid ?? '?'})`;
  try {
    makeDir(dir);
    return await ctx.sayIfSlow(locks.acquire(name), () => {
      if (!holder) return; // a slow disk, not another run
      ctx.printer.warn(`Waiting for ${who()} to finish launching on this service (up to ${minutes} minutes)…`);
    });
  } catch (err) {
    if (err instanceof LockTimeoutError) {
      throw new StateConflictError(
        `${who()} has been launching on this service for over ${minutes} minutes`,
        `wait for it to finish, or end process ${holder?.pid ?? '?'}, then try again`,
      );
    }
    throw unusableDir(dir, err);
  }
}

/**
 * Before each launch: the turn is still this run's. A run held up for long (stopped, a busy machine)
 * may have been judged gone and its turn taken by another, which may launch the same names.
 */
export function assertTurnHeld(turn: HeldLock, name: string, hint?: string): void {
  if (turn.stillHeld()) return;
  const taken = 'another superagent run took over the launch turn on this service while this one was held up';
  throw new StateConflictError(`${taken}, so '${name}' was not launched`, hint);
}

/** Two live agents of a name this run launched: nothing that finds agents by name can tell them apart. */
export class TwinAgentsError extends BadAnswerError {
  constructor(
    message: string,
    /** the id of the one this run launched */
    readonly ours: string,
    hint?: string,
  ) {
    super(message, hint);
  }
}

/**
 * After the launches (`launched`: name, then the id this run got), on the list read once more: each
 * is the one live agent of its name. `whose` says which id is ours: `launched by this apply`.
 */
export async function assertNoTwins(
  client: ApiClient,
  launched: Iterable<[string, string]>,
  whose: string,
): Promise<void> {
  const live = await superagents.list(client);
  for (const [name, ours] of launched) {
    const twin = live.find((a) => a.agent_id !== ours && sameAgentName(a.name, name));
    if (!twin) continue;
    throw new TwinAgentsError(`two live agents are named '${name}': ${ours} (${whose}) and ${twin.agent_id}`, ours);
  }
}

/** `fn` in this service's launch turn; `stop` gives up the wait for it, and it, at once. */
export async function inLaunchTurn<T>(ctx: Context, stop: Stop, fn: (turn: HeldLock) => Promise<T>): Promise<T> {
  const turn = await stop.race(takeLaunchTurn(ctx, stop.signal));
  try {
    return await stop.race(fn(turn));
  } finally {
    turn.release();
  }
}
