// Where the config file and the embedded service's state live (docs/cli.md variables win over the platform's dirs).
import path from 'node:path';
import envPaths from 'env-paths';

const platform = () => envPaths('superagent', { suffix: '' });

export function configDir(env: NodeJS.ProcessEnv): string {
  return env.SUPERAGENT_CONFIG_DIR || platform().config;
}

export function dataDir(env: NodeJS.ProcessEnv): string {
  return env.SUPERAGENT_DATA_DIR || platform().data;
}

/** Throw-away files (the completion cache): XDG_CACHE_HOME from the command's environment, else the platform's. */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  if (env.XDG_CACHE_HOME && process.platform !== 'darwin' && process.platform !== 'win32')
    return path.join(env.XDG_CACHE_HOME, 'superagent');
  return platform().cache;
}
