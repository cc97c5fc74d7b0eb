// Where a command connects (docs/api.md, Keys and authentication): one test per precedence row.
import { describe, expect, it } from 'vitest';
import type { ConfigData } from '../../src/config/file.js';
import { normaliseBaseUrl, profileName, resolveConnection, type ConnectionFlags } from '../../src/config/resolve.js';
import { EXIT, exitCodeFor } from '../../src/cli/exit-codes.js';
import { UsageError } from '../../src/core/errors.js';

const KEY_FLAG = 'sa_sk_flagflagflagflagflagflag0001';
const KEY_ENV = 'sa_sk_envenvenvenvenvenvenvenv0002';
const KEY_PROFILE = 'sa_sk_profileprofileprofileprof0003';

/** --profile, --base-url and --api-key as parsed (nothing given by default) */
function flags(over: ConnectionFlags = {}): ConnectionFlags {
  return { ...over };
}

const config: ConfigData = {
  active_profile: 'work',
  profiles: {
    default: { base_url: 'https://default.example.com', api_key: 'sa_sk_defaultdefaultdefaultdef0004' },
    work: { base_url: 'https://work.example.com', api_key: KEY_PROFILE, output: 'json' },
    staging: { base_url: 'https://staging.example.com' },
  },
};

function usageErrorOf(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error('expected a UsageError');
}

describe('base URL precedence', () => {
  it('the flag beats the environment', () => {
    const c = resolveConnection(
      flags({ baseUrl: 'https://flag.example.com' }),
      { SUPERAGENT_BASE_URL: 'https://env.example.com' },
      config,
    );
    expect([c.baseUrl, c.baseUrlSource]).toEqual(['https://flag.example.com', 'flag']);
  });

  it('the environment beats the profile', () => {
    const c = resolveConnection(flags(), { SUPERAGENT_BASE_URL: 'https://env.example.com' }, config);
    expect([c.baseUrl, c.baseUrlSource]).toEqual(['https://env.example.com', 'env']);
  });

  it('the profile beats the embedded service', () => {
    const c = resolveConnection(flags(), {}, config);
    expect([c.baseUrl, c.baseUrlSource]).toEqual(['https://work.example.com', 'profile']);
  });

  it('with nothing configured the base URL is null: the embedded service', () => {
    const c = resolveConnection(flags(), {}, {});
    expect([c.baseUrl, c.baseUrlSource]).toEqual([null, null]);
    expect([c.apiKey, c.apiKeySource]).toEqual([null, null]);
    expect(c.profileName).toBe('default');
    expect(c.output).toBe('table');
  });

  it('a flag or variable value is normalised like a stored one', () => {
    const c = resolveConnection(flags({ baseUrl: 'https://flag.example.com/v1/' }), {}, {});
    expect(c.baseUrl).toBe('https://flag.example.com');
  });
});

describe('API key precedence', () => {
  it('the flag beats the environment', () => {
    const c = resolveConnection(flags({ apiKey: KEY_FLAG }), { SUPERAGENT_API_KEY: KEY_ENV }, config);
    expect([c.apiKey, c.apiKeySource]).toEqual([KEY_FLAG, 'flag']);
  });

  it('the environment beats the profile', () => {
    const c = resolveConnection(flags(), { SUPERAGENT_API_KEY: KEY_ENV }, config);
    expect([c.apiKey, c.apiKeySource]).toEqual([KEY_ENV, 'env']);
  });

  it('the profile supplies the key when nothing else does', () => {
    const c = resolveConnection(flags(), {}, config);
    expect([c.apiKey, c.apiKeySource]).toEqual([KEY_PROFILE, 'profile']);
  });

  it('a profile without a key leaves it null (the embedded service needs none)', () => {
    const c = resolveConnection(flags({ profile: 'staging' }), {}, config);
    expect([c.apiKey, c.apiKeySource]).toEqual([null, null]);
  });

  it('an empty variable does not count as a value', () => {
    const c = resolveConnection(flags(), { SUPERAGENT_API_KEY: '', SUPERAGENT_BASE_URL: '' }, config);
    expect([c.apiKeySource, c.baseUrlSource]).toEqual(['profile', 'profile']);
  });
});

describe('which profile', () => {
  it('--profile beats SUPERAGENT_PROFILE', () => {
    const c = resolveConnection(flags({ profile: 'staging' }), { SUPERAGENT_PROFILE: 'default' }, config);
    expect(c.profileName).toBe('staging');
    expect(c.baseUrl).toBe('https://staging.example.com');
  });

  it('SUPERAGENT_PROFILE beats the active profile', () => {
    const c = resolveConnection(flags(), { SUPERAGENT_PROFILE: 'default' }, config);
    expect(c.profileName).toBe('default');
    expect(c.baseUrl).toBe('https://default.example.com');
    expect(c.output).toBe('table');
  });

  it('the active profile beats "default"', () => {
    const c = resolveConnection(flags(), {}, config);
    expect(c.profileName).toBe('work');
    expect(c.output).toBe('json');
  });

  it('"default" is used when no profile is named anywhere', () => {
    expect(profileName(flags(), {}, { profiles: config.profiles })).toBe('default');
  });

  it('an unknown profile named by --profile is an error (exit 2) naming it', () => {
    const err = usageErrorOf(() => resolveConnection(flags({ profile: 'nope' }), {}, config));
    expect(exitCodeFor(err)).toBe(EXIT.usage);
    expect(err.message).toContain("'nope'");
  });

  it('an unknown profile named by SUPERAGENT_PROFILE is an error too', () => {
    const err = usageErrorOf(() => resolveConnection(flags(), { SUPERAGENT_PROFILE: 'nope' }, config));
    expect(err.message).toContain("'nope'");
  });

  it('an active profile missing from the file falls back to the embedded service', () => {
    const c = resolveConnection(flags(), {}, { active_profile: 'gone', profiles: {} });
    expect([c.profileName, c.baseUrl, c.apiKey]).toEqual(['gone', null, null]);
  });
});

describe('normaliseBaseUrl', () => {
  it('strips /v1 and trailing slashes', () => {
    expect(normaliseBaseUrl('https://api.example.com/v1')).toBe('https://api.example.com');
    expect(normaliseBaseUrl('https://api.example.com/v1/')).toBe('https://api.example.com');
    expect(normaliseBaseUrl('https://api.example.com///')).toBe('https://api.example.com');
    expect(normaliseBaseUrl('http://127.0.0.1:8420')).toBe('http://127.0.0.1:8420');
  });

  it('keeps a path prefix other than /v1', () => {
    expect(normaliseBaseUrl('https://example.com/superagent/v1/')).toBe('https://example.com/superagent');
  });

  it('rejects a scheme other than http and https', () => {
    expect(usageErrorOf(() => normaliseBaseUrl('ftp://example.com')).message).toContain('http:// or https://');
  });

  it('rejects what is not a URL', () => {
    expect(usageErrorOf(() => normaliseBaseUrl('example.com')).message).toContain('is not a URL');
  });

  // every request's path would follow the query (`/?x=1/v1/superagents`) or be cut off by the fragment
  it.each(['http://h/?x=1', 'http://h?x=1', 'http://h/v1?', 'http://h/#frag', 'https://h/api#', 'http://h/?a#b'])(
    'rejects a query or a fragment: %s',
    (raw) => {
      const err = usageErrorOf(() => normaliseBaseUrl(raw));
      expect(err.message).toBe(`'${raw}' has a query or a fragment (?… or #…): a base URL may not`);
      expect(err.hint).toBe('give the service address alone, like https://api.example.com');
    },
  );
});

// A key given for one command (--api-key, SUPERAGENT_API_KEY) with the base URL left to the profile:
// the profile's URL is taken only when it is one for that kind of key; otherwise the key goes where
// its prefix says, as with no base URL at all. A hosted key never reaches a server that only the
// profile (written for another key) named.
describe('a key of the command line with the base URL of a profile', () => {
  const HOSTED = 'https://api.gigabrain.gg';
  const LOCAL = 'http://127.0.0.1:37313';
  const GB_KEY = 'gb_sk_' + 'Hh1Ii2Jj3Kk4Ll5Mm6Nn7Oo8Pp9Qq0Rr';
  const GB_OWN = 'gb_sk_' + 'Oo1Ww2Nn3Oo4Ww5Nn6Oo7Ww8Nn9Oo0Ww';
  const SA_OWN = 'sa_sk_' + 'Ss1Aa2Oo3Ww4Nn5Ss6Aa7Oo8Ww9Nn0Aa';
  const profileAt = (base_url: string, own: { api_key?: string; api_key_store?: 'keychain' } = {}): ConfigData => ({
    active_profile: 'default',
    profiles: { default: { base_url, ...own } },
  });

  it('a gb_sk_ key from SUPERAGENT_API_KEY, a profile at a local server: the hosted service, and why', () => {
    const c = resolveConnection(flags(), { SUPERAGENT_API_KEY: GB_KEY }, profileAt(LOCAL, { api_key: SA_OWN }));
    expect([c.baseUrl, c.baseUrlSource, c.service]).toEqual([HOSTED, 'key', 'hosted']);
    expect(c.reason).toBe(
      `a gb_sk_ key comes from SUPERAGENT_API_KEY, and the base URL ` +
        `of profile 'default' (${LOCAL}) is not the hosted ` +
        "service's, so it is not used for that key (SUPERAGENT_BASE_URL or --base-url would be)",
    );
  });

  it('the same from --api-key, and for a profile with no key of its own, or one kept in the keychain', () => {
    for (const own of [{}, { api_key_store: 'keychain' as const }]) {
      const c = resolveConnection(flags({ apiKey: GB_KEY }), {}, profileAt(LOCAL, own));
      expect([c.baseUrl, c.service]).toEqual([HOSTED, 'hosted']);
      expect(c.reason).toContain("--api-key, and the base URL of profile 'default'");
    }
  });

  it('a gb_sk_ key, a profile at the hosted service: the profile’s URL', () => {
    const c = resolveConnection(flags(), { SUPERAGENT_API_KEY: GB_KEY }, profileAt(`${HOSTED}/v1`));
    expect([c.baseUrl, c.baseUrlSource, c.service, c.reason]).toEqual([
      HOSTED,
      'profile',
      'hosted',
      "the base URL comes from profile 'default'",
    ]);
  });

  it(
    'a gb_sk_ key, a profile whose own key is a gb_sk_ key ' + 'too (another deployment of the hosted API): its URL',
    () => {
      const staging = 'https://staging.example.com';
      const c = resolveConnection(flags(), { SUPERAGENT_API_KEY: GB_KEY }, profileAt(staging, { api_key: GB_OWN }));
      expect([c.baseUrl, c.baseUrlSource, c.service]).toEqual([staging, 'profile', 'configured']);
      expect(c.reason).toBe("the base URL comes from profile 'default' (whose own key is a gb_sk_ key too)");
    },
  );

  it('an sa_sk_ key, a profile at the hosted service: the embedded service, and why', () => {
    const c = resolveConnection(flags(), { SUPERAGENT_API_KEY: KEY_ENV }, profileAt(HOSTED, { api_key: GB_OWN }));
    expect([c.baseUrl, c.baseUrlSource, c.service]).toEqual([null, null, 'embedded']);
    expect(c.reason).toBe(
      `an sa_sk_ key comes from SUPERAGENT_API_KEY, and the base URL ` +
        `of profile 'default' (${HOSTED}) is for gb_sk_ keys, ` +
        'so it is not used for that key (SUPERAGENT_BASE_URL or --base-url would be)',
    );
  });

  it('an sa_sk_ key, a profile at another server whose own key is a gb_sk_ key: the embedded service', () => {
    const c = resolveConnection(
      flags(),
      { SUPERAGENT_API_KEY: KEY_ENV },
      profileAt('https://staging.example.com', { api_key: GB_OWN }),
    );
    expect([c.baseUrl, c.service]).toEqual([null, 'embedded']);
  });

  it('an sa_sk_ key, a profile at a server that is not the hosted one: its URL (a superagent server)', () => {
    for (const own of [{}, { api_key: SA_OWN }, { api_key_store: 'keychain' as const }]) {
      const c = resolveConnection(flags(), { SUPERAGENT_API_KEY: KEY_ENV }, profileAt(LOCAL, own));
      expect([c.baseUrl, c.baseUrlSource, c.reason]).toEqual([
        LOCAL,
        'profile',
        "the base URL comes from profile 'default'",
      ]);
    }
  });

  it('a key of neither kind: the profile’s URL (nothing else could take it)', () => {
    const c = resolveConnection(
      flags(),
      { SUPERAGENT_API_KEY: 'other-key-0123456789' },
      profileAt(LOCAL, { api_key: SA_OWN }),
    );
    expect([c.baseUrl, c.baseUrlSource]).toEqual([LOCAL, 'profile']);
  });

  it('a base URL from the same level (flag or variable) is always the one used', () => {
    const env = resolveConnection(
      flags(),
      { SUPERAGENT_API_KEY: GB_KEY, SUPERAGENT_BASE_URL: LOCAL },
      profileAt(HOSTED),
    );
    const flag = resolveConnection(flags({ apiKey: GB_KEY, baseUrl: LOCAL }), {}, profileAt(HOSTED));
    const mixed = resolveConnection(flags({ apiKey: GB_KEY }), { SUPERAGENT_BASE_URL: LOCAL }, profileAt(HOSTED));
    expect([env.baseUrl, flag.baseUrl, mixed.baseUrl]).toEqual([LOCAL, LOCAL, LOCAL]);
  });

  it('SUPERAGENT_HOSTED_URL stands in for the hosted URL here too', () => {
    const mock = 'http://127.0.0.1:9';
    const c = resolveConnection(flags(), { SUPERAGENT_API_KEY: GB_KEY, SUPERAGENT_HOSTED_URL: mock }, profileAt(LOCAL));
    expect([c.baseUrl, c.service]).toEqual([mock, 'hosted']);
    const same = resolveConnection(
      flags(),
      { SUPERAGENT_API_KEY: GB_KEY, SUPERAGENT_HOSTED_URL: mock },
      profileAt(mock),
    );
    expect(same.baseUrlSource).toBe('profile');
  });

  it('a password in the profile’s URL is masked in the reason', () => {
    const c = resolveConnection(flags(), { SUPERAGENT_API_KEY: GB_KEY }, profileAt('http://alice:hunter2@127.0.0.1:1'));
    expect(c.reason).not.toContain('hunter2');
  });
});
