// Where the config file and the embedded service's state live (CLI.md variables win over the platform's dirs).
import envPaths from 'env-paths';

const platform = () => envPaths('superagent', { suffix: '' });

export function configDir(env: NodeJS.ProcessEnv): string {
  return env.SUPERAGENT_CONFIG_DIR || platform().config;
}

export function dataDir(env: NodeJS.ProcessEnv): string {
  return env.SUPERAGENT_DATA_DIR || platform().data;
}

/** Throw-away files (the completion cache); XDG_CACHE_HOME is honoured on Linux. */
export function cacheDir(): string {
  return platform().cache;
}
