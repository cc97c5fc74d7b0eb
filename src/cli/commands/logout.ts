// `superagent logout`: forget the profile's key; its base URL and other settings stay.
import { maskKey } from '../../ui/mask.js';
import { configFile } from '../connect.js';
import type { Context } from '../context.js';
import { existingTarget } from '../settings.js';
import type { CommandSpec } from '../spec.js';

export const spec: CommandSpec = {
  name: 'logout',
  summary: "Forget the active profile's key",
  description:
    "Remove the API key from the profile in use (--profile, SUPERAGENT_PROFILE, or the active one). The profile's base URL and " +
    'other settings stay, so \'superagent login\' can store a new key for the same service.',
  examples: ['superagent logout', 'superagent logout --profile staging'],
};

export async function run(_args: string[], _opts: unknown, ctx: Context): Promise<void> {
  const file = configFile(ctx.env);
  const { name, profile } = existingTarget(ctx, file.read());
  const p = ctx.printer;
  const key = profile?.api_key;
  if (key === undefined) {
    p.status(`Profile '${name}' has no stored key; nothing to do.`);
  } else {
    await file.write((data) => {
      const stored = data.profiles?.[name];
      if (stored) delete stored.api_key;
    });
    p.success(`Removed the key ${maskKey(key)} from profile ${name}${profile?.base_url ? ` (${profile.base_url})` : ''}`);
  }
  if (ctx.globals.apiKey || ctx.env.SUPERAGENT_API_KEY) {
    p.warn(`${ctx.globals.apiKey ? '--api-key' : 'SUPERAGENT_API_KEY'} is still set: commands keep using that key`);
  }
}
