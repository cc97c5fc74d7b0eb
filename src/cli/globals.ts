// The global options of CLI.md, their parsed form, and how to find the command word past them.
import { UsageError } from './errors.js';

export interface GlobalOptions {
  json: boolean;
  profile?: string;
  baseUrl?: string;
  apiKey?: string;
  quiet: boolean;
  color: boolean;
  debug: boolean;
  /** also show tool calls and retries when stderr is not a terminal */
  verbose: boolean;
  /** seconds */
  timeout?: number;
  yes: boolean;
  /** false with --no-input or CI=true */
  input: boolean;
}

export const GLOBAL_OPTIONS = [
  { flags: '--json', description: 'machine output: the API JSON on stdout, nothing else there' },
  { flags: '--profile <name>', description: 'use this profile of the config file' },
  { flags: '--base-url <url>', description: 'base URL of the service, without /v1' },
  { flags: '--api-key <key>', description: 'API key (prefer SUPERAGENT_API_KEY: arguments are visible to other users)' },
  { flags: '-q, --quiet', description: 'no progress or status messages' },
  { flags: '--no-color', description: 'no colour' },
  { flags: '--debug', description: 'trace HTTP requests on stderr, secrets redacted' },
  { flags: '--verbose', description: 'also show tool calls and retries when stderr is not a terminal' },
  { flags: '--timeout <seconds>', description: 'request time-out (default 30, chat and assistant 600)' },
  { flags: '-y, --yes', description: 'assume yes to confirmations' },
  { flags: '--no-input', description: 'never prompt; fail naming the missing flag' },
] as const;

const TAKES_VALUE = new Set(['--profile', '--base-url', '--api-key', '--timeout']);

/** The positional words of argv (the command path first), skipping global options and their values. */
export function commandWords(argv: string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (TAKES_VALUE.has(arg)) i++;
      continue;
    }
    words.push(arg);
  }
  return words;
}

/** The parsed global options from commander's (or the fast parser's) raw option values. */
export function toGlobals(raw: Record<string, unknown>, env: NodeJS.ProcessEnv): GlobalOptions {
  let timeout: number | undefined;
  if (raw.timeout !== undefined) {
    timeout = Number(raw.timeout);
    if (!Number.isFinite(timeout) || timeout <= 0) throw new UsageError(`--timeout must be a positive number of seconds, not '${raw.timeout}'`);
  }
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI.toLowerCase() !== 'false';
  return {
    json: raw.json === true,
    profile: raw.profile as string | undefined,
    baseUrl: raw.baseUrl as string | undefined,
    apiKey: raw.apiKey as string | undefined,
    quiet: raw.quiet === true,
    color: raw.color !== false,
    debug: raw.debug === true,
    verbose: raw.verbose === true,
    timeout,
    yes: raw.yes === true,
    input: raw.input !== false && !ci,
  };
}
