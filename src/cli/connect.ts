// Opens the API a command talks to: the configured service, or (nothing configured) the embedded
// service started in-process on a loopback port with its state in the data dir.
import type { ApiClient, RetryPolicy } from '../api/client.js';
import { ConfigFile } from '../config/file.js';
import { configDir, dataDir } from '../config/paths.js';
import { resolveConnection, type Connection } from '../config/resolve.js';
import { noKeyError } from './errors.js';
import type { GlobalOptions } from './globals.js';
import type { Printer } from '../ui/printer.js';

export interface OpenedApi {
  client: ApiClient;
  connection: Connection;
  /** set when the embedded service runs in this process */
  embedded?: { url: string; dataDir: string; close(): Promise<void> };
}

export interface ConnectDeps {
  globals: GlobalOptions;
  env: NodeJS.ProcessEnv;
  printer: Printer;
  timeoutMs: number;
  /** fewer retries than the client's default (completion must answer within a moment) */
  retry?: Partial<RetryPolicy>;
}

export function configFile(env: NodeJS.ProcessEnv): ConfigFile {
  return new ConfigFile(configDir(env));
}

export interface ClientTarget {
  baseUrl: string;
  apiKey: string | null;
  globals: GlobalOptions;
  printer: Printer;
  timeoutMs: number;
  retry?: Partial<RetryPolicy>;
}

/** A client for an explicit base URL and key (login checks a key before anything is saved). */
export async function clientFor(target: ClientTarget): Promise<ApiClient> {
  const { globals, printer } = target;
  const { ApiClient } = await import('../api/client.js');
  const { version } = await import('./version.js');
  return new ApiClient({
    baseUrl: target.baseUrl,
    apiKey: target.apiKey,
    timeoutMs: target.timeoutMs,
    userAgent: `superagent/${version()} node/${process.version}`,
    trace: globals.debug ? (line) => printer.stderrWrite(printer.err.dim(line) + '\n') : undefined,
    notice: (line) => printer.status(printer.err.yellow(line)),
    retry: target.retry,
  });
}

/** Which service, and what chose it: `using the hosted service at https://…: a gb_sk_ key comes from SUPERAGENT_API_KEY and no base URL is set`. */
export function describeService(c: Pick<Connection, 'service' | 'baseUrl' | 'reason'>, embeddedUrl?: string): string {
  const what =
    c.service === 'embedded'
      ? `the embedded local service${embeddedUrl ? ` at ${embeddedUrl}` : ''}`
      : `${c.service === 'hosted' ? 'the hosted service' : 'the service'} at ${c.baseUrl}`;
  return `using ${what}: ${c.reason}`;
}

export async function openApi(deps: ConnectDeps): Promise<OpenedApi> {
  const { globals, env, printer } = deps;
  const connection = resolveConnection(globals, env, configFile(env).read());
  // a profile with `output json` makes its commands answer as if --json were given
  if (connection.output === 'json') printer.setJson(true);
  if (globals.debug) printer.stderrWrite(printer.err.dim(`superagent: ${describeService(connection)}`) + '\n');
  let baseUrl = connection.baseUrl;
  let apiKey = connection.apiKey;
  let embedded: OpenedApi['embedded'];
  if (baseUrl === null) {
    const dir = dataDir(env);
    const { startServer, loadOrCreateDefaultKey } = await import('../server/index.js');
    const own = loadOrCreateDefaultKey(dir).key;
    const server = await startServer({ dataDir: dir, port: 0, keys: apiKey && apiKey !== own ? [own, apiKey] : [own] });
    embedded = { url: server.url, dataDir: dir, close: () => server.close() };
    baseUrl = server.url;
    apiKey ??= own;
    printer.status(printer.err.dim(`Using the embedded local service (state in ${dir}); 'superagent login' connects to a hosted one.`));
  } else if (apiKey === null) {
    throw noKeyError(baseUrl);
  }
  const client = await clientFor({ baseUrl, apiKey, globals, printer, timeoutMs: deps.timeoutMs, retry: deps.retry });
  return { client, connection, embedded };
}
