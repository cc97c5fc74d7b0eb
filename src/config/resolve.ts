// Where a command connects, resolved in one place (CLI.md precedence):
// flag → SUPERAGENT_* variable → the active profile → the embedded local service.
import type { GlobalOptions } from '../cli/globals.js';
import { UsageError } from '../cli/errors.js';
import type { ConfigData, Profile } from './file.js';

export type Source = 'flag' | 'env' | 'profile';

export interface Connection {
  profileName: string;
  profile: Profile | undefined;
  /** null: nothing configured, use the embedded service */
  baseUrl: string | null;
  baseUrlSource: Source | null;
  apiKey: string | null;
  apiKeySource: Source | null;
  output: 'table' | 'json';
}

export function profileName(globals: Pick<GlobalOptions, 'profile'>, env: NodeJS.ProcessEnv, config: ConfigData): string {
  return globals.profile || env.SUPERAGENT_PROFILE || config.active_profile || 'default';
}

function pick(flag: string | undefined, envValue: string | undefined, profileValue: string | undefined): [string | null, Source | null] {
  if (flag) return [flag, 'flag'];
  if (envValue) return [envValue, 'env'];
  if (profileValue) return [profileValue, 'profile'];
  return [null, null];
}

export function normaliseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`'${raw}' is not a URL`, 'give the service address like https://api.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`'${raw}' must start with http:// or https://`);
  // the contract's paths carry /v1 themselves
  return url.toString().replace(/\/+$/, '').replace(/\/v1$/, '');
}

export function resolveConnection(globals: GlobalOptions, env: NodeJS.ProcessEnv, config: ConfigData): Connection {
  const name = profileName(globals, env, config);
  const profile = config.profiles?.[name];
  const explicit = globals.profile || env.SUPERAGENT_PROFILE;
  if (explicit && !profile) {
    throw new UsageError(`there is no profile '${name}' in the config file`, `create it with 'superagent login --profile ${name}', or see 'superagent config list'`);
  }
  const [baseUrl, baseUrlSource] = pick(globals.baseUrl, env.SUPERAGENT_BASE_URL, profile?.base_url);
  const [apiKey, apiKeySource] = pick(globals.apiKey, env.SUPERAGENT_API_KEY, profile?.api_key);
  return {
    profileName: name,
    profile,
    baseUrl: baseUrl === null ? null : normaliseBaseUrl(baseUrl),
    baseUrlSource,
    apiKey: apiKey?.trim() || null,
    apiKeySource,
    output: profile?.output ?? 'table',
  };
}
