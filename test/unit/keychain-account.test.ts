// The keychain entry of a profile's key: one per profile of one config file, named the same from any
// working dir (SUPERAGENT_CONFIG_DIR may be relative), and where a profile keeps its key.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { keychainAccount, keyStoreOf } from '../../src/config/keychain.js';

describe('keychainAccount', () => {
  it('names the profile and the config file, made absolute', () => {
    expect(keychainAccount('work', '/home/u/.config/superagent/config.json')).toBe(
      'work@/home/u/.config/superagent/config.json',
    );
    expect(keychainAccount('default', 'cfg/config.json')).toBe(`default@${path.resolve('cfg/config.json')}`);
  });

  it('differs between two config files, and between two profiles of one', () => {
    const names = [
      keychainAccount('default', '/a/config.json'),
      keychainAccount('default', '/b/config.json'),
      keychainAccount('ci', '/a/config.json'),
    ];
    expect(new Set(names).size).toBe(3);
  });
});

describe('keyStoreOf', () => {
  it.each([
    [{ api_key: 'sa_sk_x' }, 'file'],
    [{ api_key_store: 'keychain' as const }, 'keychain'],
    // a file edited by hand with both: the file's key is the one used
    [{ api_key: 'sa_sk_x', api_key_store: 'keychain' as const }, 'file'],
    [{ base_url: 'https://api.example.com' }, null],
    [undefined, null],
  ])('%j: %s', (profile, store) => {
    expect(keyStoreOf(profile)).toBe(store);
  });
});
