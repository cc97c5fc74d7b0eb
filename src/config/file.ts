// The config file: named profiles (base URL, key, default output) plus the active profile's name.
// Reads go straight to the JSON file (cheap, on every command); writes go through `conf`
// (atomic write, mode 0600) and load it only then.
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../cli/errors.js';

export interface Profile {
  base_url?: string;
  api_key?: string;
  output?: 'table' | 'json';
  /** what `launch` sends when no --model / --provider is given */
  model?: string;
  provider?: string;
}

export interface ConfigData {
  active_profile?: string;
  profiles?: Record<string, Profile>;
}

export const CONFIG_NAME = 'config';

export class ConfigFile {
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

  /** Applies `change` to the current contents and writes the result atomically (0600 in a 0700 dir). */
  async write(change: (data: ConfigData) => void): Promise<void> {
    const data = this.read();
    change(data);
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    fs.chmodSync(this.dir, 0o700);
    const { default: Conf } = await import('../vendor/conf.js');
    const conf = new Conf<ConfigData>({
      cwd: this.dir,
      configName: CONFIG_NAME,
      configFileMode: 0o600,
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
    });
    conf.store = data;
    fs.chmodSync(this.path, 0o600); // conf keeps an existing file's mode; ours is always private
  }
}
