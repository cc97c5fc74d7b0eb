// `superagent config list`: every profile and its settings, keys masked.
import type { Context } from '../../context.js';
import { printTable, tsvRow } from '../../../ui/format.js';
import { activeProfile, SHOWN_SETTINGS, shownProfile, targetProfile } from '../shared/settings.js';
import type { Input, Spec } from '../../spec.js';

export const spec = {
  description:
    'Show the active profile and every profile with its settings (base_url, api_key masked, ' +
    'api_key_store: where the key is kept, keychain or file, output, ' +
    'model, provider, render, the endpoints: one with a path or query, where a provider may keep its key, ' +
    "as its origin and '/…'; config get prints it whole). On a terminal a table with " +
    'the profile in use marked *; piped, one "active_profile<TAB>NAME" ' +
    'line and one "PROFILE.SETTING<TAB>VALUE" line per setting; JSON ' +
    'with --json or while the profile in use says output json.',
  examples: ['superagent config list', 'superagent config list --json | jq .profiles'],
} as const satisfies Spec;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const config = ctx.config.read();
  const profiles = Object.entries(config.profiles ?? {}).map(
    ([name, profile]) => [name, shownProfile(profile)] as const,
  );
  const p = ctx.printer;
  const inUse = targetProfile(ctx, config);
  // a profile that answers in JSON does so here too, as every command that connects does
  if (inUse.profile?.output === 'json') p.setJson(true);
  if (p.json) return p.printJson({ active_profile: activeProfile(config), profiles: Object.fromEntries(profiles) });
  if (!p.stdoutIsTTY) {
    p.data(tsvRow(['active_profile', activeProfile(config)]));
    for (const [name, settings] of profiles) {
      for (const key of SHOWN_SETTINGS) {
        if (settings[key] !== undefined) p.data(tsvRow([`${name}.${key}`, String(settings[key])]));
      }
    }
    return;
  }
  if (profiles.length === 0) {
    p.status(
      "No profiles yet: every command uses the embedded local service. 'superagent login --base-url URL' adds one.",
    );
    return;
  }
  // the profile in use has a row even with no settings of its own (no entry in the file yet)
  const listed = profiles.some(([name]) => name === inUse.name);
  const rows = listed ? profiles : [[inUse.name, shownProfile({})] as const, ...profiles];
  printTable(
    p,
    ['', 'PROFILE', 'BASE URL', 'KEY', 'OUTPUT', 'RENDER', 'MODEL'],
    rows.map(([name, s]) => [
      name === inUse.name ? '*' : '',
      name,
      s.base_url ?? p.out.dim('embedded'),
      s.api_key_store === 'keychain' ? 'keychain' : s.api_key ? `${s.api_key} (file)` : p.out.dim('none'),
      s.output ?? 'table',
      s.render ?? 'markdown',
      s.model || s.provider
        ? [s.model, s.provider && `(${s.provider})`].filter(Boolean).join(' ')
        : p.out.dim('default'),
    ]),
    { fixed: [0, 3, 4, 5] },
  );
}
