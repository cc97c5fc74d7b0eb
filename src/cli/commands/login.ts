// `superagent login`: store a key (and the base URL it was checked against) in a profile. The key is
// checked with a real request first, so a typo is never saved. It goes to the OS keychain where one
// can be used (the config file then says only that it is there), else to the 0600 config file.
import { hostedBaseUrl, keyProblem, normaliseBaseUrl } from '../../config/resolve.js';
import { HOSTED_KEY_PREFIX } from '../../contract.js';
import type { ConfigData, Profile } from '../../config/file.js';
import { maskKey, maskUrls } from '../../ui/mask.js';
import { clientFor } from './shared/connect.js';
import type { Context } from '../context.js';
import { UsageError } from '../../core/errors.js';
import { checkKey } from './shared/key-check.js';
import { checkProfileName, targetProfile } from './shared/settings.js';
import type { Input, Spec } from '../spec.js';
import { readSecretStdin } from './shared/stdin.js';
import { dropReplacedKey, keepKey, keptInFileLine, keyStoreWords } from './shared/stored-key.js';

export const spec = {
  description:
    'Store an API key for a service in a profile of the config file ' +
    '(--profile, SUPERAGENT_PROFILE, the active one, or "default"; ' +
    'created if new). The key is asked for (masked) on a terminal, or ' +
    'read from standard input with --with-token, and checked ' +
    'against the service before anything is saved. The base URL comes ' +
    'from --base-url, SUPERAGENT_BASE_URL or the profile, and is ' +
    'asked for on a terminal when there is none (default: the hosted ' +
    'service); with --with-token and no base URL, a hosted key ' +
    '(gb_sk_…) logs in to the hosted service. The key is kept in the OS keychain (Secret Service, macOS ' +
    'Keychain, Windows Credential Manager), the config file recording only that it is there; where no ' +
    'keychain can be used (a server, CI) it is kept in the config file (mode 0600), which one line says. ' +
    'A key the file already holds moves to the keychain. ' +
    'The embedded local service needs no login.',
  options: {
    withToken: {
      type: 'boolean',
      description: 'read the key from standard input (for scripts; keeps it out of shell history)',
    },
    insecureStorage: {
      type: 'boolean',
      description: 'keep the key in the config file (mode 0600), not the OS keychain',
    },
  },
  examples: [
    'superagent login',
    'printenv GB_KEY | superagent login --with-token',
    'superagent login --base-url https://api.example.com',
    'superagent login --with-token --base-url https://api.example.com < key.txt',
    'printenv SA_KEY | superagent login --with-token --profile staging',
  ],
} as const satisfies Spec;

const EXAMPLE = 'superagent login --with-token < key.txt';
const NO_URL_HINT =
  'pass --base-url URL: only a hosted key (gb_sk_…) implies its service (the embedded local service needs no login)';

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const file = ctx.config;
  const config = file.read();
  const { name, profile } = targetProfile(ctx, config);
  if (!profile) checkProfileName(name);
  const withToken = input.withToken;
  if (!withToken && !ctx.canPrompt) {
    throw new UsageError('no terminal to ask for the API key on', `pipe it in with --with-token, e.g. '${EXAMPLE}'`);
  }

  const given = ctx.globals.baseUrl || ctx.env.SUPERAGENT_BASE_URL || profile?.base_url;
  let baseUrl: string | undefined;
  if (given) baseUrl = normaliseBaseUrl(given);
  else if (!withToken) baseUrl = await askBaseUrl(ctx);

  const piped = () => readSecretStdin(ctx, 'the API key', `pipe in the key alone, e.g. '${EXAMPLE}'`);
  const apiKey = keyFrom(withToken ? await piped() : await askKey(ctx, baseUrl!));
  // a hosted key needs no base URL: it can only belong to the hosted service (docs/cli.md)
  if (baseUrl === undefined && apiKey.startsWith(HOSTED_KEY_PREFIX)) baseUrl = hostedBaseUrl(ctx.env);
  if (baseUrl === undefined) throw new UsageError(`no base URL to log in to for profile '${name}'`, NO_URL_HINT);

  ctx.printer.status(ctx.printer.err.dim(`Checking the key against ${baseUrl}…`));
  const client = await clientFor(ctx, { baseUrl, apiKey });
  try {
    await checkKey(client, apiKey);
  } finally {
    await client.close();
  }

  const kept = await keepKey(ctx, name, apiKey, input.insecureStorage === true);
  let madeActive = false;
  let wasInKeychain = false;
  await file.write((data: ConfigData) => {
    data.profiles ??= {};
    // the first profile of a fresh file becomes the active one, so later commands need no --profile
    madeActive = !data.active_profile && Object.keys(data.profiles).length === 0;
    if (madeActive) data.active_profile = name;
    const next: Profile = { ...data.profiles[name], base_url: baseUrl };
    wasInKeychain = next.api_key_store === 'keychain';
    // a key is kept in one place: one the file held leaves it for the keychain
    delete next.api_key;
    delete next.api_key_store;
    if (kept.store === 'keychain') next.api_key_store = 'keychain';
    else next.api_key = apiKey;
    data.profiles[name] = next;
  });
  // and one the keychain held leaves it for the file (a keychain that could not take the new key
  // cannot remove the old one either: one line says both)
  if (kept.trouble) ctx.printer.warn(keptInFileLine(ctx, kept.trouble, wasInKeychain));
  else if (kept.store === 'file' && wasInKeychain) await dropReplacedKey(ctx, name);

  const p = ctx.printer;
  const where = keyStoreWords(kept.store);
  p.done(`Logged in to ${baseUrl} as profile ${name} (key ${maskKey(apiKey)}, kept in ${where})`);
  if (madeActive && name !== 'default') p.status(`Profile '${name}' is now the active profile.`);
  if (ctx.globals.apiKey || ctx.env.SUPERAGENT_API_KEY) {
    p.warn(`${ctx.globals.apiKey ? '--api-key' : 'SUPERAGENT_API_KEY'} is set and wins over the stored key`);
  }
}

function keyFrom(raw: string): string {
  const key = raw.trim();
  if (key === '') throw new UsageError('the API key is empty', `pipe the key in, e.g. '${EXAMPLE}'`);
  if (/\s/.test(key)) throw new UsageError('the API key must be a single word without spaces or line breaks');
  const problem = keyProblem(key);
  if (problem)
    throw new UsageError(
      `the API key ${problem}`,
      'a key is one word of printable ASCII: copy it again from where it was issued',
    );
  return key;
}

async function askBaseUrl(ctx: Context): Promise<string> {
  ctx.printer.status('Which service? (the embedded local service needs no login)');
  const answer = await ctx.prompter.text('Base URL', {
    default: hostedBaseUrl(ctx.env),
    validate: (v) => {
      try {
        normaliseBaseUrl(v.trim());
        return true;
      } catch (err) {
        return (err as Error).message;
      }
    },
  });
  return normaliseBaseUrl(answer.trim());
}

async function askKey(ctx: Context, baseUrl: string): Promise<string> {
  return ctx.prompter.secret(`API key for ${maskUrls(baseUrl)}`);
}
