// The config file: named profiles (base URL, key, default output, launch model) plus the active
// profile's name. JSON, written atomically, 0600 in a 0700 dir (CLI.md).
import fs from 'node:fs';
import path from 'node:path';
import { privateDir, writeFileAtomic } from '../core/atomic-write.js';
import { UsageError } from '../core/errors.js';

export interface Profile {
  base_url?: string;
  api_key?: string;
  output?: 'table' | 'json';
  /** what `launch` sends when no --model / --provider is given */
  model?: string;
  provider?: string;
  /** Markdown rendering of replies on a terminal */
  render?: 'markdown' | 'raw';
}

export interface ConfigData {
  active_profile?: string;
  profiles?: Record<string, Profile>;
}

/** Where the settings live; a test gives one in memory. */
export interface ConfigStore {
  readonly path: string;
  read(): ConfigData;
  /** applies `change` to the current contents and saves the result */
  write(change: (data: ConfigData) => void): Promise<void>;
}

export const CONFIG_NAME = 'config';

const PROFILE_KEYS = ['base_url', 'api_key', 'output', 'model', 'provider', 'render'] as const satisfies ReadonlyArray<keyof Profile>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first field of a hand-edited file whose type no command could use (`"api_key": ["x"]`), named. */
function wrongField(data: Record<string, unknown>): string | undefined {
  if (data.active_profile !== undefined && typeof data.active_profile !== 'string') return '"active_profile" is not a string';
  if (data.profiles === undefined) return undefined;
  if (!isObject(data.profiles)) return '"profiles" is not an object';
  for (const [name, profile] of Object.entries(data.profiles)) {
    if (!isObject(profile)) return `"profiles.${name}" is not an object`;
    // every setting is text (settings.ts checks the values themselves when they are set)
    for (const key of PROFILE_KEYS) {
      if (profile[key] !== undefined && typeof profile[key] !== 'string') return `"profiles.${name}.${key}" is not a string`;
    }
  }
  return undefined;
}

export class ConfigFile implements ConfigStore {
  readonly path: string;

  constructor(readonly dir: string) {
    this.path = path.join(dir, `${CONFIG_NAME}.json`);
  }

  read(): ConfigData {
    let text: string;
    try {
      text = fs.readFileSync(this.path, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return {};
      throw new UsageError(`cannot read the config file ${this.path}: ${code ?? (err as Error).message}`, 'check its permissions');
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
    return data as ConfigData;
  }

  private corrupt(why: string): UsageError {
    return new UsageError(`the config file ${this.path} is corrupt: ${why}`, `fix it, or move it aside and run 'superagent login' again`);
  }

  async write(change: (data: ConfigData) => void): Promise<void> {
    const data = this.read();
    change(data);
    privateDir(this.dir);
    writeFileAtomic(this.path, JSON.stringify(data, null, '\t') + '\n');
  }
}
