// Opens the API a command talks to: the configured service, or (nothing configured) the embedded
// service started in-process on a loopback port with its state in the data dir.
import fs from 'node:fs';
import path from 'node:path';
import type { ApiClient } from '../../../api/client.js';
import { dataDir } from '../../../config/paths.js';
import { keySourceWords, type Connection, type Source } from '../../../config/resolve.js';
import { CredentialsError, LocalStateError, asEnvironmentError, rephrased } from '../../../core/errors.js';
import { ServerError, StreamCutError } from '../../../api/errors.js';
import { ISSUES_URL } from '../../exit-codes.js';
import { version } from '../../../core/version.js';
import type { Context } from '../../context.js';
import { WAIT_SPINNER_MS } from '../../../ui/spinner.js';
import { holdSecret, maskKey, maskUrls } from '../../../ui/mask.js';
import { LEFT_OUT_HEADER } from '../../../contract.js';
import { maskProxy, proxyOf, unusableProxy } from '../../../api/proxy.js';
import type { ServiceFailure } from '../../../server/index.js';
import type { ConnectOptions, OpenedApi } from './opened-api.js';
import { resolveWithStoredKey } from './stored-key.js';
import { simOptionsFromEnv } from './sim-env.js';

export type { ConnectOptions, OpenedApi };

/** No key for a configured service (connect and whoami say the same). */
export function noKeyError(baseUrl: string): CredentialsError {
  return new CredentialsError(`no API key for ${baseUrl}`, "run 'superagent login', or set SUPERAGENT_API_KEY");
}

export interface ClientTarget extends ConnectOptions {
  baseUrl: string;
  /** the embedded service, in this process: never through a proxy (one elsewhere cannot reach its loopback) */
  direct?: boolean;
  apiKey: string | null;
}

/** A retry wait: on a terminal, a countdown for a long one; the wait itself is the Context's clock. */
async function countdown(ctx: Context, ms: number, reason: string, signal?: AbortSignal): Promise<void> {
  const shown =
    ms >= 2_000
      ? ctx.spinner('', {
          text: (elapsed) => `${reason}; retrying in ${Math.max(0, Math.ceil((ms - elapsed) / 1000))} s`,
        })
      : undefined;
  try {
    await ctx.clock.sleep(ms, signal);
  } finally {
    shown?.stop();
  }
}

/**
 * The waiting spinner of one request after another: each counts on from the waits before it, so the
 * seconds shown are the command's whole wait for the service, not this request's.
 */
function totalWait(ctx: Context): () => { stop(): void } {
  let waited = 0;
  return () => {
    const began = Date.now();
    const shown = ctx.spinner('Waiting for the service…', { delayMs: WAIT_SPINNER_MS, startedAt: began - waited });
    let stopped = false;
    return {
      stop() {
        shown.stop();
        if (!stopped) waited += Date.now() - began;
        stopped = true;
      },
    };
  };
}

/** A client for an explicit base URL and key (login checks a key before anything is saved). */
export async function clientFor(ctx: Context, target: ClientTarget): Promise<ApiClient> {
  const { globals, printer } = ctx;
  const { ApiClient, DEFAULT_RETRY_POLICY } = await import('../../../api/client.js');
  // whatever the service says back (an error that echoes the key) is printed with the key masked
  holdSecret(target.apiKey);
  let waitReason = 'Waiting';
  const proxyEnv = target.direct ? undefined : ctx.env;
  const via = proxyEnv && proxyOf(target.baseUrl, proxyEnv);
  const unusable = via && unusableProxy(via);
  if (unusable) throw unusable;
  const said = `requests go through the proxy ${via && maskProxy(via.proxy)}`;
  if (via && globals.debug) printer.stderrWrite(printer.err.dim(said) + '\n');
  return new ApiClient({
    baseUrl: target.baseUrl,
    apiKey: target.apiKey,
    timeoutMs: target.timeoutMs ?? ctx.timeoutMs(),
    userAgent: `superagent/${version()} node/${process.version}`,
    extraCaCerts: ctx.env.NODE_EXTRA_CA_CERTS || undefined,
    proxyEnv,
    trace: globals.debug ? (line) => printer.stderrWrite(printer.err.dim(line) + '\n') : undefined,
    notice: (line, kind) => {
      waitReason = kind.rateLimited ? 'Rate limited by the service' : 'The service is having trouble';
      if (target.quiet) return;
      // a rate-limit wait is said even in a pipe (a log shows why the job paused); on a terminal the
      // countdown below says it (over any spinner); other retries are said on a terminal only
      if (kind.rateLimited && !printer.chatty) printer.warn(line);
      else if (!kind.rateLimited) printer.status(printer.err.yellow(line));
    },
    // one budget of 429 waiting for the whole command: 60 s, or --timeout when that is shorter
    retry: {
      rateLimitWaitMs: Math.min(DEFAULT_RETRY_POLICY.rateLimitWaitMs, (globals.timeout ?? Infinity) * 1000),
      ...target.retry,
    },
    pacer: target.pacer,
    sleep: (ms, signal) => countdown(ctx, ms, waitReason, signal),
    waiting: target.quiet ? undefined : totalWait(ctx),
    onAnswer: (headers) => {
      const left = Number(headers[LEFT_OUT_HEADER]);
      if (Number.isInteger(left) && left > 0) ctx.serviceLeftOut(left);
    },
  });
}

/**
 * Which service, and what chose it: `using the hosted service at https://…:
 * a gb_sk_ key comes from SUPERAGENT_API_KEY and no base URL is set`.
 */
export function describeService(c: Pick<Connection, 'service' | 'baseUrl' | 'reason'>, embeddedUrl?: string): string {
  const what =
    c.service === 'embedded'
      ? `the embedded local service${embeddedUrl ? ` at ${embeddedUrl}` : ''}`
      : `${c.service === 'hosted' ? 'the hosted service' : 'the service'} at ${maskUrls(c.baseUrl ?? '')}`;
  return `using ${what}: ${c.reason}`;
}

/** `~/…` for a path under the home directory (what the README shows). */
export function homeRelative(dir: string, env: NodeJS.ProcessEnv): string {
  const home = env.HOME;
  return home && home !== '/' && (dir === home || dir.startsWith(`${home}/`)) ? `~${dir.slice(home.length)}` : dir;
}

/** Two short lines: where the state is, and how to use another service. */
export function embeddedBanner(dir: string, env: NodeJS.ProcessEnv): string {
  return (
    `Using the embedded local service; its state is in ` +
    `${homeRelative(dir, env)}\n'superagent login' connects to a hosted one.`
  );
}

const BANNER_MARK = '.banner-shown';
const bannerShown = (dir: string) => fs.existsSync(path.join(dir, BANNER_MARK));

/** Best effort: a data dir that takes no mark shows the banner again, nothing worse. */
function markBannerShown(dir: string): void {
  try {
    fs.writeFileSync(path.join(dir, BANNER_MARK), '', { mode: 0o600 });
  } catch {
    // said again next time
  }
}

const EMBEDDED_DIR_HINT = 'set SUPERAGENT_DATA_DIR to a directory you can write, or move what is there aside';

/**
 * The embedded service on the data dir. A data dir that cannot hold state (a file where the dir
 * should be, no permission, state that cannot be read) is the user's to fix, not a bug: exit 2
 * naming the path.
 */
async function startEmbedded(dir: string, apiKey: string | null, log: ServiceLog, env: NodeJS.ProcessEnv) {
  const { startServer, loadOrCreateDefaultKey, keyHasAccount } = await import('../../../server/index.js');
  const sim = simOptionsFromEnv(env);
  try {
    const { key, created } = loadOrCreateDefaultKey(dir);
    const keys = apiKey && apiKey !== key ? [key, apiKey] : [key];
    const server = await startServer({
      dataDir: dir,
      port: 0,
      keys,
      log: log.line,
      onFailure: log.failed,
      ...sim,
    });
    return { key, created, server, knows: (other: string) => other === key || keyHasAccount(dir, other) };
  } catch (err) {
    const refused = dataDirFailure(err, dir, 'the embedded service', EMBEDDED_DIR_HINT);
    if (refused) throw refused;
    const e = err as NodeJS.ErrnoException;
    if (typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code) && e.code !== 'EADDRINUSE') {
      throw new LocalStateError(`the embedded service cannot keep its state in ${dir}: ${e.code}`, EMBEDDED_DIR_HINT);
    }
    // its message names the file and what to do with it
    throw storeFailure(err, 'the embedded service') ?? err;
  }
}

/**
 * A data dir the service cannot keep its state in (a file in its place, a read-only file system, no
 * permission, a full disk), as one line naming it; undefined for any other failure.
 */
export function dataDirFailure(err: unknown, dir: string, who: string, hint: string): LocalStateError | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const refused = asEnvironmentError(err);
  const notDir = code === 'ENOTDIR' || code === 'EEXIST';
  // what is refused inside it (records/ that may not be read, or is a file), not the data dir itself:
  // named, since the data dir may be fine (a full or read-only disk is the whole dir's, said as such)
  const inner = refused?.path !== undefined && isBelow(dir, refused.path);
  if (inner && !refused.full && refused.code !== 'EROFS') {
    const what = notDir ? `${refused.path} is not a directory` : `${refused.action} ${refused.path}: ${refused.reason}`;
    return new LocalStateError(`${who} cannot keep its state in ${dir}: ${what}`, refused.hint);
  }
  const reason = notDir ? 'it is not a directory' : refused?.reason;
  if (reason === undefined) return undefined;
  return new LocalStateError(`${who} cannot keep its state in ${dir}: ${reason}`, refused?.full ? refused.hint : hint);
}

/** Whether `p` lies inside `dir` (not `dir` itself). */
function isBelow(dir: string, p: string): boolean {
  const rel = path.relative(dir, p);
  return rel !== '' && rel.split(path.sep)[0] !== '..' && !path.isAbsolute(rel);
}

/**
 * An sa_sk_ key the data dir has no account for (mistyped, issued by another `superagent server`, or
 * a profile's key left there when its base URL was unset): refused, not given a new, empty account.
 * The hint names what gives the key, and how to take it away.
 */
function unknownEmbeddedKey(ctx: Context, connection: Connection, key: string, own: string, dir: string) {
  const profile = ctx.globals.profile ? ` --profile ${connection.profileName}` : '';
  const ownKey = "to use the embedded service's own key";
  const hints: Record<Source, string> = {
    profile:
      `run 'superagent logout${profile}' (or 'superagent config unset api_key${profile}') ${ownKey}, ` +
      `or 'superagent config set base_url URL${profile}' to use the service that issued it`,
    env: `unset SUPERAGENT_API_KEY ${ownKey}, or set SUPERAGENT_BASE_URL to the service that issued it`,
    flag: `leave out --api-key ${ownKey}, or add --base-url for the service that issued it`,
  };
  return new CredentialsError(
    `the embedded service in ${dir} does not know the key ${maskKey(key)} ` +
      `from ${keySourceWords(connection)} (its own is ${maskKey(own)})`,
    hints[connection.apiKeySource ?? 'env'],
  );
}

const cannotUse = (why: string, who = 'the embedded service') =>
  `${who} cannot use its state: ${why.charAt(0).toLowerCase()}${why.slice(1)}`;

/** A store the service cannot read (a record or state.json that is not valid): exit 2, its words naming the file. */
export function storeFailure(err: unknown, who: string): LocalStateError | undefined {
  // its class is the service bundle's own: known by its name
  return err instanceof Error && err.name === 'StoreCorruptError'
    ? new LocalStateError(cannotUse(err.message, who))
    : undefined;
}

/**
 * What the in-process service says: its log lines are not the user's business (shown with --debug);
 * its failures (its onFailure events) are: the last one explains the 500 the command got: a store it
 * cannot read, or a disk that refused its write, is the user's to fix (exit 2 naming the file),
 * anything else is our bug.
 */
class ServiceLog {
  private failure: { kind: 'store' | 'storage' | 'error'; text: string } | undefined;
  private readonly skipped = new Set<string>();

  constructor(private readonly show?: (line: string) => void) {}

  readonly line = (text: string): void => this.show?.(text);

  readonly failed = (f: ServiceFailure): void => {
    if (f.kind === 'left-out') this.skipped.add(f.message);
    else this.failure = { kind: f.kind, text: f.message.split('\n')[0]! };
  };

  /** What the listings did without: the command did what it could with the rest, then fails (exit 2). */
  leftOut(): LocalStateError | undefined {
    const [first, ...more] = this.skipped;
    if (first === undefined) return undefined;
    const others = more.length > 0 ? ` (and ${more.length} more: --debug lists them)` : '';
    return new LocalStateError(
      `the embedded service left out a record it cannot read${others}: ` +
        `${first.charAt(0).toLowerCase()}${first.slice(1)}`,
    );
  }

  explain(err: unknown): unknown {
    if (!this.failure) return err;
    const { kind, text } = this.failure;
    // the disk or file system refused its data dir ("cannot write <file>: the disk is full (…)"): a
    // 500, or a stream ended in-band (the write of a new session, beside its reply)
    const refused = kind === 'storage' && (err instanceof ServerError || err instanceof StreamCutError);
    if (refused) return new LocalStateError(`the embedded service ${text}`);
    if (!(err instanceof ServerError)) return err;
    if (kind === 'store') return new LocalStateError(cannotUse(text));
    return rephrased(
      err,
      `the embedded service failed: ${text}`,
      `this is a bug: please report it at ${ISSUES_URL} with the output of the same command run with --debug`,
    );
  }
}

export async function openApi(ctx: Context, options: ConnectOptions = {}): Promise<OpenedApi> {
  const { globals, env, printer } = ctx;
  // a connection with a time-out of its own (a Tab's budget) waits no longer for the keychain
  const wait = { ms: options.timeoutMs, quiet: options.quiet };
  const connection = options.connection ?? (await resolveWithStoredKey(ctx, ctx.globals, wait));
  // a profile with `output json` makes its commands answer as if --json were given
  if (connection.output === 'json') printer.setJson(true);
  if (globals.debug) printer.stderrWrite(printer.err.dim(`superagent: ${describeService(connection)}`) + '\n');
  let baseUrl = connection.baseUrl;
  let apiKey = connection.apiKey;
  let embedded: OpenedApi['embedded'];
  if (baseUrl === null) {
    const dir = dataDir(env);
    const log = new ServiceLog(
      globals.debug ? (line) => printer.stderrWrite(printer.err.dim(`service: ${line}`) + '\n') : undefined,
    );
    const { key: own, server, knows } = await startEmbedded(dir, apiKey, log, env);
    if (apiKey !== null && !knows(apiKey)) {
      await server.close();
      throw unknownEmbeddedKey(ctx, connection, apiKey, own, homeRelative(dir, env));
    }
    embedded = {
      url: server.url,
      dataDir: dir,
      close: () => server.close(),
      explain: (err) => log.explain(err),
      leftOut: () => log.leftOut(),
    };
    baseUrl = server.url;
    apiKey ??= own;
    // said once per data dir, the first time someone can see it (a piped first command does not use
    // it up); `whoami` always says it
    if (!options.quiet && printer.chatty && !bannerShown(dir)) {
      printer.status(printer.err.dim(embeddedBanner(dir, env)));
      markBannerShown(dir);
    }
  } else if (apiKey === null) {
    throw noKeyError(baseUrl);
  }
  const client = await clientFor(ctx, { baseUrl, apiKey, direct: embedded !== undefined, ...options });
  return { client, connection, embedded };
}
