// conf's layer of the config file: its JSON Schema, defaults and migrations, and its atomic 0600 write.
// conf is loaded only to write (config/file.ts does that under its cross-process lock, which conf has
// not) and to migrate; a read of the file never loads it (ARCHITECTURE.md says what it would cost).
// conf keys its migrations on a semver of its own inside the file (`__internal__`): the file holds a
// whole number `version` instead, translated to and from conf's key as the file is read and written.
import fs from 'node:fs';
import path from 'node:path';
import { asEnvironmentError } from '../core/errors.js';
import type { ConfigData } from './shape.js';

/** The shape of the config file now; a file without a `version` field is version 1. */
export const CONFIG_VERSION = 2;

/**
 * Each version's step from the one before. Version 1 had no `version` field and the shape of 2
 * (a profile's key in `api_key`, or `api_key_store: keychain`): its step only stamps the number.
 */
const MIGRATIONS: Readonly<Record<number, (data: ConfigData) => void>> = {
  2: () => undefined,
};

/** The file's version: 1 without the field (file.ts has checked it is a whole number from 1). */
export const versionOf = (data: { version?: unknown }): number => (typeof data.version === 'number' ? data.version : 1);

/** `data` brought to the current version in memory (a read does not write; the next write saves it). */
export function migrate(data: ConfigData): ConfigData {
  for (let v = versionOf(data) + 1; v <= CONFIG_VERSION; v++) MIGRATIONS[v]?.(data);
  if (versionOf(data) < CONFIG_VERSION) data.version = CONFIG_VERSION;
  return data;
}

const text = { type: 'string' } as const;
/** What conf checks every write against (file.ts says the same, field by field, in the user's words). */
export const CONFIG_SCHEMA = {
  active_profile: text,
  profiles: {
    type: 'object',
    additionalProperties: {
      type: 'object',
      properties: {
        base_url: text,
        api_key: text,
        api_key_store: { enum: ['keychain'] },
        output: text,
        model: text,
        provider: text,
        render: text,
        'rpc.ethereum': text,
        'rpc.arbitrum': text,
        'rpc.base': text,
        'rpc.polygon': text,
        'rpc.bsc': text,
        'rpc.optimism': text,
        'rpc.solana': text,
        hyperliquid_url: text,
        polymarket_url: text,
      },
    },
  },
} as const;

const DEFAULTS = { profiles: {} };
const INTERNAL = '__internal__';
const semver = (version: number) => `${version}.0.0`;

function deserialize(textOnDisk: string): Record<string, unknown> {
  const { version, ...rest } = (textOnDisk.trim() === '' ? {} : JSON.parse(textOnDisk)) as ConfigData;
  return { ...rest, [INTERNAL]: { migrations: { version: semver(versionOf({ version })) } } };
}

function serialize(store: Record<string, unknown>): string {
  const { [INTERNAL]: internal, ...rest } = store as { [INTERNAL]?: { migrations?: { version?: string } } };
  const version = Number((internal?.migrations?.version ?? semver(CONFIG_VERSION)).split('.')[0]);
  return JSON.stringify({ version, ...rest }, null, '\t') + '\n';
}

/** conf's bundle, once; the exit hooks its atomic writer installs for signals are taken off again. */
let loading: Promise<typeof import('../vendor/conf.js')> | undefined;
function loadConf(): Promise<typeof import('../vendor/conf.js')> {
  return (loading ??= (async () => {
    const signals = () => process.eventNames().filter((name): name is NodeJS.Signals => String(name).startsWith('SIG'));
    const before = new Map(signals().map((name) => [name, new Set(process.listeners(name))]));
    const mod = await import('../vendor/conf.js');
    // a Ctrl-C after a write would otherwise be sent again by them (the REPL's own handler runs twice); a
    // write is synchronous, so no signal ever finds one of its temp files to remove
    for (const name of signals()) {
      for (const fn of process.listeners(name)) if (!before.get(name)?.has(fn)) process.removeListener(name, fn);
    }
    return mod;
  })());
}

/**
 * Saves `data` as the file `file` (the end of a symbolic link: conf replaces what it is given), after
 * conf has run the migrations the file on disk needs. The caller holds the config lock.
 */
export async function saveWithConf(file: string, data: ConfigData): Promise<void> {
  const { Conf } = await loadConf();
  const { version: _version, ...store } = data;
  try {
    const conf = new Conf<Record<string, unknown>>({
      cwd: path.dirname(file),
      configName: path.basename(file),
      fileExtension: '',
      projectSuffix: '',
      configFileMode: 0o600,
      clearInvalidConfig: false,
      watch: false,
      accessPropertiesByDotNotation: false,
      schema: CONFIG_SCHEMA as never,
      defaults: DEFAULTS,
      projectVersion: semver(CONFIG_VERSION),
      migrations: Object.fromEntries(
        Object.entries(MIGRATIONS).map(([version, step]) => [
          semver(Number(version)),
          (c: { store: Record<string, unknown> }) => {
            const { [INTERNAL]: _internal, ...stored } = c.store;
            step(stored);
            c.store = stored;
          },
        ]),
      ),
      serialize,
      deserialize,
    });
    conf.store = store;
  } catch (err) {
    removeTemps(file);
    throw asEnvironmentError(err, { path: file, action: 'cannot write' }) ?? err;
  }
}

/** The temp files of a write the machine refused (atomically removes its own only later, unawaited). */
function removeTemps(file: string): void {
  const [dir, prefix] = [path.dirname(file), `${path.basename(file)}.tmp-`];
  const names = fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : [];
  for (const name of names) {
    if (name.isFile() && name.name.startsWith(prefix)) fs.rmSync(path.join(dir, name.name), { force: true });
  }
}
