// Where the config file and the embedded service's state live (docs/cli.md variables win over the platform's dirs).
import path from 'node:path';
import envPaths from 'env-paths';
import { UsageError } from '../core/errors.js';

const platform = () => envPaths('superagent', { suffix: '' });

/**
 * The platform's dir, refused when it is relative: an empty HOME or a relative XDG_* variable would put
 * the key and the agents' state under whatever directory the command was run in.
 */
function platformDir(kind: 'config' | 'data', variable: string): string {
  const dir = platform()[kind];
  if (path.isAbsolute(dir)) return dir;
  const xdg = kind === 'config' ? 'XDG_CONFIG_HOME' : 'XDG_DATA_HOME';
  const why = process.env[xdg] ? `${xdg} is a relative path ('${process.env[xdg]}')` : 'HOME is empty';
  throw new UsageError(`${why}: there is no place for superagent's ${kind}`, `set HOME, or ${variable} to a directory`);
}

export function configDir(env: NodeJS.ProcessEnv): string {
  const given = env.SUPERAGENT_CONFIG_DIR;
  return given ? path.resolve(given) : platformDir('config', 'SUPERAGENT_CONFIG_DIR');
}

export function dataDir(env: NodeJS.ProcessEnv): string {
  const given = env.SUPERAGENT_DATA_DIR;
  return given ? path.resolve(given) : platformDir('data', 'SUPERAGENT_DATA_DIR');
}

/** Throw-away files (the completion cache): XDG_CACHE_HOME from the command's environment, else the platform's. */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  if (env.XDG_CACHE_HOME && process.platform !== 'darwin' && process.platform !== 'win32')
    return path.join(env.XDG_CACHE_HOME, 'superagent');
  return platform().cache;
}
