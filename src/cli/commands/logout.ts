// `superagent logout`: forget the profile's key, from the OS keychain and from the config file; its
// base URL and other settings stay.
import { maskKey } from '../../ui/mask.js';
import type { Context } from '../context.js';
import { existingTarget } from './shared/settings.js';
import { forgetKey, forgottenWords } from './shared/stored-key.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    'Remove the API key from the profile in use (--profile, SUPERAGENT_PROFILE, or the active one): from the OS ' +
    'keychain and from the config file, wherever it is kept (the keychain is looked in even when the profile ' +
    'keeps its key in the file: a login where it could not be used left a copy there). ' +
    "The profile's base URL and other settings stay, so " +
    "'superagent login' can store a new key for the same service.",
  examples: ['superagent logout', 'superagent logout --profile staging'],
} as const satisfies Spec;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const { name, profile } = existingTarget(ctx, ctx.config.read());
  const p = ctx.printer;
  // the keychain is looked in whatever the profile says: a login where it could not be used left a copy there
  const gone = await forgetKey(ctx, name, profile, 'superagent logout');
  const where = forgottenWords(gone);
  if (where === undefined) {
    p.status(`Profile '${name}' has no stored key; nothing to do.`);
  } else {
    const key = profile?.api_key === undefined ? 'key' : `key ${maskKey(profile.api_key)}`;
    const url = profile?.base_url ? ` (${profile.base_url})` : '';
    // piped too (as login says where it kept the key): a CI log shows the logout
    p.done(`Removed the ${key} of profile ${name} from ${where}${url}`);
    // with its base URL kept, the profile now fails every command for want of a key: say both ways on
    if (profile?.base_url)
      p.status(
        p.err.dim(
          `'superagent login' stores a new key; 'superagent config unset base_url' goes back to the embedded service.`,
        ),
      );
  }
  if (ctx.globals.apiKey || ctx.env.SUPERAGENT_API_KEY) {
    p.warn(`${ctx.globals.apiKey ? '--api-key' : 'SUPERAGENT_API_KEY'} is still set: commands keep using that key`);
  }
}
