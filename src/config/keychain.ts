// The OS keychain (the Secret Service on Linux, Keychain on macOS, Credential Manager on Windows),
// where `login` keeps a profile's key rather than in a plain file; the config file says only that
// the key is there. The binding is used when a key is stored, read or removed there, and never
// otherwise: a key from SUPERAGENT_API_KEY, --api-key or the file costs nothing and meets no
// keychain prompt.
import path from 'node:path';
import type { Profile } from './file.js';
import { inKeychainProcess, type KeychainRequest } from './keychain-process.js';

/** The service every entry is filed under (`secret-tool search service superagent` lists them). */
export const KEYCHAIN_SERVICE = 'superagent';

/**
 * The entry of a profile's key: one per profile of one config file, so two config dirs with a
 * profile of the same name never share (or overwrite) a key. It does not name the base URL: the key
 * stays the profile's when its base URL changes, as a key in the file does.
 */
export function keychainAccount(profile: string, configPath: string): string {
  // absolute: SUPERAGENT_CONFIG_DIR may be relative, and the same file must name the same entry from any dir
  return `${profile}@${path.resolve(configPath)}`;
}

/** Where a profile keeps its key: in the keychain, in the file, or nowhere. */
export type KeyStore = 'keychain' | 'file';

/** A key in the file wins (one written before keys went to the keychain keeps working). */
export function keyStoreOf(profile: Profile | undefined): KeyStore | null {
  if (profile?.api_key !== undefined) return 'file';
  return profile?.api_key_store === 'keychain' ? 'keychain' : null;
}

export interface KeychainCallOptions {
  /** stop waiting for the answer (the call is abandoned, and fails with a KeychainError) */
  signal?: AbortSignal;
  /**
   * called once the keychain's service has answered, before the call itself: a wait after it is the
   * call's own (a locked keyring's unlock prompt), one before it a bus that does not answer
   */
  reached?: () => void;
}

export interface Keychain {
  /** the key, or null when there is no entry; KeychainError when the keychain cannot be used */
  get(account: string, options?: KeychainCallOptions): Promise<string | null>;
  set(account: string, key: string, options?: KeychainCallOptions): Promise<void>;
  /** true when there was an entry to remove */
  delete(account: string, options?: KeychainCallOptions): Promise<boolean>;
}

/**
 * Why the keychain cannot be used, by the advice it needs: `absent`, none in this session (no D-Bus
 * session, no Secret Service: a server, an ssh login), so use it from a session that has one;
 * `locked`, a locked keyring (its prompt dismissed, or not answered), so unlock it; `other`.
 */
export type KeychainTrouble = 'absent' | 'locked' | 'other';

/**
 * What the binding says (Linux, @napi-rs/keyring 2.1, measured), in words: its own text names D-Bus
 * internals ("Using X11 for dbus-daemon autolaunch was disabled at compile time…").
 */
const NO_SECRET_SERVICE = 'no Secret Service in this session';
const BUS = 'DBUS_SESSION_BUS_ADDRESS';
const TROUBLES: Array<[RegExp, string, KeychainTrouble]> = [
  [/autolaunch|set your DBUS_SESSION_BUS_ADDRESS/, `${NO_SECRET_SERVICE} (${BUS} is not set)`, 'absent'],
  [/DBus error: Failed to connect to socket/, `${NO_SECRET_SERVICE} (nothing answers at ${BUS})`, 'absent'],
  [
    /org\.freedesktop\.secrets was not provided|ServiceUnknown/,
    `${NO_SECRET_SERVICE} (no keyring daemon, such as GNOME Keyring, runs on its D-Bus)`,
    'absent',
  ],
  [/unlock prompt was dismissed/, 'the keyring is locked (its unlock prompt was dismissed)', 'locked'],
  [
    /Secret Service: no result found/,
    'no unlocked keyring to keep it in (the prompt to unlock or create one was dismissed)',
    'locked',
  ],
  [/(Cannot find|Failed to load) native binding/, "the keychain's binding is not installed for this platform", 'other'],
];

/** The keychain cannot be used (no D-Bus session, no Secret Service, locked, a refused prompt), in words. */
export class KeychainError extends Error {
  override name = 'KeychainError';
  readonly kind: KeychainTrouble;
  /** the binding's own text (--debug shows it) */
  readonly raw: string;

  constructor(raw: string, said: Said = saidOf(raw)) {
    super(said.words);
    this.kind = said.kind;
    this.raw = raw;
  }
}

interface Said {
  words: string;
  kind: KeychainTrouble;
}

function saidOf(raw: string): Said {
  const known = TROUBLES.find(([pattern]) => pattern.test(raw));
  return known ? { words: known[1], kind: known[2] } : { words: oneLine(raw), kind: 'other' };
}

/**
 * The keychain's service answered, but the call did not end in time: a locked keyring, its unlock
 * prompt answered by nobody (on a screen nobody sees, or none at all).
 */
export class KeychainTimeoutError extends KeychainError {
  override name = 'KeychainTimeoutError';

  constructor(readonly seconds: number) {
    const words = `${keychainWords()} is locked: no answer within ${seconds} s`;
    super(words, { words, kind: 'locked' });
  }
}

/**
 * The keychain's service was never reached: its D-Bus session bus (or the keyring daemon on it) took
 * the connection and never answered, a hung or stopped bus. No keychain to be had in this session.
 */
export class KeychainUnansweredError extends KeychainError {
  override name = 'KeychainUnansweredError';

  /** `where`: keychainBusWords() */
  constructor(
    readonly seconds: number,
    where: string,
  ) {
    const words = `${where} did not answer within ${seconds} s`;
    super(words, { words, kind: 'absent' });
  }
}

const KEYCHAIN_OF: Partial<Record<NodeJS.Platform, string>> = {
  linux: 'Secret Service',
  darwin: 'macOS Keychain',
  win32: 'Windows Credential Manager',
};

/** The keychain of this platform, as messages name it: "the OS keychain (Secret Service)". */
export function keychainWords(platform: NodeJS.Platform = process.platform): string {
  const which = KEYCHAIN_OF[platform];
  return which === undefined ? 'the OS keychain' : `the OS keychain (${which})`;
}

/**
 * The keychain as reached through its D-Bus session bus, which messages name when it did not answer:
 * "the OS keychain (D-Bus session bus at unix:path=/run/user/1000/bus)". Elsewhere, keychainWords().
 */
export function keychainBusWords(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  // the first address is the one tried; its guid says nothing to a person
  const address = env.DBUS_SESSION_BUS_ADDRESS?.split(';')[0]?.replace(/,guid=[0-9a-f]*/i, '');
  if (platform !== 'linux' || !address) return keychainWords(platform);
  return `the OS keychain (D-Bus session bus at ${oneLine(address.replace(/[^\x21-\x7e]/g, '?'))})`;
}

/** The keychain of this machine, through @napi-rs/keyring: each call in a process of its own (keychain-process.ts). */
export function osKeychain(): Keychain {
  const call = <T>(request: KeychainRequest, options: KeychainCallOptions = {}) =>
    inKeychainProcess<T>(request, options).catch((err: unknown) => {
      throw new KeychainError(err instanceof Error ? err.message : String(err));
    });
  return {
    get: (account, options) => call<string | null>({ op: 'get', service: KEYCHAIN_SERVICE, account }, options),
    set: (account, key, options) => call<void>({ op: 'set', service: KEYCHAIN_SERVICE, account, key }, options),
    delete: (account, options) => call<boolean>({ op: 'delete', service: KEYCHAIN_SERVICE, account }, options),
  };
}

/** The binding's reason, on one line and not endless (a missing native package lists every path it tried). */
function oneLine(raw: string): string {
  const text = raw.replace(/\s+/g, ' ').trim() || 'no reason given';
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
