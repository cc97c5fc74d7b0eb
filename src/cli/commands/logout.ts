// `superagent logout`: forget the profile's key, from the OS keychain and from the config file; its
// base URL and other settings stay.
import { keyStoreOf } from '../../config/keychain.js';
import { maskKey } from '../../ui/mask.js';
import type { Context } from '../context.js';
import { existingTarget } from './shared/settings.js';
import { forgetKey, keyStoreWords } from './shared/stored-key.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    'Remove the API key from the profile in use (--profile, SUPERAGENT_PROFILE, or the active one): from the OS ' +
    "keychain and from the config file, wherever it is kept. The profile's base URL and other settings stay, so " +
    "'superagent login' can store a new key for the same service.",
  examples: ['superagent logout', 'superagent logout --profile staging'],
} as const satisfies Spec;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const { name, profile } = existingTarget(ctx, ctx.config.read());
  const p = ctx.printer;
  if (!profile || keyStoreOf(profile) === null) {
    p.status(`Profile '${name}' has no stored key; nothing to do.`);
  } else {
    const kept = await forgetKey(ctx, name, profile, 'superagent logout');
    const where = kept.map(keyStoreWords).join(' and ');
    const key = profile.api_key === undefined ? 'key' : `key ${maskKey(profile.api_key)}`;
    const url = profile.base_url ? ` (${profile.base_url})` : '';
    p.success(`Removed the ${key} of profile ${name} from ${where}${url}`);
    // with its base URL kept, the profile now fails every command for want of a key: say both ways on
    if (profile.base_url) p.status(p.err.dim(`'superagent login' stores a new key; 'superagent config unset base_url' goes back to the embedded service.`));
  }
  if (ctx.globals.apiKey || ctx.env.SUPERAGENT_API_KEY) {
    p.warn(`${ctx.globals.apiKey ? '--api-key' : 'SUPERAGENT_API_KEY'} is still set: commands keep using that key`);
  }
}
