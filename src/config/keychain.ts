// The OS keychain (the Secret Service on Linux, Keychain on macOS, Credential Manager on Windows),
// where `login` keeps a profile's key rather than in a plain file; the config file says only that
// the key is there. The binding loads when a key is stored, read or removed there, and never
// otherwise: a key from SUPERAGENT_API_KEY, --api-key or the file costs nothing and meets no
// keychain prompt (loading it took 6–29 ms on a busy 2-core machine: src/vendor/keyring.ts).
import path from 'node:path';
import type { Profile } from './file.js';

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

export interface Keychain {
  /** the key, or null when there is no entry; KeychainError when the keychain cannot be used */
  get(account: string): Promise<string | null>;
  set(account: string, key: string): Promise<void>;
  /** true when there was an entry to remove */
  delete(account: string): Promise<boolean>;
}

/** The keychain cannot be used (no D-Bus session, no Secret Service, locked, a refused prompt), in its words. */
export class KeychainError extends Error {
  override name = 'KeychainError';
}

type Binding = typeof import('../vendor/keyring.js');
type Entry = InstanceType<Binding['AsyncEntry']>;

/** The keychain of this machine, through @napi-rs/keyring, loaded on first use. */
export function osKeychain(): Keychain {
  let binding: Promise<Binding> | undefined;
  const use = async <T>(account: string, act: (entry: Entry) => Promise<T>): Promise<T> => {
    try {
      binding ??= import('../vendor/keyring.js');
      const { AsyncEntry } = await binding;
      // on Linux the Secret Service only: the binding would otherwise fall back to the kernel's
      // keyring, which forgets every key at the next reboot
      return await act(new AsyncEntry(KEYCHAIN_SERVICE, account, { linux: { store: 'secret-service' } }));
    } catch (err) {
      throw new KeychainError(oneLine(err));
    }
  };
  return {
    get: (account) => use(account, (entry) => entry.getPassword()),
    set: (account, key) => use(account, (entry) => entry.setPassword(key)),
    delete: (account) => use(account, (entry) => entry.deleteCredential()),
  };
}

/** The binding's reason, on one line and not endless (a missing native package lists every path it tried). */
function oneLine(err: unknown): string {
  const text = (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').trim() || 'no reason given';
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
