// The OS keychain in memory, for the commands layer: a real one (Secret Service in a private D-Bus
// session) is tried by test/e2e/keychain.test.ts. `unavailable` makes every call fail as a machine
// without a keychain does; `calls` shows whether the keychain was touched at all.
import { KeychainError, type Keychain } from '../../src/config/keychain.js';

export class MemoryKeychain implements Keychain {
  readonly entries = new Map<string, string>();
  calls: string[] = [];

  constructor(public unavailable?: string) {}

  private use(what: string): void {
    this.calls.push(what);
    if (this.unavailable !== undefined) throw new KeychainError(this.unavailable);
  }

  async get(account: string): Promise<string | null> {
    this.use(`get ${account}`);
    return this.entries.get(account) ?? null;
  }

  async set(account: string, key: string): Promise<void> {
    this.use(`set ${account}`);
    this.entries.set(account, key);
  }

  async delete(account: string): Promise<boolean> {
    this.use(`delete ${account}`);
    return this.entries.delete(account);
  }
}
