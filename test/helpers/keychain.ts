// The OS keychain in memory, for the commands layer: a real one (Secret Service in a private D-Bus
// session) is tried by test/e2e/keychain.test.ts. `unavailable` makes every call fail as a machine
// without a keychain does; `calls` shows whether the keychain was touched at all. `silent()` makes it
// a locked keyring whose unlock prompt nobody answers: its service is reached, but no call ever
// answers, until it is stopped (its signal aborted), which `stopped` notes. `frozen()` makes it a
// D-Bus session bus that never answers: not even the service is reached.
import { KeychainError, type Keychain, type KeychainCallOptions } from '../../src/config/keychain.js';

/**
 * What @napi-rs/keyring 2.1 says on Linux, word for word, as measured with a private D-Bus session
 * and gnome-keyring: a stand-in fails with these, as the real one does.
 */
export const KEYCHAIN_SAYS = {
  /** no DBUS_SESSION_BUS_ADDRESS (a server, an ssh login) */
  noBusAddress:
    'Platform failure: DBus error: Using X11 for dbus-daemon autolaunch was ' +
    'disabled at compile time, set your DBUS_SESSION_BUS_ADDRESS instead',
  /** an address where nothing listens */
  noBus: 'Platform failure: DBus error: Failed to connect to socket /run/user/1000/bus: No such file or directory',
  /** a session bus with no keyring daemon on it */
  noSecretService:
    'Platform failure: DBus error: The name org.freedesktop.secrets was not provided by any .service files',
  /** a locked keyring (an entry of ours in it) whose unlock prompt was dismissed, or could not be shown */
  dismissed: "Couldn't access platform storage: Secret Service: unlock prompt was dismissed",
  /** a store where no keyring is unlocked or made yet, and its prompt could not be shown */
  noKeyring: "Couldn't access platform storage: Secret Service: no result found",
} as const;

export class MemoryKeychain implements Keychain {
  readonly entries = new Map<string, string>();
  calls: string[] = [];
  stopped: string[] = [];
  private answers = true;
  private reaches = true;

  constructor(public unavailable?: string) {}

  /** From now on no call answers (until its signal stops it). */
  silent(): this {
    this.answers = false;
    return this;
  }

  /** From now on no call even reaches the keychain's service (until its signal stops it). */
  frozen(): this {
    this.reaches = false;
    return this.silent();
  }

  private async use(what: string, { signal, reached }: KeychainCallOptions = {}): Promise<void> {
    this.calls.push(what);
    if (this.unavailable !== undefined) throw new KeychainError(this.unavailable);
    if (this.reaches) reached?.();
    if (this.answers) return;
    await new Promise<never>((_, reject) => {
      signal?.addEventListener('abort', () => {
        this.stopped.push(what);
        reject(new KeychainError('stopped'));
      });
    });
  }

  async get(account: string, options?: KeychainCallOptions): Promise<string | null> {
    await this.use(`get ${account}`, options);
    return this.entries.get(account) ?? null;
  }

  async set(account: string, key: string, options?: KeychainCallOptions): Promise<void> {
    await this.use(`set ${account}`, options);
    this.entries.set(account, key);
  }

  async delete(account: string, options?: KeychainCallOptions): Promise<boolean> {
    await this.use(`delete ${account}`, options);
    return this.entries.delete(account);
  }
}
