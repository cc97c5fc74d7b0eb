// The global options, accepted by every command (commander declares them on the program), and what
// they become for the Context: one GlobalOptions, with CI=true counted as --no-input.
import { UsageError } from '../core/errors.js';
import { shownValue } from '../core/shown.js';
import type { OptionDef } from './program/defs.js';

export const GLOBALS = {
  json: { type: 'boolean', description: 'machine output: the API JSON on stdout, nothing else there' },
  profile: { type: 'string', value: 'name', description: 'use this profile of the config file' },
  baseUrl: { type: 'string', value: 'url', description: 'base URL of the service, without /v1' },
  apiKey: {
    type: 'string',
    value: 'key',
    description: 'API key (prefer SUPERAGENT_API_KEY: arguments are visible to other users)',
  },
  quiet: { type: 'boolean', short: 'q', description: 'no progress or status messages' },
  color: { type: 'boolean', negatable: true, description: 'no colour' },
  raw: { type: 'boolean', description: 'no Markdown rendering on a TTY' },
  debug: { type: 'boolean', description: 'trace HTTP requests on stderr, secrets redacted' },
  verbose: { type: 'boolean', description: 'also show tool calls and retries when stderr is not a terminal' },
  timeout: {
    type: 'string',
    value: 'seconds',
    description:
      'request time-out; for a stream, the longest wait for reply text (default 30, chat and assistant 600); ' +
      'also the longest wait for piped input to end (none without it) and for the OS keychain (default 30)',
  },
  yes: { type: 'boolean', short: 'y', description: 'assume yes to confirmations' },
  input: { type: 'boolean', negatable: true, description: 'never prompt; fail naming the missing flag' },
} as const satisfies Record<string, OptionDef>;

export interface GlobalOptions {
  json: boolean;
  profile?: string;
  baseUrl?: string;
  apiKey?: string;
  quiet: boolean;
  color: boolean;
  /** --raw: no Markdown rendering on a TTY */
  raw: boolean;
  debug: boolean;
  /** also show tool calls and retries when stderr is not a terminal */
  verbose: boolean;
  /** seconds */
  timeout?: number;
  yes: boolean;
  /** false with --no-input or CI=true */
  input: boolean;
}

function ci(env: NodeJS.ProcessEnv): boolean {
  const v = env.CI;
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

/** setTimeout's longest wait (2^31 - 1 ms), in whole seconds */
const MAX_TIMEOUT_SECONDS = 2_147_483;
/** less is no time for any answer (and 1e-9 is float noise in a message) */
const MIN_TIMEOUT_SECONDS = 0.1;
/** seconds as a plain decimal: no 0x10, no 1e3 */
const DECIMAL = /^(\d+(\.\d+)?|\.\d+)$/;

function timeoutOf(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  const text = String(raw);
  const seconds = DECIMAL.test(text) ? Number(text) : NaN;
  // a longer wait overflows Node's timers, which then fire at once
  if (seconds >= MIN_TIMEOUT_SECONDS && seconds <= MAX_TIMEOUT_SECONDS) return seconds;
  const range = `from ${MIN_TIMEOUT_SECONDS} to ${MAX_TIMEOUT_SECONDS} (about 24 days)`;
  throw new UsageError(`--timeout must be a number of seconds ${range}, not '${shownValue(text)}'`);
}

/** A value-taking global given as '' (`--base-url ''`, `--api-key=`): refused, not taken for none. */
function nonEmpty(raw: Record<string, unknown>, key: 'profile' | 'baseUrl' | 'apiKey'): string | undefined {
  const value = raw[key] as string | undefined;
  if (value !== '') return value;
  const flag = `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  throw new UsageError(`${flag} needs a value`, `e.g. ${flag} <${GLOBALS[key].value}>`);
}

/** The parsed globals from raw values by key (what the parser found, nothing for what was not given). */
export function toGlobals(raw: Record<string, unknown>, env: NodeJS.ProcessEnv): GlobalOptions {
  const timeout = timeoutOf(raw.timeout);
  return {
    json: raw.json === true,
    profile: nonEmpty(raw, 'profile'),
    baseUrl: nonEmpty(raw, 'baseUrl'),
    apiKey: nonEmpty(raw, 'apiKey'),
    quiet: raw.quiet === true,
    color: raw.color !== false,
    raw: raw.raw === true,
    debug: raw.debug === true,
    verbose: raw.verbose === true,
    timeout,
    yes: raw.yes === true,
    input: raw.input !== false && !ci(env),
  };
}
