// `superagent config unset KEY`: remove one setting of the profile in use (or the active profile choice).
import { keyStoreOf } from '../../../config/keychain.js';
import type { Context } from '../../context.js';
import { forgetKey, keyStoreWords } from '../shared/stored-key.js';
import { existingTarget, settingName, SETTINGS } from '../shared/settings.js';
import type { Input, Spec } from '../../spec.js';

export const spec = {
  description:
    `Remove one setting (${SETTINGS.join(', ')}) from the profile in use (--profile, SUPERAGENT_PROFILE, or the active one). ` +
    "Without base_url the profile uses the embedded local service; without active_profile the 'default' profile is used.",
  args: [{ name: 'key', description: SETTINGS.join(' | '), required: true, choices: SETTINGS }],
  examples: ['superagent config unset output', 'superagent config unset base_url --profile staging'],
} as const satisfies Spec;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const raw = input.key;
  const key = settingName(raw!);
  const file = ctx.config;
  const config = file.read();
  const p = ctx.printer;
  if (key === 'active_profile') {
    if (config.active_profile === undefined) return p.status('active_profile is not set; nothing to do.');
    await file.write((data) => void delete data.active_profile);
    p.success("Removed active_profile: the 'default' profile is used unless --profile or SUPERAGENT_PROFILE says otherwise");
    return;
  }
  const { name, profile } = existingTarget(ctx, config);
  // the key, as logout removes it: wherever it is kept (the OS keychain, the file)
  if (key === 'api_key' && profile && keyStoreOf(profile) !== null) {
    const kept = await forgetKey(ctx, name, profile, 'superagent config unset api_key');
    return p.success(`Removed api_key from profile ${name} (it was in ${kept.map(keyStoreWords).join(' and ')})`);
  }
  if (profile?.[key] === undefined) return p.status(`${key} is not set in profile '${name}'; nothing to do.`);
  await file.write((data) => {
    const stored = data.profiles?.[name];
    if (stored) delete stored[key];
  });
  p.success(`Removed ${key} from profile ${name}`);
}
