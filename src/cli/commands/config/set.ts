// `superagent config set KEY VALUE`: change one setting of the profile in use (created if new).
import type { ConfigData } from '../../../config/file.js';
import { normaliseBaseUrl } from '../../../config/resolve.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../../core/errors.js';
import { parseModel, parseProvider } from '../shared/providers.js';
import {
  checkProfileName,
  noSuchProfile,
  OUTPUTS,
  RENDERS,
  SETTINGS,
  settingName,
  targetProfile,
  DEFAULT_PROFILE,
  isEndpointSetting,
  type Setting,
} from '../shared/settings.js';
import { isEndpointValue } from '../shared/money.js';
import type { Input, Spec } from '../../spec.js';

export const spec = {
  description:
    `Change one setting (${SETTINGS.join(', ')}) of the profile in ` +
    `use (--profile, SUPERAGENT_PROFILE, or the active one; ` +
    "created if new). output is table or json (json: the profile's " +
    'commands print JSON as with --json). model and provider are ' +
    'what launch uses when --model and --provider are not given. render ' +
    'is markdown (replies and agent files rendered on a terminal, ' +
    'the default) or raw (shown as the service sent them, like ' +
    '--raw). rpc.<chain>, hyperliquid_url and polymarket_url ' +
    "are where wallet, positions and pnl read each source: an http(s) URL, or 'off' to skip it. active_profile names " +
    'the profile used by default. api_key cannot be set here, so it never ' +
    "sits in shell history: use 'superagent login --with-token'.",
  args: [
    {
      name: 'key',
      description: SETTINGS.join(' | '),
      required: true,
      choices: SETTINGS.filter((s) => s !== 'api_key'),
    },
    { name: 'value', description: 'the new value', required: true },
  ],
  examples: [
    'superagent config set base_url https://api.example.com',
    'superagent config set model gpt-4o',
    'superagent config set provider openai',
    'superagent config set output json --profile ci',
    'superagent config set render raw',
    'superagent config set rpc.base https://base.example.org',
    'superagent config set active_profile staging',
  ],
} as const satisfies Spec;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const rawKey = input.key;
  const rawValue = input.value;
  const key = settingName(rawKey!);
  const value = checkValue(key, rawValue!.trim());
  const file = ctx.config;
  const config = file.read();
  const p = ctx.printer;
  if (key === 'active_profile') {
    if (!config.profiles?.[value] && value !== DEFAULT_PROFILE) throw noSuchProfile(value);
    await file.write((data) => void (data.active_profile = value));
    p.success(`Profile ${value} is now the active profile`);
    return;
  }
  const { name, profile } = targetProfile(ctx, config);
  if (!profile) checkProfileName(name);
  await file.write((data: ConfigData) => {
    data.profiles ??= {};
    data.profiles[name] = { ...data.profiles[name], [key]: value };
  });
  p.success(`Set ${key} to ${value} in ${profile ? '' : 'new '}profile ${name}`);
}

function checkValue(key: Setting, value: string): string {
  if (isEndpointSetting(key)) {
    if (!isEndpointValue(value)) throw new UsageError(`${key} must be an http(s) URL or 'off', not '${value}'`);
    return value;
  }
  switch (key) {
    case 'api_key':
      throw new UsageError(
        'api_key cannot be set with config set: the key would stay in your shell history',
        "pipe it to 'superagent login --with-token' instead",
      );
    case 'base_url':
      return normaliseBaseUrl(value);
    case 'output':
      if (!(OUTPUTS as readonly string[]).includes(value))
        throw new UsageError(`output must be ${OUTPUTS.join(' or ')}, not '${value}'`);
      return value;
    case 'render':
      if (!(RENDERS as readonly string[]).includes(value))
        throw new UsageError(`render must be ${RENDERS.join(' or ')}, not '${value}'`);
      return value;
    case 'model':
      return parseModel(value, 'model');
    case 'provider':
      return parseProvider(value, 'provider');
    case 'active_profile':
      return checkProfileName(value);
  }
}
