// `superagent config unset KEY`: remove one setting of the profile in use (or the active profile choice).
import { keyStoreOf } from '../../../config/keychain.js';
import type { Profile } from '../../../config/file.js';
import { EMBEDDED_KEY_PREFIX, HOSTED_KEY_PREFIX } from '../../../contract.js';
import { maskKey } from '../../../ui/mask.js';
import type { Context } from '../../context.js';
import { forgetKey, forgottenWords } from '../shared/stored-key.js';
import { existingTarget, settingName, SETTINGS } from '../shared/settings.js';
import type { Input, Spec } from '../../spec.js';

export const spec = {
  description:
    `Remove one setting (${SETTINGS.join(', ')}) from the profile in ` +
    `use (--profile, SUPERAGENT_PROFILE, or the active one). ` +
    "Without base_url the profile uses the embedded local service (once it has no key either: 'superagent logout'); " +
    "without active_profile the 'default' profile is used.",
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
    p.success(
      "Removed active_profile: the 'default' profile is used unless --profile or SUPERAGENT_PROFILE says otherwise",
    );
    return;
  }
  const { name, profile } = existingTarget(ctx, config);
  // the key, as logout removes it: wherever it is kept (the OS keychain, looked in whatever the profile says; the file)
  if (key === 'api_key') {
    const where = forgottenWords(await forgetKey(ctx, name, profile, 'superagent config unset api_key'));
    if (where !== undefined) return p.success(`Removed api_key from profile ${name} (it was in ${where})`);
  }
  if (profile?.[key] === undefined) return p.status(`${key} is not set in profile '${name}'; nothing to do.`);
  await file.write((data) => {
    const stored = data.profiles?.[name];
    if (stored) delete stored[key];
  });
  p.success(`Removed ${key} from profile ${name}`);
  if (key === 'base_url' && keyStoreOf(profile) !== null) p.warn(keyStaysLine(ctx, name, profile!));
}

/**
 * A profile without a base URL still sends its key with every command, to where the key's prefix says:
 * said at once, with what takes the key away (an sa_sk_ key the embedded service did not issue fails
 * every command until then). A key in the keychain is not read for this.
 */
function keyStaysLine(ctx: Context, name: string, profile: Profile): string {
  const key = profile.api_key;
  const logout = `superagent logout${ctx.globals.profile ? ` --profile ${name}` : ''}`;
  const which = key === undefined ? 'in the OS keychain' : maskKey(key);
  const goes = `with no base URL ${whereKeyGoes(key)}`;
  const then = `'${logout}' removes it, and the embedded service's own key is used`;
  return `Profile '${name}' still has its key (${which}): ${goes}; ${then}`;
}

/** Where a key with no base URL goes, by its prefix (undefined: a key kept in the keychain, not read). */
function whereKeyGoes(key: string | undefined): string {
  const embedded = 'the embedded service, which takes only a key it issued';
  if (key === undefined) {
    return `a ${HOSTED_KEY_PREFIX} key goes to the hosted service, an ${EMBEDDED_KEY_PREFIX} key to ${embedded}`;
  }
  if (key.startsWith(HOSTED_KEY_PREFIX)) return 'it goes to the hosted service';
  if (key.startsWith(EMBEDDED_KEY_PREFIX)) return `it goes to ${embedded}`;
  return `it belongs nowhere (neither ${HOSTED_KEY_PREFIX}… nor ${EMBEDDED_KEY_PREFIX}…), so commands fail`;
}
