// Model providers on the command line (docs/api.md, Rules the client follows): checking --provider,
// and telling a model id's provider from its spelling so `--model gpt-4o` needs no `--provider openai`.
import {
  DEFAULT_MODEL,
  DEFAULT_MODEL_BY_PROVIDER,
  DEFAULT_PROVIDER,
  LIMITS,
  PROVIDERS,
  isProvider,
  type Provider,
} from '../../../contract.js';
import type { Profile } from '../../../config/file.js';
import { UsageError } from '../../../core/errors.js';
import type { Printer } from '../../../ui/printer.js';
import { NAME_CONTROLS } from './agent-fields.js';

const PROVIDER_LIST = PROVIDERS.join(', ');

/** First match wins: a slash means an aggregator route (`anthropic/claude-sonnet-4`), whatever follows it. */
const INFERENCE: Array<[RegExp, Provider]> = [
  [/\//, 'openrouter'],
  [/^(gpt-|chatgpt|o[134](-|$))/i, 'openai'],
  [/^claude/i, 'anthropic'],
  [/^grok/i, 'xai'],
];

/** The provider a model id belongs to, or undefined when its spelling does not say. */
export function inferProvider(model: string): Provider | undefined {
  const id = model.trim();
  return INFERENCE.find(([pattern]) => pattern.test(id))?.[1];
}

export function parseProvider(value: unknown, flag = '--provider'): Provider {
  const v = typeof value === 'string' ? value.trim().toLowerCase() : value;
  if (!isProvider(v)) throw new UsageError(`${flag} must be one of: ${PROVIDER_LIST}, not '${String(value)}'`);
  return v;
}

/** A model id as sent: trimmed, not empty, within the contract's length, one line with no escape sequence. */
export function parseModel(value: unknown, what = 'the model id'): string {
  const model = typeof value === 'string' ? value.trim() : '';
  if (!model) throw new UsageError(`${what} must not be empty`);
  if ([...model].length > LIMITS.modelChars)
    throw new UsageError(`${what} must be at most ${LIMITS.modelChars} characters`);
  if (NAME_CONTROLS.test(model)) throw new UsageError(`${what} must not contain control characters`);
  return model;
}

/** The error for a model whose provider is neither given nor guessable. */
export function providerNeeded(model: string): UsageError {
  return new UsageError(
    `cannot tell which provider serves model '${model}'`,
    `add --provider, one of: ${PROVIDER_LIST}`,
  );
}

/** The provider for `model`: the one given, else the inferred one; exit 2 when neither. */
export function providerFor(model: string, given: unknown): Provider {
  if (given !== undefined) return parseProvider(given);
  const inferred = inferProvider(model);
  if (!inferred) throw providerNeeded(model);
  return inferred;
}

/**
 * A model given with a provider it clearly does not belong to (`gpt-4o` with anthropic) is most
 * likely a slip: said in one line, and sent anyway (the provider may know better).
 */
export function warnIfMismatched(p: Printer, model: string, provider: Provider): void {
  const inferred = inferProvider(model);
  if (!inferred || inferred === provider) return;
  // OpenRouter serves every vendor's models, but spells their ids with the vendor first
  if (provider === 'openrouter')
    p.warn(`OpenRouter model ids name their vendor ('${inferred}/${model}'); sending '${model}' as asked`);
  else p.warn(`model '${model}' looks like ${inferred}'s, not ${provider}'s; sending it to ${provider} as asked`);
}

export interface ModelChoice {
  model: string;
  provider: Provider;
  /** where it came from, for the prompt's defaults and the launch report */
  source: 'flags' | 'profile' | 'default';
}

/**
 * What `launch` sends (always both: docs/api.md, Rules the client follows): the flags, else the profile's `model` /
 * `provider` settings, else DEFAULT_MODEL with DEFAULT_PROVIDER. A provider alone brings its house
 * model; a model alone its inferred provider. Undefined provider: the model's provider cannot be told.
 */
export function launchModel(
  flags: { model?: string; provider?: Provider },
  profile: Profile | undefined,
): { model: string; provider: Provider | undefined; source: ModelChoice['source'] } {
  if (flags.model || flags.provider) {
    const provider = flags.provider ?? inferProvider(flags.model!);
    return { model: flags.model ?? DEFAULT_MODEL_BY_PROVIDER[flags.provider!], provider, source: 'flags' };
  }
  const profileProvider = profile?.provider && isProvider(profile.provider) ? profile.provider : undefined;
  if (profile?.model)
    return { model: profile.model, provider: profileProvider ?? inferProvider(profile.model), source: 'profile' };
  if (profileProvider)
    return { model: DEFAULT_MODEL_BY_PROVIDER[profileProvider], provider: profileProvider, source: 'profile' };
  return { model: DEFAULT_MODEL, provider: DEFAULT_PROVIDER, source: 'default' };
}
