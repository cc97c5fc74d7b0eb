// The OS keychain in memory, for the commands layer: a real one (Secret Service in a private D-Bus
// session) is tried by test/e2e/keychain.test.ts. `unavailable` makes every call fail as a machine
// without a keychain does; `calls` shows whether the keychain was touched at all. `silent()` makes it
// a locked keyring whose unlock prompt nobody answers: no call ever answers, until it is stopped
// (its signal aborted), which `stopped` notes.
import { KeychainError, type Keychain } from '../../src/config/keychain.js';

export class MemoryKeychain implements Keychain {
  readonly entries = new Map<string, string>();
  calls: string[] = [];
  stopped: string[] = [];
  private answers = true;

  constructor(public unavailable?: string) {}

  /** From now on no call answers (until its signal stops it). */
  silent(): this {
    this.answers = false;
    return this;
  }

  private async use(what: string, signal: AbortSignal | undefined): Promise<void> {
    this.calls.push(what);
    if (this.unavailable !== undefined) throw new KeychainError(this.unavailable);
    if (this.answers) return;
    await new Promise<never>((_, reject) => {
      signal?.addEventListener('abort', () => {
        this.stopped.push(what);
        reject(new KeychainError('stopped'));
      });
    });
  }

  async get(account: string, signal?: AbortSignal): Promise<string | null> {
    await this.use(`get ${account}`, signal);
    return this.entries.get(account) ?? null;
  }

  async set(account: string, key: string, signal?: AbortSignal): Promise<void> {
    await this.use(`set ${account}`, signal);
    this.entries.set(account, key);
  }

  async delete(account: string, signal?: AbortSignal): Promise<boolean> {
    await this.use(`delete ${account}`, signal);
    return this.entries.delete(account);
  }
}
