// Where a command connects (CLI.md "Where it connects"): one test per precedence row.
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
    const c = resolveConnection(flags({ baseUrl: 'https://flag.example.com' }), { SUPERAGENT_BASE_URL: 'https://env.example.com' }, config);
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
});
