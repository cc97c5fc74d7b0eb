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
    const config = data as ConfigData;
    if (config.profiles !== undefined && (typeof config.profiles !== 'object' || config.profiles === null)) {
      throw this.corrupt('"profiles" is not an object');
    }
    return config;
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
