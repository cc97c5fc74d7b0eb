// What the keychain's binding says, as a person reads it: a short reason in words, of a kind the
// messages give their advice by (no keychain in this session; a locked keyring; anything else). The
// binding's own text is kept for --debug.
import { describe, expect, it } from 'vitest';
import { keychainBusWords, KeychainError } from '../../src/config/keychain.js';
import { KeychainTimeoutError, KeychainUnansweredError } from '../../src/config/keychain.js';
import { KEYCHAIN_SAYS } from '../helpers/keychain.js';

describe('a KeychainError says the binding’s failure in words, and keeps its text', () => {
  it.each([
    [KEYCHAIN_SAYS.noBusAddress, 'no Secret Service in this session (DBUS_SESSION_BUS_ADDRESS is not set)', 'absent'],
    [KEYCHAIN_SAYS.noBus, 'no Secret Service in this session (nothing answers at DBUS_SESSION_BUS_ADDRESS)', 'absent'],
    [
      KEYCHAIN_SAYS.noSecretService,
      'no Secret Service in this session (no keyring daemon, such as GNOME Keyring, runs on its D-Bus)',
      'absent',
    ],
    [KEYCHAIN_SAYS.dismissed, 'the keyring is locked (its unlock prompt was dismissed)', 'locked'],
    [
      KEYCHAIN_SAYS.noKeyring,
      'no unlocked keyring to keep it in (the prompt to unlock or create one was dismissed)',
      'locked',
    ],
    [
      'Cannot find native binding. npm has a bug related to optional ' +
        'dependencies (https://github.com/npm/cli/issues/4828). ' +
        'Please try `npm i` again after removing both package-lock.json and node_modules directory.',
      "the keychain's binding is not installed for this platform",
      'other',
    ],
  ])('%s', (raw, words, kind) => {
    const err = new KeychainError(raw);
    expect([err.message, err.kind, err.raw]).toEqual([words, kind, raw]);
  });

  it('anything else: its own text, on one line and not endless', () => {
    const err = new KeychainError(`Platform failure: something new\n  ${'x'.repeat(300)}`);
    expect(err.message).toMatch(/^Platform failure: something new x+…$/);
    expect(err.message.length).toBeLessThanOrEqual(200);
    expect(err.kind).toBe('other');
  });

  it('a keychain reached that did not answer in time: a locked keyring', () => {
    expect(new KeychainTimeoutError(30).kind).toBe('locked');
  });

  it('a keychain whose bus never answered: no keychain in this session, the bus named', () => {
    const err = new KeychainUnansweredError(10, 'the OS keychain (D-Bus session bus at unix:path=/run/user/1000/bus)');
    expect([err.message, err.kind]).toEqual([
      'the OS keychain (D-Bus session bus at unix:path=/run/user/1000/bus) did not answer within 10 s',
      'absent',
    ]);
  });
});

describe('keychainBusWords: the bus a keychain is reached through, as messages name it', () => {
  it.each<[string | undefined, NodeJS.Platform, string]>([
    ['unix:path=/run/user/1000/bus', 'linux', 'the OS keychain (D-Bus session bus at unix:path=/run/user/1000/bus)'],
    // the first address is the one tried; its guid says nothing to a person
    [
      'unix:abstract=/tmp/x,guid=0a1b;unix:path=/b',
      'linux',
      'the OS keychain (D-Bus session bus at unix:abstract=/tmp/x)',
    ],
    ['unix:path=/tmp/a\u001b[2Jb', 'linux', 'the OS keychain (D-Bus session bus at unix:path=/tmp/a?[2Jb)'],
    [undefined, 'linux', 'the OS keychain (Secret Service)'],
    ['unix:path=/x', 'darwin', 'the OS keychain (macOS Keychain)'],
  ])('%j on %s', (address, platform, words) => {
    expect(keychainBusWords({ DBUS_SESSION_BUS_ADDRESS: address }, platform)).toBe(words);
  });
});
