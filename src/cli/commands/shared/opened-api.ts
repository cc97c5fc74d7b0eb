// What opening the API gives a command, and what it may ask of it (connect.ts opens it): types
// alone, so that the Context can name them without importing the code that connects.
import type { ApiClient, RetryPolicy } from '../../../api/client.js';
import type { Pacer } from '../../../api/rate-budget.js';
import type { Connection } from '../../../config/resolve.js';
import type { LocalStateError } from '../../../core/errors.js';

export interface OpenedApi {
  client: ApiClient;
  connection: Connection;
  /** set when the embedded service runs in this process */
  embedded?: {
    url: string;
    dataDir: string;
    close(): Promise<void>;
    explain(err: unknown): unknown;
    /** records a listing left out because they cannot be read: the command's failure once it is done */
    leftOut(): LocalStateError | undefined;
  };
}

export interface ConnectOptions {
  /** fewer retries than the client's default (completion must answer within a moment) */
  retry?: Partial<RetryPolicy>;
  timeoutMs?: number;
  /** no status lines or retry notices (a Tab must print nothing) */
  quiet?: boolean;
  /** paces every request to a budget (apply) */
  pacer?: Pacer;
  /** where to connect, already resolved (whoami: its key read from the keychain once) */
  connection?: Connection;
}
