// `superagent config get KEY`: one setting of the profile in use (api_key masked).
import { keyStoreOf } from '../../../config/keychain.js';
import type { Context } from '../../context.js';
import { maskKey } from '../../../ui/mask.js';
import { keychainKey } from '../shared/stored-key.js';
import { activeProfile, existingTarget, settingName, shown, SETTINGS } from '../shared/settings.js';
import type { Input, Spec } from '../../spec.js';
import { NoMatchError } from '../../../core/errors.js';
import { EXIT } from '../../exit-codes.js';

export const spec = {
  description:
    `Print one setting (${SETTINGS.join(', ')}) of the profile in ` +
    `use (--profile, SUPERAGENT_PROFILE, or the active one). ` +
    'api_key prints masked (read from the OS keychain when it is kept there); ' +
    'output, render and active_profile print their defaults (table, markdown, default) when unset; ' +
    'an unset setting (base_url, api_key, model, provider) exits 4, piped or not, as git config exits 1: ' +
    'one line on stderr says so, and --json prints null.',
  args: [{ name: 'key', description: SETTINGS.join(' | '), required: true, choices: SETTINGS }],
  examples: ['superagent config get base_url', 'superagent config get output --profile staging'],
} as const satisfies Spec;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<number> {
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
  if (p.json) p.printJson(value ?? null);
  else if (value === undefined) throw notSet(key, where);
  else p.data(value);
  // unset is not empty: a script tells them apart by the exit code
  return value === undefined ? EXIT.notFound : EXIT.ok;
}

function notSet(key: string, where: string): NoMatchError {
  const how = key === 'api_key' ? "log in with 'superagent login'" : `set it with 'superagent config set ${key} VALUE'`;
  return new NoMatchError(`${key} is not set${where}`, how);
}
