// The config file: named profiles (base URL, key, default output, launch model) plus the active
// profile's name. JSON, written atomically, 0600 in a 0700 dir (docs/cli.md). Every change is a
// read-modify-write under a lock beside the file, so two commands at once both keep their change;
// reading takes no lock (the rename shows a reader the old file or the new one, never half).
import fs from 'node:fs';
import path from 'node:path';
import { linkTarget, privateDir } from '../core/atomic-write.js';
import { LocalStateError, UsageError, asEnvironmentError } from '../core/errors.js';
import { FileTooLargeError, NotRegularFileError, readRegularFile } from '../core/regular-file.js';
import { LockTimeoutError, Locks, type HeldLock, type LockOptions } from '../core/file-lock.js';
import { CONFIG_VERSION, migrate, saveWithConf, versionOf } from './conf-store.js';
import type { ConfigData, Profile } from './shape.js';

export { CONFIG_VERSION };

export type { ConfigData, Profile };

/** Where the settings live; a test gives one in memory. */
export interface ConfigStore {
  readonly path: string;
  read(): ConfigData;
  /** applies `change` to the current contents and saves the result */
  write(change: (data: ConfigData) => void): Promise<void>;
}

export const CONFIG_NAME = 'config';
/** The lock every change of the config file takes (a file beside it: lock.config) */
export const CONFIG_LOCK = 'config';

/** where the money commands read each source: an http(s) URL, or `off` */
export const ENDPOINT_SETTINGS = [
  'rpc.ethereum',
  'rpc.arbitrum',
  'rpc.base',
  'rpc.polygon',
  'rpc.bsc',
  'rpc.optimism',
  'rpc.solana',
  'hyperliquid_url',
  'polymarket_url',
] as const satisfies ReadonlyArray<keyof Profile>;

/** every field a profile may hold, in the order `config list` shows them */
export const PROFILE_KEYS = [
  'base_url',
  'api_key',
  'api_key_store',
  'output',
  'model',
  'provider',
  'render',
  ...ENDPOINT_SETTINGS,
] as const satisfies ReadonlyArray<keyof Profile>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first field of a hand-edited file whose type no command could use (`"api_key": ["x"]`), named. */
function wrongField(data: Record<string, unknown>): string | undefined {
  const { version } = data;
  const wholeFromOne = Number.isInteger(version) && (version as number) >= 1;
  if (version !== undefined && !wholeFromOne) return '"version" is not a whole number from 1';
  if (data.active_profile !== undefined && typeof data.active_profile !== 'string')
    return '"active_profile" is not a string';
  if (data.profiles === undefined) return undefined;
  if (!isObject(data.profiles)) return '"profiles" is not an object';
  for (const [name, profile] of Object.entries(data.profiles)) {
    if (!isObject(profile)) return `"profiles.${name}" is not an object`;
    // every setting is text (settings.ts checks the values themselves when they are set)
    for (const key of PROFILE_KEYS) {
      if (profile[key] !== undefined && typeof profile[key] !== 'string')
        return `"profiles.${name}.${key}" is not a string`;
    }
    // where the key is: a value this version does not know would leave the profile with no key
    if (profile.api_key_store !== undefined && profile.api_key_store !== 'keychain') {
      return `"profiles.${name}.api_key_store" is not "keychain"`;
    }
  }
  return undefined;
}

export interface ConfigFileOptions {
  /** told once, in one line, when the file holds a key and other users can read or change it */
  warn?: (line: string) => void;
  /** the lock's timings (a test shortens the wait) */
  lock?: LockOptions;
}

/**
 * How long a change waits for another command's: a holder keeps the lock for a read and a write, so
 * a longer wait means a holder stuck or stopped (taken over once its lock is stale, 10 s).
 */
const LOCK_WAIT_MS = 15_000;

/** Far more than any profiles take: a larger file (read by every command) is refused, unread. */
export const CONFIG_MAX_BYTES = 1024 ** 2;

export class ConfigFile implements ConfigStore {
  readonly path: string;
  private readonly locks: Locks;
  private warned = false;

  constructor(
    readonly dir: string,
    private readonly options: ConfigFileOptions = {},
  ) {
    this.path = path.join(dir, `${CONFIG_NAME}.json`);
    this.locks = new Locks(dir, { maxWaitMs: LOCK_WAIT_MS, ...options.lock });
  }

  read(): ConfigData {
    let text: string;
    try {
      // never opened unless a regular file: a FIFO there would hold every command
      text = readRegularFile(this.path, CONFIG_MAX_BYTES);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
      if (err instanceof FileTooLargeError) {
        throw new UsageError(`the config file ${err.message}`, "move it aside, then run 'superagent login' again");
      }
      if (err instanceof NotRegularFileError) {
        throw new UsageError(
          `the config file ${this.path} is ${err.kind}, not a regular file`,
          "move it aside, then run 'superagent login' again",
        );
      }
      throw asEnvironmentError(err, { path: this.path, action: 'cannot read' }) ?? err;
    }
    if (text.trim() === '') return {};
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw this.corrupt('it is not valid JSON');
    }
    if (data === null || typeof data !== 'object' || Array.isArray(data)) throw this.corrupt('it is not a JSON object');
    const why = wrongField(data as Record<string, unknown>);
    if (why) throw this.corrupt(why);
    this.warnIfOpen(data as ConfigData);
    // an older file is read as the current version: the next write saves it so (through conf)
    return migrate(data as ConfigData);
  }

  /** A key in a file other users can read (a copy, a dotfiles checkout) is theirs too: say so, once. */
  private warnIfOpen(data: ConfigData): void {
    if (this.warned || !this.options.warn || process.platform === 'win32') return;
    if (!Object.values(data.profiles ?? {}).some((profile) => profile.api_key !== undefined)) return;
    const mode = (fs.statSync(this.path, { throwIfNoEntry: false })?.mode ?? 0) & 0o777;
    if ((mode & 0o077) === 0) return;
    this.warned = true;
    const how = mode & 0o044 ? 'read' : 'change';
    const [file, octal] = [this.path, `0${mode.toString(8)}`];
    this.options.warn(
      `The config file ${file} holds an API key and others can ${how} it (mode ${octal}): run 'chmod 600 ${file}'`,
    );
  }

  private corrupt(why: string): UsageError {
    return new UsageError(
      `the config file ${this.path} is corrupt: ${why}`,
      `fix it, or move it aside and run 'superagent login' again`,
    );
  }

  async write(change: (data: ConfigData) => void): Promise<void> {
    privateDir(this.dir);
    const lock = await this.lock();
    try {
      const data = this.read();
      // a later superagent's file may mean more than this one knows: never written over
      if (versionOf(data) > CONFIG_VERSION) {
        const newer = `is of version ${versionOf(data)}, newer than this superagent knows (${CONFIG_VERSION})`;
        throw new UsageError(`the config file ${this.path} ${newer}`, 'upgrade superagent, then try again');
      }
      change(data);
      // a holder stopped for longer than the lock's staleness lost
      // it: the change of the command that took it over stands
      if (!lock.stillHeld()) {
        throw new LocalStateError(
          `the config file ${this.path} was changed by another command meanwhile`,
          'nothing saved: run this one again',
        );
      }
      // through a symbolic link (a dotfiles checkout): the file it points to is replaced, the link stays
      await saveWithConf(linkTarget(this.path), data);
    } finally {
      lock.release();
    }
  }

  private async lock(): Promise<HeldLock> {
    try {
      return await this.locks.acquire(CONFIG_LOCK);
    } catch (err) {
      // the lock is ours to know of: a disk that refuses it refuses the config file
      const lockFile = this.locks.fileFor(CONFIG_LOCK);
      if (!(err instanceof LockTimeoutError)) {
        // the lock itself in the way (a directory there) is named; anything else is the config file's
        const at = (err as NodeJS.ErrnoException).path === lockFile ? lockFile : this.path;
        throw asEnvironmentError(err, { path: at, action: 'cannot write' }) ?? err;
      }
      const held = err.message.charAt(0).toLowerCase() + err.message.slice(1);
      const hint = `try again; if no superagent command is running, remove ${lockFile}`;
      throw new LocalStateError(`cannot change the config file ${this.path}: ${held}`, hint);
    }
  }
}
