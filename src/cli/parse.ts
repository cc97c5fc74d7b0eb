// The one argv parser: node:util parseArgs splits the words (clusters like -yq, --name=value, `--`),
// and the rules below check them against the command's spec, in our own words. commander is not
// used: its load alone costs more than the start-up budget allows (bench/startup.js, ARCHITECTURE.md).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { didYouMean } from '../core/suggest.js';
import { UsageError } from '../core/errors.js';
import { flagName, optionSyntax, type OptionDef, type Spec } from './spec.js';

/** The global options of CLI.md, accepted by every command. */
export const GLOBALS = {
  json: { type: 'boolean', description: 'machine output: the API JSON on stdout, nothing else there' },
  profile: { type: 'string', value: 'name', description: 'use this profile of the config file' },
  baseUrl: { type: 'string', value: 'url', description: 'base URL of the service, without /v1' },
  apiKey: { type: 'string', value: 'key', description: 'API key (prefer SUPERAGENT_API_KEY: arguments are visible to other users)' },
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

const HELP: OptionDef = { type: 'boolean', short: 'h', description: 'show this help' };

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
    if (!Number.isFinite(timeout) || timeout <= 0) throw new UsageError(`--timeout must be a positive number of seconds, not '${String(raw.timeout)}'`);
    // a longer wait overflows Node's timers, which then fire at once
    if (timeout > MAX_TIMEOUT_SECONDS) throw new UsageError(`--timeout must be at most ${MAX_TIMEOUT_SECONDS} seconds (about 24 days), not '${String(raw.timeout)}'`);
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

interface Known {
  key: string;
  def: OptionDef;
  global: boolean;
}

/** Every way an option may be written, by the name parseArgs reports (`no-stream`, `soul-file`, `y`). */
function table(spec: Spec): Map<string, Known> {
  const known = new Map<string, Known>();
  const add = (options: Readonly<Record<string, OptionDef>>, global: boolean) => {
    for (const [key, def] of Object.entries(options)) {
      known.set(`${def.negatable ? 'no-' : ''}${flagName(key)}`, { key, def, global });
      if (def.short) known.set(def.short, { key, def, global });
    }
  };
  add(GLOBALS, true);
  add({ help: HELP }, true);
  add(spec.options ?? {}, false);
  return known;
}

function parseConfig(known: Map<string, Known>): ParseArgsConfig['options'] {
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const [name, { def }] of known) {
    if (name.length === 1) continue;
    // a count option takes its number only when one follows (checked below), so parseArgs sees a flag
    const type = def.type === 'string' || def.type === 'strings' ? 'string' : 'boolean';
    options[name] = { type, ...(def.short ? { short: def.short } : {}), ...(def.type === 'strings' ? { multiple: true } : {}) };
  }
  return options;
}

function tokens(args: string[], options: ParseArgsConfig['options']) {
  return parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true }).tokens;
}

/** The words naming the command, in order: the positionals of argv with the global options skipped. */
export function commandWords(argv: string[]): string[] {
  const all = tokens(argv, parseConfig(table({ examples: [] })));
  const words: string[] = [];
  for (const t of all) {
    if (t.kind === 'option-terminator') break;
    if (t.kind === 'positional') words.push(t.value);
  }
  return words;
}

export interface ParsedLine {
  /** each argument by name and each option by key, as `run` takes them */
  input: Record<string, unknown>;
  globals: GlobalOptions;
  /** --help or -h was given: show the command's help instead */
  help: boolean;
}

const NUMBER = /^\d+(\.\d+)?$/;

function usageHint(name: string): string {
  return `see '${['superagent', name, '--help'].filter(Boolean).join(' ')}'`;
}

/**
 * Checks argv against the command's spec. `name` is the command's path ('skills enable'); its words
 * are the first positionals of argv and are skipped.
 */
export function parseLine(spec: Spec, name: string, argv: string[], env: NodeJS.ProcessEnv): ParsedLine {
  const known = table(spec);
  const all = tokens(argv, parseConfig(known));
  const raw: Record<string, unknown> = {};
  const globalsRaw: Record<string, unknown> = {};
  const positionals: string[] = [];
  let skip = name === '' ? 0 : name.split(' ').length;
  let help = false;
  /** a word right after a count option that took no number: most likely a bad value for it */
  let afterCount: { word: string; flag: string; unit: string } | undefined;

  for (let i = 0; i < all.length; i++) {
    const t = all[i]!;
    if (t.kind === 'option-terminator') continue;
    if (t.kind === 'positional') {
      if (skip > 0) skip--;
      else positionals.push(t.value);
      continue;
    }
    const found = known.get(t.name);
    if (!found) {
      const longs = [...known.keys()].filter((k) => k.length > 1 && k !== 'help').map((k) => `--${k}`);
      throw new UsageError(`unknown option '${t.rawName}'`, didYouMean(t.rawName.replace(/=.*$/, ''), longs) ?? usageHint(name));
    }
    const { key, def, global } = found;
    const target = global ? globalsRaw : raw;
    const shown = `--${def.negatable ? 'no-' : ''}${flagName(key)}`;
    if (key === 'help') {
      help = true;
      continue;
    }
    if (def.type === 'boolean') {
      if (t.inlineValue) throw new UsageError(`${shown} takes no value`, usageHint(name));
      target[key] = !def.negatable;
    } else if (def.type === 'count') {
      let value: string | undefined = t.inlineValue ? t.value : undefined;
      const next = all[i + 1];
      // `--watch 5` takes the number; `--watch demo` leaves demo as an argument
      if (value === undefined && next?.kind === 'positional' && skip === 0 && NUMBER.test(next.value)) {
        value = next.value;
        i++;
      }
      if (value !== undefined && !NUMBER.test(value)) throw new UsageError(`${shown} takes a number of ${def.value ?? 'units'}, not '${value}'`, usageHint(name));
      target[key] = value === undefined ? true : Number(value);
      if (value === undefined && next?.kind === 'positional' && skip === 0) afterCount = { word: next.value, flag: shown, unit: def.value ?? 'units' };
    } else {
      const value = t.value;
      if (value === undefined || (!t.inlineValue && value.startsWith('-') && value !== '-' && !NUMBER.test(value.slice(1)))) {
        throw new UsageError(`${shown} needs a value`, `e.g. ${optionSyntax(key, def).replace(/^-\w, /, '')}`);
      }
      if (def.choices && !def.choices.includes(value)) {
        throw new UsageError(`${shown} must be one of: ${def.choices.join(', ')}; not '${value}'`, didYouMean(value, def.choices));
      }
      target[key] = def.type === 'strings' ? [...((target[key] as string[] | undefined) ?? []), value] : value;
    }
  }

  const globals = toGlobals(globalsRaw, env);
  if (help) return { input: {}, globals, help };
  let args: Record<string, unknown>;
  try {
    args = argsFrom(spec, name, positionals);
  } catch (err) {
    // `health demo --watch abc`: the extra word was meant for the option
    if (afterCount && err instanceof UsageError && err.message.startsWith('too many arguments')) {
      throw new UsageError(`${afterCount.flag} takes a number of ${afterCount.unit}, not '${afterCount.word}'`, usageHint(name));
    }
    throw err;
  }
  return { input: { ...defaults(spec), ...raw, ...args }, globals, help };
}

function defaults(spec: Spec): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, def] of Object.entries(spec.options ?? {})) {
    if (def.type === 'boolean') out[key] = def.negatable === true;
    else if (def.type === 'strings') out[key] = [];
  }
  return out;
}

/** The usage line: `superagent skills enable <agent> <skill...> [options]`. */
export function usageLine(spec: Spec, name: string): string {
  const args = (spec.args ?? []).map((a) => {
    const label = `${a.name}${a.variadic ? '...' : ''}`;
    return a.required ? `<${label}>` : `[${label}]`;
  });
  return ['superagent', name, ...args, '[options]'].join(' ');
}

function argsFrom(spec: Spec, name: string, positionals: string[]): Record<string, unknown> {
  const defs = spec.args ?? [];
  const out: Record<string, unknown> = {};
  let i = 0;
  for (const a of defs) {
    if (a.variadic) {
      out[a.name] = positionals.slice(i);
      if (a.required && positionals.length <= i) throw new UsageError(`missing <${a.name}>`, `usage: ${usageLine(spec, name)}`);
      i = positionals.length;
      continue;
    }
    const value = positionals[i++];
    if (value === undefined && a.required) throw new UsageError(`missing <${a.name}>`, `usage: ${usageLine(spec, name)}`);
    out[a.name] = value;
  }
  if (i < positionals.length) {
    const extra = positionals.slice(i).map((p) => `'${p}'`).join(' ');
    throw new UsageError(`too many arguments: ${extra}`, `usage: ${usageLine(spec, name)}`);
  }
  return out;
}

/** An option's value as a whole number within a range, or a usage error naming the flag. */
export function parseInteger(flag: string, value: unknown, range: { min?: number; max?: number } = {}): number {
  const n = typeof value === 'number' ? value : Number(value);
  const { min = -Infinity, max = Infinity } = range;
  if (typeof value === 'string' && value.trim() === '') throw new UsageError(`${flag} needs a whole number`);
  if (!Number.isInteger(n) || n < min || n > max) {
    const bounds = max === Infinity ? `at least ${min}` : `from ${min} to ${max}`;
    throw new UsageError(`${flag} must be a whole number ${bounds}, not '${String(value)}'`);
  }
  return n;
}

export function parseNumber(flag: string, value: unknown, range: { min?: number; max?: number } = {}): number {
  const n = Number(value);
  const { min = -Infinity, max = Infinity } = range;
  if (value === undefined || (typeof value === 'string' && value.trim() === '') || !Number.isFinite(n) || n < min || n > max) {
    throw new UsageError(`${flag} must be a number from ${min} to ${max}, not '${String(value)}'`);
  }
  return n;
}
