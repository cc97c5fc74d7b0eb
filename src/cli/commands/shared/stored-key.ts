// A profile's key where it is kept, the OS keychain or the config file: read for a command line
// that uses it, kept by `login`, removed by `logout` and `config unset api_key`.
import { keychainAccount, KeychainError, KeychainTimeoutError, keychainWords } from '../../../config/keychain.js';
import type { KeyStore } from '../../../config/keychain.js';
import type { Profile } from '../../../config/file.js';
import { keychainProfile, resolveConnection, type Connection, type ConnectionFlags } from '../../../config/resolve.js';
import { CredentialsError, LocalStateError } from '../../../core/errors.js';
import type { Context } from '../../context.js';
import { boundedWait } from './bounded-wait.js';

const account = (ctx: Context, name: string) => keychainAccount(name, ctx.config.path);
const loginAgain = (name: string) => `run 'superagent login --profile ${name}' again`;
const LOCKED = 'a locked keyring may be waiting to be unlocked';

/**
 * The longest wait for the keychain without --timeout (seconds): a keyring's unlock prompt seen by
 * someone leaves them time to type its password; one seen by nobody ends the command within it.
 */
const KEYCHAIN_WAIT_S = 30;

/** A bound of a connection's own for the keychain: a Tab's budget, and nothing said while it waits. */
export interface KeychainWait {
  ms?: number;
  quiet?: boolean;
}

type KeychainCall<T> = (stop: AbortSignal) => Promise<T>;

/**
 * A call to the keychain, bounded. A locked keyring answers once someone unlocks it, and its prompt
 * may be on a screen nobody sees (a desktop locked, a session over ssh): the wait is said on
 * stderr after a moment, and given up (the call stopped) after `wait.ms`, else --timeout, else
 * KEYCHAIN_WAIT_S, with a KeychainTimeoutError.
 */
async function askKeychain<T>(ctx: Context, call: KeychainCall<T>, wait: KeychainWait = {}): Promise<T> {
  const seconds = wait.ms !== undefined ? wait.ms / 1000 : (ctx.globals.timeout ?? KEYCHAIN_WAIT_S);
  const stop = new AbortController();
  const waiting = `Waiting for ${keychainWords()} to answer: a locked keyring may be asking to be unlocked`;
  return boundedWait(ctx, call(stop.signal), {
    ms: seconds * 1000,
    say: () => {
      if (!wait.quiet) ctx.printer.warn(`${waiting} (giving up after ${seconds} s)`);
    },
    giveUp: () => {
      stop.abort();
      return new KeychainTimeoutError(seconds);
    },
  });
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
  let key: string | null;
  try {
    key = await askKeychain(ctx, (signal) => ctx.keychain.get(account(ctx, name), signal), wait);
  } catch (err) {
    if (err instanceof KeychainTimeoutError) {
      const hint = `${LOCKED}: unlock it and run the command again, or allow longer with --timeout`;
      throw new CredentialsError(`${err.message} when asked for the key of profile '${name}'`, hint);
    }
    if (!(err instanceof KeychainError)) throw err;
    const why = `the key of profile '${name}' is in the OS keychain but it cannot be read: ${err.message}`;
    throw new CredentialsError(why, loginAgain(name));
  }
  if (key === null) {
    throw new CredentialsError(`the key of profile '${name}' should be in the OS keychain, but it is not there`, loginAgain(name));
  }
  return key;
}

/**
 * Puts the key of profile `name` in the keychain, or says in one line why it goes to the config file
 * instead (no keychain: a server, CI). `insecure` (--insecure-storage): the file, silently. A
 * keychain that does not answer is not "no keychain": most likely a locked one, which the person
 * logging in wants their key in; so nothing is saved (exit 2), rather than the key in the file.
 */
export async function keepKey(ctx: Context, name: string, key: string, insecure: boolean): Promise<KeyStore> {
  if (insecure) return 'file';
  try {
    await askKeychain(ctx, (signal) => ctx.keychain.set(account(ctx, name), key, signal));
    return 'keychain';
  } catch (err) {
    if (err instanceof KeychainTimeoutError) {
      const hint = `${LOCKED}: unlock it and log in again, or keep the key in the config file with --insecure-storage`;
      throw new LocalStateError(`${err.message}, so the key was not saved`, hint);
    }
    if (!(err instanceof KeychainError)) throw err;
    ctx.printer.warn(
      `No OS keychain to keep the key in (${err.message}): it is kept in ${ctx.config.path} (mode 0600) instead; ` +
        "'superagent login' again moves it once a keychain is unlocked, --insecure-storage skips the keychain",
    );
    return 'file';
  }
}

/** Removes the keychain's entry of profile `name`; `then`: what to run once the keychain can be used. */
export async function dropFromKeychain(ctx: Context, name: string, then: string): Promise<void> {
  try {
    await askKeychain(ctx, (signal) => ctx.keychain.delete(account(ctx, name), signal));
  } catch (err) {
    if (!(err instanceof KeychainError)) throw err;
    const why = `the key of profile '${name}' is in the OS keychain and cannot be removed from it: ${err.message}`;
    throw new LocalStateError(why, `unlock the keychain, then run '${then}' again`);
  }
}

/**
 * Removes the key of profile `name` from wherever it is kept, the keychain first (a keychain that
 * cannot be used leaves the profile as it was, to try again). Returns where it was.
 */
export async function forgetKey(ctx: Context, name: string, profile: Profile, command: string): Promise<KeyStore[]> {
  const kept: KeyStore[] = [];
  if (profile.api_key_store === 'keychain') {
    await dropFromKeychain(ctx, name, command);
    kept.push('keychain');
  }
  if (profile.api_key !== undefined) kept.push('file');
  if (kept.length === 0) return kept;
  await ctx.config.write((data) => {
    const stored = data.profiles?.[name];
    delete stored?.api_key;
    delete stored?.api_key_store;
  });
  return kept;
}

/** Where a key is kept, in words. */
export function keyStoreWords(store: KeyStore): string {
  return store === 'keychain' ? 'the OS keychain' : 'the config file';
}
