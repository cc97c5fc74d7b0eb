// Opens the API a command talks to: the configured service, or (nothing configured) the embedded
// service started in-process on a loopback port with its state in the data dir.
import type { ApiClient, RetryPolicy } from '../../../api/client.js';
import { dataDir } from '../../../config/paths.js';
import { resolveConnection, type Connection } from '../../../config/resolve.js';
import { CredentialsError } from '../../../core/errors.js';
import { version } from '../../../core/version.js';
import type { Context } from '../../context.js';
import { maskUrls } from '../../../ui/mask.js';

export interface OpenedApi {
  client: ApiClient;
  connection: Connection;
  /** set when the embedded service runs in this process */
  embedded?: { url: string; dataDir: string; close(): Promise<void> };
}

export interface ConnectOptions {
  /** fewer retries than the client's default (completion must answer within a moment) */
  retry?: Partial<RetryPolicy>;
  timeoutMs?: number;
  /** no status lines or retry notices (a Tab must print nothing) */
  quiet?: boolean;
}

/** No key for a configured service (connect and whoami say the same). */
export function noKeyError(baseUrl: string): CredentialsError {
  return new CredentialsError(`no API key for ${baseUrl}`, "run 'superagent login', or set SUPERAGENT_API_KEY");
}

export interface ClientTarget extends ConnectOptions {
  baseUrl: string;
  apiKey: string | null;
}

/** A client for an explicit base URL and key (login checks a key before anything is saved). */
export async function clientFor(ctx: Context, target: ClientTarget): Promise<ApiClient> {
  const { globals, printer } = ctx;
  const { ApiClient } = await import('../../../api/client.js');
  return new ApiClient({
    baseUrl: target.baseUrl,
    apiKey: target.apiKey,
    timeoutMs: target.timeoutMs ?? ctx.timeoutMs(),
    userAgent: `superagent/${version()} node/${process.version}`,
    trace: globals.debug ? (line) => printer.stderrWrite(printer.err.dim(line) + '\n') : undefined,
    notice: (line) => (target.quiet ? undefined : printer.status(printer.err.yellow(line))),
    retry: target.retry,
    sleep: (ms, signal) => ctx.clock.sleep(ms, signal),
  });
}

/** Which service, and what chose it: `using the hosted service at https://…: a gb_sk_ key comes from SUPERAGENT_API_KEY and no base URL is set`. */
export function describeService(c: Pick<Connection, 'service' | 'baseUrl' | 'reason'>, embeddedUrl?: string): string {
  const what =
    c.service === 'embedded'
      ? `the embedded local service${embeddedUrl ? ` at ${embeddedUrl}` : ''}`
      : `${c.service === 'hosted' ? 'the hosted service' : 'the service'} at ${maskUrls(c.baseUrl ?? '')}`;
  return `using ${what}: ${c.reason}`;
}

export async function openApi(ctx: Context, options: ConnectOptions = {}): Promise<OpenedApi> {
  const { globals, env, printer } = ctx;
  const connection = resolveConnection(globals, env, ctx.config.read());
  // a profile with `output json` makes its commands answer as if --json were given
  if (connection.output === 'json') printer.setJson(true);
  if (globals.debug) printer.stderrWrite(printer.err.dim(`superagent: ${describeService(connection)}`) + '\n');
  let baseUrl = connection.baseUrl;
  let apiKey = connection.apiKey;
  let embedded: OpenedApi['embedded'];
  if (baseUrl === null) {
    const dir = dataDir(env);
    const { startServer, loadOrCreateDefaultKey } = await import('../../../server/index.js');
    const own = loadOrCreateDefaultKey(dir).key;
    const server = await startServer({ dataDir: dir, port: 0, keys: apiKey && apiKey !== own ? [own, apiKey] : [own] });
    embedded = { url: server.url, dataDir: dir, close: () => server.close() };
    baseUrl = server.url;
    apiKey ??= own;
    if (!options.quiet) printer.status(printer.err.dim(`Using the embedded local service (state in ${dir}); 'superagent login' connects to a hosted one.`));
  } else if (apiKey === null) {
    throw noKeyError(baseUrl);
  }
  const client = await clientFor(ctx, { baseUrl, apiKey, ...options });
  return { client, connection, embedded };
}
