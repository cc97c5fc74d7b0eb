// What `config get|set|unset|list`, `login` and `logout` share: the setting names, how each value is
// checked and shown, and which profile of the config file a command acts on.
import type { ConfigData, Profile } from '../../../config/file.js';
import { keyStoreOf } from '../../../config/keychain.js';
import { profileName } from '../../../config/resolve.js';
import { maskKey, maskUrls } from '../../../ui/mask.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../../core/errors.js';
import { shownValue } from '../../../core/shown.js';

export { ENDPOINT_SETTINGS } from '../../../config/file.js';
import { ENDPOINT_SETTINGS, PROFILE_KEYS } from '../../../config/file.js';
export const PROFILE_SETTINGS = [
  'base_url',
  'api_key',
  'output',
  'model',
  'provider',
  'render',
  ...ENDPOINT_SETTINGS,
] as const;
export const SETTINGS = [...PROFILE_SETTINGS, 'active_profile'] as const;
export const OUTPUTS = ['table', 'json'] as const;
/** `render`: Markdown rendered on a terminal (the default), or shown as the service sent it */
export const RENDERS = ['markdown', 'raw'] as const;
export const DEFAULT_PROFILE = 'default';

/** What `config list` shows of a profile: its settings, and where its key is kept (`keychain` or `file`). */
export const SHOWN_SETTINGS = PROFILE_KEYS;

export type ProfileSetting = (typeof PROFILE_SETTINGS)[number];
export type EndpointSetting = (typeof ENDPOINT_SETTINGS)[number];

export function isEndpointSetting(setting: string): setting is EndpointSetting {
  return (ENDPOINT_SETTINGS as readonly string[]).includes(setting);
}
export type Setting = (typeof SETTINGS)[number];

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export function settingName(raw: string): Setting {
  if ((SETTINGS as readonly string[]).includes(raw)) return raw as Setting;
  throw new UsageError(`unknown setting '${raw}'`, `the settings are ${SETTINGS.join(', ')}`);
}

/** Checked only when a profile is created, so a hand-edited file keeps working. */
export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(
      `'${shownValue(name)}' is not a usable profile name`,
      'use letters, digits, - and _ (up to 64 characters)',
    );
  }
  return name;
}

export function noSuchProfile(name: string): UsageError {
  return new UsageError(
    `there is no profile '${shownValue(name)}' in the config file`,
    `create it with 'superagent login --profile ${shownValue(name)}', or see 'superagent config list'`,
  );
}

export interface Target {
  name: string;
  profile: Profile | undefined;
  /** chosen by --profile or SUPERAGENT_PROFILE rather than by the file */
  explicit: boolean;
}

/** The profile a command acts on: --profile, SUPERAGENT_PROFILE, the active one, or 'default'. */
export function targetProfile(ctx: Context, config: ConfigData): Target {
  const name = profileName(ctx.globals, ctx.env, config);
  return {
    name,
    profile: config.profiles?.[name],
    explicit: Boolean(ctx.globals.profile || ctx.env.SUPERAGENT_PROFILE),
  };
}

/** The target profile, which must exist when it was asked for by name. */
export function existingTarget(ctx: Context, config: ConfigData): Target {
  const target = targetProfile(ctx, config);
  if (target.explicit && !target.profile) throw noSuchProfile(target.name);
  return target;
}

export function activeProfile(config: ConfigData): string {
  return config.active_profile || DEFAULT_PROFILE;
}

/** A setting as it may be printed: keys masked. */
export function shown(setting: ProfileSetting, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  // an RPC provider's URL may hold its key
  if (setting === 'base_url' || isEndpointSetting(setting)) return maskUrls(value);
  return setting === 'api_key' ? maskKey(value) : value;
}

/**
 * An endpoint as `config list` shows it: a path beyond "/" or a query (where an RPC provider keeps its
 * key) as "/…", credentials masked. `config get` of that one setting prints the path, as scripts ask.
 */
function listedEndpoint(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value; // 'off'
  }
  if (url.pathname === '/' && url.search === '') return maskUrls(value);
  return `${url.protocol}//${url.username || url.password ? '…@' : ''}${url.host}/…`;
}

/**
 * A profile as it may be printed or serialised: its key masked
 * (one in the keychain is not read), unknown fields dropped.
 */
export function shownProfile(profile: Profile): Record<(typeof SHOWN_SETTINGS)[number], string | undefined> {
  return {
    base_url: shown('base_url', profile.base_url),
    api_key: shown('api_key', profile.api_key),
    api_key_store: keyStoreOf(profile) ?? undefined,
    output: shown('output', profile.output),
    model: shown('model', profile.model),
    provider: shown('provider', profile.provider),
    render: shown('render', profile.render),
    ...(Object.fromEntries(ENDPOINT_SETTINGS.map((s) => [s, listedEndpoint(profile[s])])) as Record<
      EndpointSetting,
      string | undefined
    >),
  };
}
