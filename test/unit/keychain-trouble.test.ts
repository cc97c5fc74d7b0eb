// What the keychain's binding says, as a person reads it: a short reason in words, of a kind the
// messages give their advice by (no keychain in this session; a locked keyring; anything else). The
// binding's own text is kept for --debug.
import { describe, expect, it } from 'vitest';
import { KeychainError, KeychainTimeoutError } from '../../src/config/keychain.js';
import { KEYCHAIN_SAYS } from '../helpers/keychain.js';

describe('a KeychainError says the binding’s failure in words, and keeps its text', () => {
  it.each([
    [KEYCHAIN_SAYS.noBusAddress, 'no Secret Service in this session (DBUS_SESSION_BUS_ADDRESS is not set)', 'absent'],
    [KEYCHAIN_SAYS.noBus, 'no Secret Service in this session (nothing answers at DBUS_SESSION_BUS_ADDRESS)', 'absent'],
    [KEYCHAIN_SAYS.noSecretService, 'no Secret Service in this session (no keyring daemon, such as GNOME Keyring, runs on its D-Bus)', 'absent'],
    [KEYCHAIN_SAYS.dismissed, 'the keyring is locked (its unlock prompt was dismissed)', 'locked'],
    [KEYCHAIN_SAYS.noKeyring, 'no unlocked keyring to keep it in (the prompt to unlock or create one was dismissed)', 'locked'],
    [
      'Cannot find native binding. npm has a bug related to optional dependencies (https://github.com/npm/cli/issues/4828). ' +
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

  it('a keychain that did not answer in time: most likely a locked keyring', () => {
    expect(new KeychainTimeoutError(30).kind).toBe('locked');
  });
});
