// Model providers on the command line (contract §4): checking --provider, and telling a model id's
// provider from its spelling so `--model gpt-4o` needs no `--provider openai`.
import { LIMITS, PROVIDERS, isProvider, type Provider } from '../contract.js';
import { UsageError } from './errors.js';

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

/** A model id as sent: trimmed, not empty, within the contract's length. */
export function parseModel(value: unknown, what = 'the model id'): string {
  const model = typeof value === 'string' ? value.trim() : '';
  if (!model) throw new UsageError(`${what} must not be empty`);
  if ([...model].length > LIMITS.modelChars) throw new UsageError(`${what} must be at most ${LIMITS.modelChars} characters`);
  return model;
}

/** The error for a model whose provider is neither given nor guessable. */
export function providerNeeded(model: string): UsageError {
  return new UsageError(`cannot tell which provider serves model '${model}'`, `add --provider, one of: ${PROVIDER_LIST}`);
}

/** The provider for `model`: the one given, else the inferred one; exit 2 when neither. */
export function providerFor(model: string, given: unknown): Provider {
  if (given !== undefined) return parseProvider(given);
  const inferred = inferProvider(model);
  if (!inferred) throw providerNeeded(model);
  return inferred;
}
