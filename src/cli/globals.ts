// The global options, accepted by every command (commander declares them on the program), and what
// they become for the Context: one GlobalOptions, with CI=true counted as --no-input.
import { UsageError } from '../core/errors.js';
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

/** The parsed globals from raw values by key (what the parser found, nothing for what was not given). */
export function toGlobals(raw: Record<string, unknown>, env: NodeJS.ProcessEnv): GlobalOptions {
  let timeout: number | undefined;
  if (raw.timeout !== undefined) {
    timeout = Number(raw.timeout);
    if (!Number.isFinite(timeout) || timeout <= 0) {
      throw new UsageError(`--timeout must be a positive number of seconds, not '${String(raw.timeout)}'`);
    }
    // a longer wait overflows Node's timers, which then fire at once
    if (timeout > MAX_TIMEOUT_SECONDS) {
      const most = `${MAX_TIMEOUT_SECONDS} seconds (about 24 days)`;
      throw new UsageError(`--timeout must be at most ${most}, not '${String(raw.timeout)}'`);
    }
  }
  return {
    json: raw.json === true,
    profile: raw.profile as string | undefined,
    baseUrl: raw.baseUrl as string | undefined,
    apiKey: raw.apiKey as string | undefined,
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
