// `superagent whoami`: where commands connect, with which key (masked), and whether that key works.
import type { KeyStore } from '../../config/keychain.js';
import type { Source } from '../../config/resolve.js';
import { printFields, yesNo } from '../../ui/format.js';
import { maskKey, maskUrls } from '../../ui/mask.js';
import { describeService, homeRelative, noKeyError } from './shared/connect.js';
import type { Context } from '../context.js';
import { CredentialsError } from '../../core/errors.js';
import { checkKey } from './shared/key-check.js';
import { keyStoreWords, resolveWithStoredKey } from './shared/stored-key.js';
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
  data_dir: string | null;
  authenticated: boolean;
  agents: number | null;
}

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const connection = await resolveWithStoredKey(ctx);
  if (connection.output === 'json') ctx.printer.setJson(true);
  const identity: Identity = {
    profile: connection.profileName,
    base_url: connection.baseUrl && maskUrls(connection.baseUrl),
    key: connection.apiKey && maskKey(connection.apiKey),
    key_source: connection.apiKeySource,
    key_store: connection.apiKeyStore,
    embedded: connection.baseUrl === null,
    service: connection.service,
    reason: connection.reason,
    data_dir: null,
    authenticated: false,
    agents: null,
  };
  if (connection.baseUrl !== null && connection.apiKey === null) {
    show(ctx, identity, 'no');
    throw noKeyError(connection.baseUrl);
  }

  const { client, embedded } = await ctx.api();
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
    show(ctx, identity, err instanceof CredentialsError ? 'no' : 'unknown');
    throw err;
  }
  show(ctx, identity, 'yes');
}

function show(ctx: Context, id: Identity, works: 'yes' | 'no' | 'unknown'): void {
  const p = ctx.printer;
  if (p.json) return p.printJson(id);
  const from = id.key_source === 'env' ? 'SUPERAGENT_API_KEY' : id.key_source === 'flag' ? '--api-key' : id.key_source;
  const kept = id.key_store ? `, kept in ${keyStoreWords(id.key_store)}` : '';
  const source = id.key_source && `(from ${from}${kept})`;
  printFields(p, [
    ['Profile', id.profile],
    ['Service', describeService({ service: id.service, baseUrl: id.base_url, reason: id.reason }).replace(/^using /, '')],
    ['Base URL', id.embedded ? `embedded local service (${dataDirShown(ctx, id.data_dir)})` : id.base_url],
    ['Key', id.key === null ? 'none' : `${id.key}${p.stdoutIsTTY && source ? ` ${p.out.dim(source)}` : ''}`],
    // piped output keeps one value per field, so the source gets its own line there
    ['Key source', p.stdoutIsTTY ? undefined : (id.key_source ?? 'none')],
    ['Key store', p.stdoutIsTTY ? undefined : (id.key_store ?? undefined)],
    ['Authenticated', works === 'unknown' ? 'unknown (the check failed)' : yesNo(p, works === 'yes')],
    ['Agents', id.agents === null ? undefined : String(id.agents)],
  ]);
}

/** The data dir as the banner says it on a terminal (`~/…`); piped, the whole path. */
function dataDirShown(ctx: Context, dir: string | null | undefined): string {
  if (!dir) return 'data dir';
  return ctx.printer.stdoutIsTTY ? homeRelative(dir, ctx.env) : dir;
}
