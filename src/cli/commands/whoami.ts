// `superagent whoami`: where commands connect, with which key (masked), and whether that key works.
import type { KeyStore } from '../../config/keychain.js';
import { dataDir } from '../../config/paths.js';
import { keychainProfile, resolveConnection, type Connection, type Source } from '../../config/resolve.js';
import { proxyShown, proxyVariableSet } from '../../api/proxy.js';
import { printFields, yesNo } from '../../ui/format.js';
import { maskKey, maskUrls } from '../../ui/mask.js';
import { describeService, homeRelative, noKeyError, type OpenedApi } from './shared/connect.js';
import type { Context } from '../context.js';
import { CredentialsError } from '../../core/errors.js';
import { checkKey } from './shared/key-check.js';
import { keychainKeyOrWhyNot, keyStoreWords, type UnreadableKey } from './shared/stored-key.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    'Show the profile in use, the base URL (or the embedded local service), the key (masked) and where it comes from ' +
    "(flag, env, profile or embedded; a profile's key is kept in the OS keychain or the config file), " +
    'which service that is and what chose it, and check the key with one request. ' +
    'Exits 3 when the key is missing or rejected, ' +
    '7 when the service cannot be reached.',
  examples: ['superagent whoami', 'superagent whoami --profile staging --json'],
} as const satisfies Spec;

export interface Identity {
  profile: string;
  /** null for the embedded local service, whose in-process address lasts only as long as the command */
  base_url: string | null;
  key: string | null;
  key_source: Source | 'embedded' | null;
  /** where a profile's key is kept (null: the key is not a profile's) */
  key_store: KeyStore | null;
  embedded: boolean;
  /** which service, and what chose it */
  service: 'embedded' | 'hosted' | 'configured';
  reason: string;
  /** the proxy requests to the base URL go through (HTTPS_PROXY, HTTP_PROXY), credentials masked */
  proxy: string | null;
  data_dir: string | null;
  authenticated: boolean;
  agents: number | null;
  /** why the key could not be checked or was not accepted (the error's line, without its advice) */
  problem: string | null;
}

/** How the check ended: `short` says why not in a few words on a terminal; `key` replaces the Key line. */
interface Outcome {
  works: 'yes' | 'no' | 'unknown';
  short?: string;
  key?: string;
}

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  // whoami is where one looks when the key does not work: a key the keychain cannot give is shown as such
  const { connection, unreadable } = await resolveForWhoami(ctx);
  if (connection.output === 'json') ctx.printer.setJson(true);
  const identity: Identity = {
    profile: connection.profileName,
    base_url: connection.baseUrl && maskUrls(connection.baseUrl),
    key: connection.apiKey && maskKey(connection.apiKey),
    key_source: unreadable ? 'profile' : connection.apiKeySource,
    key_store: unreadable ? 'keychain' : connection.apiKeyStore,
    embedded: connection.baseUrl === null,
    service: connection.service,
    reason: connection.reason,
    proxy: proxyShown(connection.baseUrl, ctx.env),
    data_dir: null,
    authenticated: false,
    agents: null,
    problem: null,
  };
  const fail = (err: Error, outcome: Outcome): never => {
    identity.problem = err.message;
    show(ctx, identity, outcome);
    throw err;
  };
  if (unreadable) {
    // no key, so no base URL the key's prefix would choose either
    if (connection.baseUrl === null) {
      identity.reason = 'no base URL is set, and the key that would choose the service cannot be read';
    }
    fail(unreadable.error, { works: 'no', short: 'no key to check', key: `in the OS keychain (${unreadable.short})` });
  }
  if (connection.baseUrl !== null && connection.apiKey === null) {
    fail(noKeyError(connection.baseUrl), { works: 'no', short: 'no key to check' });
  }

  let opened: OpenedApi;
  try {
    opened = await ctx.api({ connection });
  } catch (err) {
    // the embedded service refuses a key it does not know (a profile's base URL unset, its key kept)
    if (!(err instanceof CredentialsError)) throw err;
    if (identity.embedded) identity.data_dir = dataDir(ctx.env);
    fail(err, { works: 'no', short: 'the embedded service does not know the key' });
  }
  const { client, embedded } = opened!;
  const apiKey = client.options.apiKey!;
  if (embedded) {
    identity.data_dir = embedded.dataDir;
    identity.key = maskKey(apiKey);
    identity.key_source ??= 'embedded';
  }
  try {
    identity.agents = await checkKey(client, apiKey);
    identity.authenticated = true;
  } catch (err) {
    // what is known is still shown; the error line (stderr) says why the check failed
    if (!(err instanceof Error)) throw err;
    const rejected = err instanceof CredentialsError;
    fail(err, rejected ? { works: 'no', short: 'the service rejected the key' } : { works: 'unknown' });
  }
  show(ctx, identity, { works: 'yes' });
}

/** Where this command line connects; a keychain that cannot give the profile's key is returned, not thrown. */
async function resolveForWhoami(ctx: Context): Promise<{ connection: Connection; unreadable?: UnreadableKey }> {
  const config = ctx.config.read();
  const name = keychainProfile(ctx.globals, ctx.env, config);
  const key = name === undefined ? undefined : await keychainKeyOrWhyNot(ctx, name);
  if (typeof key === 'object') return { connection: resolveConnection(ctx.globals, ctx.env, config), unreadable: key };
  return { connection: resolveConnection(ctx.globals, ctx.env, config, key) };
}

function show(ctx: Context, id: Identity, outcome: Outcome): void {
  const p = ctx.printer;
  if (p.json) return p.printJson(id);
  const from = id.key_source === 'env' ? 'SUPERAGENT_API_KEY' : id.key_source === 'flag' ? '--api-key' : id.key_source;
  const kept = id.key_store ? `, kept in ${keyStoreWords(id.key_store)}` : '';
  const source = id.key_source && `(from ${from}${kept})`;
  const key = id.key === null ? 'none' : `${id.key}${p.stdoutIsTTY && source ? ` ${p.out.dim(source)}` : ''}`;
  const works = outcome.works;
  const authenticated = works === 'unknown' ? 'unknown (the check failed)' : yesNo(p, works === 'yes');
  printFields(p, [
    ['Profile', id.profile],
    [
      'Service',
      describeService({ service: id.service, baseUrl: id.base_url, reason: id.reason }).replace(/^using /, ''),
    ],
    ['Base URL', id.embedded ? `embedded local service (${dataDirShown(ctx, id.data_dir)})` : id.base_url],
    ['Proxy', id.proxy ?? (id.embedded ? proxyNotUsed(ctx) : undefined)],
    ['Key', p.stdoutIsTTY && outcome.key ? outcome.key : key],
    // piped output keeps one value per field, so the source gets its own line there
    ['Key source', p.stdoutIsTTY ? undefined : (id.key_source ?? 'none')],
    ['Key store', p.stdoutIsTTY ? undefined : (id.key_store ?? undefined)],
    ['Authenticated', p.stdoutIsTTY && outcome.short ? `${authenticated} (${outcome.short})` : authenticated],
    ['Agents', id.agents === null ? undefined : String(id.agents)],
    // on a terminal the error line below says it
    ['Problem', p.stdoutIsTTY ? undefined : id.problem],
  ]);
}

/** A proxy variable set while the embedded service answers: said, lest the user think the proxy is in use. */
function proxyNotUsed(ctx: Context): string | undefined {
  const name = proxyVariableSet(ctx.env);
  return name && `not used by the embedded service (${name} is set)`;
}

/** The data dir as the banner says it on a terminal (`~/…`); piped, the whole path. */
function dataDirShown(ctx: Context, dir: string | null | undefined): string {
  if (!dir) return 'data dir';
  return ctx.printer.stdoutIsTTY ? homeRelative(dir, ctx.env) : dir;
}
