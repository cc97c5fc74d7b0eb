// A profile's key where it is kept, the OS keychain or the config file: read for a command line
// that uses it, kept by `login`, removed by `logout` and `config unset api_key`.
import {
  keychainAccount,
  keychainBusWords,
  KeychainError,
  KeychainTimeoutError,
  KeychainUnansweredError,
  keychainWords,
} from '../../../config/keychain.js';
import type { KeychainCallOptions, KeychainTrouble, KeyStore } from '../../../config/keychain.js';
import type { Profile } from '../../../config/file.js';
import { keychainProfile, resolveConnection, type Connection, type ConnectionFlags } from '../../../config/resolve.js';
import { CredentialsError, LocalStateError } from '../../../core/errors.js';
import type { Context } from '../../context.js';
import { boundedWait } from './bounded-wait.js';

const account = (ctx: Context, name: string) => keychainAccount(name, ctx.config.path);
const loginAgain = (name: string) => `run 'superagent login --profile ${name}' again`;
const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** Where a command that needs the keychain can be run, by what is wrong with it here. */
const WHERE_USABLE: Record<KeychainTrouble, string> = {
  absent: 'from a session with the keychain',
  locked: 'once the keyring is unlocked',
  other: 'once the keychain can be used',
};

/** `superagent COMMAND` again, where the keychain can be used. */
function again(err: KeychainError, command: string): string {
  if (err.kind === 'absent') return `run '${command}' again from a session with the keychain`;
  return `unlock the ${err.kind === 'locked' ? 'keyring' : 'keychain'}, then run '${command}' again`;
}

/**
 * The longest wait for the keychain without --timeout (seconds): a keyring's unlock prompt seen by
 * someone leaves them time to type its password; one seen by nobody ends the command within it.
 */
const KEYCHAIN_WAIT_S = 30;
/**
 * The longest wait for the keychain's service to be reached (seconds): a session bus answers in
 * milliseconds, so one that has not within this is hung or stopped, and no prompt will change that.
 */
const REACH_WAIT_S = 10;

/** A bound of a connection's own for the keychain: a Tab's budget, and nothing said while it waits. */
export interface KeychainWait {
  ms?: number;
  quiet?: boolean;
}

type KeychainCall<T> = (options: KeychainCallOptions) => Promise<T>;

/**
 * A call to the keychain (`what`: 'read the key', say), bounded. A locked keyring answers once someone
 * unlocks it, and its prompt may be on a screen nobody sees (a desktop locked, a session over ssh):
 * the wait is said on stderr after a moment, and given up (the call stopped) after `wait.ms`, else
 * --timeout, else KEYCHAIN_WAIT_S, with a KeychainTimeoutError. A keychain whose service was never
 * reached (a session bus that takes the connection and never answers) is no locked one: given up
 * after REACH_WAIT_S at most, with a KeychainUnansweredError naming the bus. A failure is said in
 * words; the binding's own (D-Bus internals) go to the --debug trace only.
 */
async function askKeychain<T>(ctx: Context, what: string, call: KeychainCall<T>, wait: KeychainWait = {}): Promise<T> {
  const seconds = wait.ms !== undefined ? wait.ms / 1000 : (ctx.globals.timeout ?? KEYCHAIN_WAIT_S);
  const stop = new AbortController();
  let reached = false;
  const bus = keychainBusWords(ctx.env);
  const locked = `Waiting for ${keychainWords()} to answer: a locked keyring may be asking to be unlocked`;
  const waiting = () =>
    reached
      ? `${locked} (giving up after ${seconds} s)`
      : `Waiting for ${bus} to answer (giving up after ${Math.min(seconds, REACH_WAIT_S)} s)`;
  try {
    return await boundedWait(ctx, call({ signal: stop.signal, reached: () => (reached = true) }), {
      ms: seconds * 1000,
      sooner: { ms: REACH_WAIT_S * 1000, holds: () => !reached },
      say: () => {
        if (!wait.quiet) ctx.printer.warn(waiting());
      },
      giveUp: (ms) => {
        stop.abort();
        return reached ? new KeychainTimeoutError(ms / 1000) : new KeychainUnansweredError(ms / 1000, bus);
      },
    });
  } catch (err) {
    if (ctx.globals.debug && err instanceof KeychainError && err.raw !== err.message) {
      const p = ctx.printer;
      p.stderrWrite(p.err.dim(`superagent: ${keychainWords()} failed to ${what}: ${err.raw}`) + '\n');
    }
    throw err;
  }
}

/** Where this command line connects; a profile's key kept in the keychain is read from there (and only then). */
export async function resolveWithStoredKey(
  ctx: Context,
  globals: ConnectionFlags = ctx.globals,
  wait?: KeychainWait,
): Promise<Connection> {
  const config = ctx.config.read();
  const name = keychainProfile(globals, ctx.env, config);
  const key = name === undefined ? undefined : await keychainKey(ctx, name, wait);
  return resolveConnection(globals, ctx.env, config, key);
}

/** The key of profile `name` from the keychain, or exit 3 saying why it cannot be had. */
export async function keychainKey(ctx: Context, name: string, wait?: KeychainWait): Promise<string> {
  const key = await keychainKeyOrWhyNot(ctx, name, wait);
  if (typeof key !== 'string') throw key.error;
  return key;
}

/** Why a profile's key kept in the keychain cannot be had: `short`, for whoami's Key line. */
export interface UnreadableKey {
  short: string;
  error: CredentialsError;
}

/** The key of profile `name` from the keychain, or why it cannot be had (the CredentialsError a command fails with). */
export async function keychainKeyOrWhyNot(
  ctx: Context,
  name: string,
  wait?: KeychainWait,
): Promise<string | UnreadableKey> {
  let key: string | null;
  try {
    key = await askKeychain(ctx, 'read the key', (options) => ctx.keychain.get(account(ctx, name), options), wait);
  } catch (err) {
    if (err instanceof KeychainTimeoutError || err instanceof KeychainUnansweredError) {
      const why = `${err.message} when asked for the key of profile '${name}'`;
      const locked = err instanceof KeychainTimeoutError ? 'it is locked: no' : 'its bus gave no';
      const short = `${locked} answer within ${err.seconds} s`;
      return { short, error: new CredentialsError(why, timedOutHint(err, name)) };
    }
    if (!(err instanceof KeychainError)) throw err;
    const here = err.kind === 'absent' ? ' here' : '';
    const why = `the key of profile '${name}' is in the OS keychain but it cannot be read${here}: ${err.message}`;
    const error = new CredentialsError(why, unreadableHint(err, name));
    return { short: `cannot be read${here}: ${err.message}`, error };
  }
  if (key === null) {
    const why = `the key of profile '${name}' should be in the OS keychain, but it is not there`;
    return { short: 'it is not there', error: new CredentialsError(why, loginAgain(name)) };
  }
  return key;
}

const inTheFile = (name: string) =>
  `'superagent login --profile ${name} --insecure-storage' to keep a key in the config file`;

/** What to do about a keychain that did not answer in time: unlock it; or, its bus hung, use another session. */
function timedOutHint(err: KeychainTimeoutError | KeychainUnansweredError, name: string): string {
  if (err instanceof KeychainTimeoutError) return 'unlock it and run the command again, or allow longer with --timeout';
  const elsewhere = 'run the command from a session whose keychain answers';
  return `that bus, or the keyring daemon on it, may be stopped or hung: ${elsewhere}, or ${inTheFile(name)}`;
}

/** What to do about a keychain that cannot give a key: use it where it can, or keep a key in the file instead. */
function unreadableHint(err: KeychainError, name: string): string {
  if (err.kind === 'absent') return `run the command from a session with the keychain, or ${inTheFile(name)}`;
  if (err.kind === 'locked') return `unlock the keyring and run the command again, or ${inTheFile(name)}`;
  return loginAgain(name);
}

/** Where `login` kept a key; `trouble`: why the keychain could not take it (it went to the file). */
export interface KeptKey {
  store: KeyStore;
  trouble?: KeychainError;
}

/**
 * Puts the key of profile `name` in the keychain, or returns why it goes to the config file instead (no
 * keychain: a server, CI, a session bus that never answers; keptInFileLine says it). `insecure`
 * (--insecure-storage): the file. A keychain reached that does not answer is not "no keychain": a
 * locked one, which the person logging in wants their key in; so nothing is saved (exit 2), rather
 * than the key in the file.
 */
export async function keepKey(ctx: Context, name: string, key: string, insecure: boolean): Promise<KeptKey> {
  if (insecure) return { store: 'file' };
  try {
    await askKeychain(ctx, 'keep the key', (options) => ctx.keychain.set(account(ctx, name), key, options));
    return { store: 'keychain' };
  } catch (err) {
    if (err instanceof KeychainTimeoutError) {
      const hint = 'unlock it and log in again, or pass --insecure-storage to keep the key in the config file';
      throw new LocalStateError(`${err.message}, so the key was not saved`, hint);
    }
    if (!(err instanceof KeychainError)) throw err;
    return { store: 'file', trouble: err };
  }
}

/**
 * The one line `login` says when the keychain could not take the key. `replaced`: the profile's key
 * was in the keychain, and stays there (the keychain cannot be used to remove it either).
 */
export function keptInFileLine(ctx: Context, trouble: KeychainError, replaced: boolean): string {
  const kept = `${capitalised(trouble.message)}: the key is kept in ${ctx.config.path} (mode 0600) instead`;
  if (replaced) {
    const where = WHERE_USABLE[trouble.kind];
    const both = `('superagent login' ${where} moves the new key there, 'superagent logout' there removes both)`;
    return `${kept}, and the key it replaces stays in the OS keychain ${both}`;
  }
  if (trouble.kind === 'absent') return `${kept} (--insecure-storage asks for that without this notice)`;
  if (trouble.kind === 'locked') return `${kept} (unlock the keyring and log in again to move it there)`;
  return `${kept} ('superagent login' again ${WHERE_USABLE.other} moves it there)`;
}

/** Removes the keychain's entry of profile `name`: true when there was one. */
function removeEntry(ctx: Context, name: string): Promise<boolean> {
  return askKeychain(ctx, 'remove the key', (options) => ctx.keychain.delete(account(ctx, name), options));
}

/** Removes the keychain's entry of profile `name`, which the profile says is there; `then`: what to run again. */
async function dropFromKeychain(ctx: Context, name: string, then: string): Promise<void> {
  try {
    await removeEntry(ctx, name);
  } catch (err) {
    if (!(err instanceof KeychainError)) throw err;
    const here = err.kind === 'absent' ? ' here' : '';
    const why = `the key of profile '${name}' is in the OS keychain and cannot be removed from it${here}`;
    throw new LocalStateError(`${why}: ${err.message}`, again(err, then));
  }
}

/**
 * `login` kept the key in the file: the keychain's copy of the key it replaces goes, or one line says it
 * stays and how to remove it later.
 */
export async function dropReplacedKey(ctx: Context, name: string): Promise<void> {
  try {
    await removeEntry(ctx, name);
  } catch (err) {
    if (!(err instanceof KeychainError)) throw err;
    // the login itself stands: the new key is saved and used
    const later = `'superagent logout' ${WHERE_USABLE[err.kind]} removes it (and the new key in the file)`;
    ctx.printer.warn(`The old key of profile '${name}' stays in the OS keychain (${err.message}): ${later}`);
  }
}

/**
 * A key the profile does not say is in the keychain may be there all the same: a login where no
 * keychain could be used left it (and said so). Looked for, and removed: true when there was one. A
 * session with no keychain at all cannot tell (false, said with --debug); a keychain that is there but
 * fails (a locked keyring: its prompt is for an entry of ours) leaves the profile as it was, exit 2.
 */
async function dropLeftover(ctx: Context, name: string, then: string): Promise<boolean> {
  try {
    return await removeEntry(ctx, name);
  } catch (err) {
    if (!(err instanceof KeychainError)) throw err;
    if (err.kind === 'absent') return false;
    const why = `the OS keychain may hold an old copy of the key of profile '${name}', and it cannot be removed`;
    throw new LocalStateError(`${why}: ${err.message}`, again(err, then));
  }
}

/** Where a key was removed from: the file; the keychain (`recorded`: the profile said so, `leftover`: it did not). */
export interface ForgottenKey {
  file: boolean;
  keychain: 'recorded' | 'leftover' | false;
}

/**
 * Removes the key of profile `name` from wherever it is kept: the keychain first (a keychain that cannot
 * be used leaves the profile as it was, to try again), looked in whatever the profile says, then the file.
 */
export async function forgetKey(
  ctx: Context,
  name: string,
  profile: Profile | undefined,
  command: string,
): Promise<ForgottenKey> {
  const recorded = profile?.api_key_store === 'keychain';
  let keychain: ForgottenKey['keychain'] = false;
  if (recorded) {
    await dropFromKeychain(ctx, name, command);
    keychain = 'recorded';
  } else if (await dropLeftover(ctx, name, command)) {
    keychain = 'leftover';
  }
  const file = profile?.api_key !== undefined;
  if (recorded || file) {
    await ctx.config.write((data) => {
      const stored = data.profiles?.[name];
      delete stored?.api_key;
      delete stored?.api_key_store;
    });
  }
  return { file, keychain };
}

/** Where a forgotten key was, in words ("the OS keychain", "the config file, and …"); undefined: nowhere. */
export function forgottenWords(gone: ForgottenKey): string | undefined {
  if (gone.keychain === 'recorded') return gone.file ? 'the OS keychain and the config file' : 'the OS keychain';
  if (gone.keychain === 'leftover') {
    if (gone.file) return 'the config file, and an earlier login left a copy in the OS keychain';
    return 'the OS keychain, where an earlier login left it';
  }
  return gone.file ? 'the config file' : undefined;
}

/** Where a key is kept, in words. */
export function keyStoreWords(store: KeyStore): string {
  return store === 'keychain' ? 'the OS keychain' : 'the config file';
}
