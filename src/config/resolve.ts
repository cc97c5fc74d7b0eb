// Where a command connects, resolved in one place (docs/cli.md precedence):
// flag → SUPERAGENT_* variable → the active profile → the embedded local service.
// A key with no base URL never lands on the wrong account (docs/cli.md): a hosted key (gb_sk_) goes to
// the hosted service, one the embedded service issued (sa_sk_) to the embedded one, any other fails.
// A key given for the command (--api-key, SUPERAGENT_API_KEY) goes to a profile's base URL only when
// that URL is one for its kind of key (profileUrlTakes); else where its prefix says.
import { CredentialsError, UsageError } from '../core/errors.js';
import { shownValue } from '../core/shown.js';
import { EMBEDDED_KEY_PREFIX, HOSTED_BASE_URL, HOSTED_KEY_PREFIX } from '../contract.js';
import { maskKey, maskUrl, maskUrls } from '../core/mask.js';
import type { ConfigData, Profile } from './file.js';
import { keyStoreOf, type KeyStore } from './keychain.js';

export type Source = 'flag' | 'env' | 'profile';

/** The connection flags of the command line (--profile, --base-url, --api-key). */
export interface ConnectionFlags {
  profile?: string;
  baseUrl?: string;
  apiKey?: string;
}

export interface Connection {
  profileName: string;
  profile: Profile | undefined;
  /** null: the embedded service */
  baseUrl: string | null;
  /** `key`: no base URL was given; the key's prefix chose the hosted service */
  baseUrlSource: Source | 'key' | null;
  /** which service, and in words what chose it (whoami, the first --debug line) */
  service: 'embedded' | 'hosted' | 'configured';
  reason: string;
  apiKey: string | null;
  apiKeySource: Source | null;
  /** a profile's key: kept in the OS keychain or in the config file (null: the key is not a profile's) */
  apiKeyStore: KeyStore | null;
  output: 'table' | 'json';
}

export function profileName(
  globals: Pick<ConnectionFlags, 'profile'>,
  env: NodeJS.ProcessEnv,
  config: ConfigData,
): string {
  return globals.profile || env.SUPERAGENT_PROFILE || config.active_profile || 'default';
}

function pick(
  flag: string | undefined,
  envValue: string | undefined,
  profileValue: string | undefined,
): [string | null, Source | null] {
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
    throw new UsageError(`'${maskUrl(raw)}' is not a URL`, 'give the service address like https://api.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`'${maskUrl(raw)}' must start with http:// or https://`);
  // every request's path is put after the base URL: a query would come before it, a fragment cut it off
  // (an empty `?` or `#` is kept in the href, not in search or hash; in a password it is escaped)
  if (/[?#]/.test(url.href)) {
    const hint = 'give the service address alone, like https://api.example.com';
    throw new UsageError(`'${maskUrl(raw)}' has a query or a fragment (?… or #…): a base URL may not`, hint);
  }
  // the contract's paths carry /v1 themselves
  return url.toString().replace(/\/+$/, '').replace(/\/v1$/, '');
}

const SOURCE_WORDS: Record<Source, (what: 'base URL' | 'key', profile: string) => string> = {
  flag: (what) => (what === 'key' ? '--api-key' : '--base-url'),
  env: (what) => (what === 'key' ? 'SUPERAGENT_API_KEY' : 'SUPERAGENT_BASE_URL'),
  profile: (_what, profile) => `profile '${profile}'`,
};

/**
 * The hosted service's base URL. SUPERAGENT_HOSTED_URL replaces it for tests against a local mock
 * of the hosted service (no test may reach the real one).
 */
export function hostedBaseUrl(env: NodeJS.ProcessEnv): string {
  return env.SUPERAGENT_HOSTED_URL ? normaliseBaseUrl(env.SUPERAGENT_HOSTED_URL) : HOSTED_BASE_URL;
}

/**
 * What is wrong with a key as an HTTP header value, or undefined: keys are one word of printable
 * ASCII; a line break or a character outside Latin-1 would fail every request after its retries.
 */
export function keyProblem(key: string): string | undefined {
  if (/[\r\n]/.test(key)) return 'contains a line break';
  if (/[\s]/.test(key)) return 'contains a space';

  if (/[\u0000-\u001f\u007f]/.test(key)) return 'contains a control character';
  if (/[^\u0021-\u007e]/.test(key))
    return 'contains a character outside ASCII (a quote or dash pasted from a document?)';
  return undefined;
}

type Where = Pick<Connection, 'baseUrl' | 'baseUrlSource' | 'service' | 'reason'>;

/** The kind of a key, by its prefix: the hosted service's, the embedded service's, or neither (undefined). */
function keyKind(key: string | undefined): 'hosted' | 'embedded' | undefined {
  if (key?.startsWith(HOSTED_KEY_PREFIX)) return 'hosted';
  return key?.startsWith(EMBEDDED_KEY_PREFIX) ? 'embedded' : undefined;
}

/**
 * A key with no base URL (or a profile's URL not for it: `why` says so): which service it belongs
 * to, or exit 3 when its prefix does not say.
 */
function serviceForKey(
  apiKey: string,
  keyFrom: string,
  env: NodeJS.ProcessEnv,
  why = ' and no base URL is set',
): Where {
  if (apiKey.startsWith(HOSTED_KEY_PREFIX)) {
    const reason = `a ${HOSTED_KEY_PREFIX} key comes from ${keyFrom}${why}`;
    return { baseUrl: hostedBaseUrl(env), baseUrlSource: 'key', service: 'hosted', reason };
  }
  if (apiKey.startsWith(EMBEDDED_KEY_PREFIX)) {
    return {
      baseUrl: null,
      baseUrlSource: null,
      service: 'embedded',
      reason: `an ${EMBEDDED_KEY_PREFIX} key comes from ${keyFrom}${why}`,
    };
  }
  throw new CredentialsError(
    `the key ${maskKey(apiKey)} (from ${keyFrom}) is neither a hosted key (${HOSTED_KEY_PREFIX}…) nor ` +
      `one the embedded service issued (${EMBEDDED_KEY_PREFIX}…), and no base URL says where it belongs`,
    "set SUPERAGENT_BASE_URL, or run 'superagent login --base-url URL'",
  );
}

/**
 * Whether a key given for the command may go to the base URL of profile `profile`: false if not, else
 * words for the reason ('' when none are needed). The URL was written for the profile's own key, and a
 * stray SUPERAGENT_API_KEY must not send a hosted key to a local or foreign server: a hosted key goes
 * there only when it is the hosted service's, or when the profile's own key (in the file) is a hosted
 * key too (another deployment of the hosted API); an sa_sk_ key goes there unless the URL is known to
 * be one for hosted keys; a key of neither kind has nowhere else to go. A key in the keychain is not
 * read for this (it is never touched when the command gives a key).
 */
function profileUrlTakes(
  apiKey: string,
  url: string,
  profile: Profile | undefined,
  env: NodeJS.ProcessEnv,
): string | false {
  const kind = keyKind(apiKey);
  const hostedUrl = url === hostedBaseUrl(env);
  const ownKind = keyKind(profile?.api_key);
  if (kind === 'hosted') {
    if (hostedUrl) return '';
    return ownKind === 'hosted' ? ` (whose own key is a ${HOSTED_KEY_PREFIX} key too)` : false;
  }
  if (kind === 'embedded') return hostedUrl || ownKind === 'hosted' ? false : '';
  return '';
}

/** Why a profile's base URL was passed over for a key of the command (the reason's second half). */
function notForThatKey(apiKey: string, url: string, name: string): string {
  const what = keyKind(apiKey) === 'hosted' ? "is not the hosted service's" : `is for ${HOSTED_KEY_PREFIX} keys`;
  const would = '(SUPERAGENT_BASE_URL or --base-url would be)';
  return `, and the base URL of profile '${name}' (${maskUrls(url)}) ${what}, so it is not used for that key ${would}`;
}

/** Where the connection's key came from, in words (`SUPERAGENT_API_KEY`, `--api-key`, `profile 'work'`). */
export function keySourceWords(c: Pick<Connection, 'apiKeySource' | 'profileName'>): string {
  return c.apiKeySource ? SOURCE_WORDS[c.apiKeySource]('key', c.profileName) : 'nowhere';
}

/**
 * The profile whose key this command line takes from the OS keychain, or undefined: a flag or a
 * variable gives the key (the keychain is then never touched), or the profile keeps none there.
 */
export function keychainProfile(
  globals: ConnectionFlags,
  env: NodeJS.ProcessEnv,
  config: ConfigData,
): string | undefined {
  if (globals.apiKey || env.SUPERAGENT_API_KEY) return undefined;
  const name = profileName(globals, env, config);
  return keyStoreOf(config.profiles?.[name]) === 'keychain' ? name : undefined;
}

/** `keychainKey`: the profile's key, read from the OS keychain when keychainProfile named it. */
export function resolveConnection(
  globals: ConnectionFlags,
  env: NodeJS.ProcessEnv,
  config: ConfigData,
  keychainKey?: string,
): Connection {
  const name = profileName(globals, env, config);
  const profile = config.profiles?.[name];
  const explicit = globals.profile || env.SUPERAGENT_PROFILE;
  if (explicit && !profile) {
    throw new UsageError(
      `there is no profile '${shownValue(name)}' in the config file`,
      `create it with 'superagent login --profile ${shownValue(name)}', or see 'superagent config list'`,
    );
  }
  const [baseUrl, baseUrlSource] = pick(globals.baseUrl, env.SUPERAGENT_BASE_URL, profile?.base_url);
  const [rawKey, apiKeySource] = pick(globals.apiKey, env.SUPERAGENT_API_KEY, profile?.api_key ?? keychainKey);
  const apiKey = rawKey?.trim() || null;
  const problem = apiKey === null ? undefined : keyProblem(apiKey);
  if (problem) {
    throw new CredentialsError(
      `the API key from ${SOURCE_WORDS[apiKeySource!]('key', name)} ${problem}`,
      'a key is one word of printable ASCII: copy it again from where it was issued',
    );
  }
  let where: Where;
  const url = baseUrl === null ? null : normaliseBaseUrl(baseUrl);
  // a key of the command with the profile's URL: that URL only if it is one for this kind of key
  const mixed = url !== null && apiKey !== null && baseUrlSource === 'profile' && apiKeySource !== 'profile';
  const takes = mixed ? profileUrlTakes(apiKey, url, profile, env) : '';
  if (url !== null && takes !== false) {
    const hosted = url === hostedBaseUrl(env);
    const reason = `the base URL comes from ${SOURCE_WORDS[baseUrlSource!]('base URL', name)}${takes}`;
    where = { baseUrl: url, baseUrlSource, service: hosted ? 'hosted' : 'configured', reason };
  } else if (url !== null) {
    where = serviceForKey(apiKey!, SOURCE_WORDS[apiKeySource!]('key', name), env, notForThatKey(apiKey!, url, name));
  } else if (apiKey !== null) {
    where = serviceForKey(apiKey, SOURCE_WORDS[apiKeySource!]('key', name), env);
  } else {
    where = { baseUrl: null, baseUrlSource: null, service: 'embedded', reason: 'no base URL or key is configured' };
  }
  return {
    profileName: name,
    profile,
    ...where,
    apiKey,
    apiKeySource: apiKey === null ? null : apiKeySource,
    apiKeyStore: apiKey !== null && apiKeySource === 'profile' ? keyStoreOf(profile) : null,
    output: profile?.output ?? 'table',
  };
}
