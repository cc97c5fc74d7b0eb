// `superagent config get KEY`: one setting of the profile in use (api_key masked).
import { keyStoreOf } from '../../../config/keychain.js';
import type { Context } from '../../context.js';
import { maskKey } from '../../../ui/mask.js';
import { keychainKey } from '../shared/stored-key.js';
import { activeProfile, existingTarget, settingName, shown, SETTINGS } from '../shared/settings.js';
import type { Input, Spec } from '../../spec.js';

export const spec = {
  description:
    `Print one setting (${SETTINGS.join(', ')}) of the profile in ` +
    `use (--profile, SUPERAGENT_PROFILE, or the active one). ` +
    'api_key prints masked (read from the OS keychain when it is kept there); ' +
    'output, render and active_profile print their defaults (table, markdown, default) when unset; ' +
    'an unset base_url or api_key prints nothing.',
  args: [{ name: 'key', description: SETTINGS.join(' | '), required: true, choices: SETTINGS }],
  examples: ['superagent config get base_url', 'superagent config get output --profile staging'],
} as const satisfies Spec;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const raw = input.key;
  const key = settingName(raw!);
  const config = ctx.config.read();
  let value: string | undefined;
  let where = '';
  if (key === 'active_profile') {
    value = activeProfile(config);
  } else {
    const { name, profile } = existingTarget(ctx, config);
    if (key === 'api_key' && keyStoreOf(profile) === 'keychain') value = maskKey(await keychainKey(ctx, name));
    else if (key === 'output') value = profile?.output ?? 'table';
    else if (key === 'render') value = profile?.render ?? 'markdown';
    else value = shown(key, profile?.[key]);
    where = ` in profile '${name}'`;
  }
  const p = ctx.printer;
  if (p.json) return p.printJson(value ?? null);
  if (value === undefined) return p.status(`${key} is not set${where}.`);
  p.data(value);
}
