// The one argv parser (src/cli/parse.ts) against small specs, as tables: what each command line
// gives the command, and the exact one-line error (errorLine) of each one it refuses. The real specs
// of get, launch, health and skills enable are used where CLI.md quotes their wording.
import { describe, expect, it } from 'vitest';
import { spec as getSpec } from '../../src/cli/commands/get.js';
import { spec as healthSpec } from '../../src/cli/commands/health.js';
import { spec as launchSpec } from '../../src/cli/commands/launch.js';
import { spec as enableSpec } from '../../src/cli/commands/skills/enable.js';
import { errorLine } from '../../src/cli/exit-codes.js';
import { GLOBALS, commandWords, parseInteger, parseLine, parseNumber, toGlobals, usageLine, type GlobalOptions } from '../../src/cli/parse.js';
import type { Spec } from '../../src/cli/spec.js';
import { UsageError } from '../../src/core/errors.js';

/** A command with one of each kind of option, a required argument and a variadic one. */
const SPEC = {
  args: [
    { name: 'agent', description: 'the agent', required: true },
    { name: 'more', description: 'more words', variadic: true },
  ],
  options: {
    name: { type: 'string', description: 'a name' },
    all: { type: 'boolean', description: 'every one' },
    stream: { type: 'boolean', negatable: true, description: 'wait for the whole reply' },
    provider: { type: 'string', choices: ['openai', 'anthropic', 'xai'], description: 'provider' },
    model: { type: 'string', description: 'model' },
    soulFile: { type: 'string', value: 'path', description: 'a file' },
    field: { type: 'strings', description: 'repeatable' },
    watch: { type: 'count', value: 'seconds', description: 'again and again' },
  },
  examples: ['superagent try demo'],
} as const satisfies Spec;

/** What the command gets when nothing optional is given: booleans off, negatables on, lists empty. */
const DEFAULTS = { all: false, stream: true, field: [] as string[], more: [] as string[] };

const parse = (argv: string[], env: NodeJS.ProcessEnv = {}) => parseLine(SPEC, 'try', ['try', ...argv], env);

/** The one line the user sees for a refused command line (the UsageError's message and hint). */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return errorLine(err);
  }
  throw new Error('expected a UsageError');
}

const GLOBALS_OFF: GlobalOptions = { json: false, quiet: false, color: true, raw: false, debug: false, verbose: false, yes: false, input: true };

describe('parseLine: what the command gets', () => {
  it.each<[string, string[], Record<string, unknown>]>([
    ['defaults only', ['demo'], {}],
    ['a boolean', ['demo', '--all'], { all: true }],
    ['a negatable boolean', ['demo', '--no-stream'], { stream: false }],
    ['a string, spaced', ['demo', '--name', 'scout'], { name: 'scout' }],
    ['a string, --opt=value', ['demo', '--name=scout'], { name: 'scout' }],
    ['an empty string with =', ['demo', '--name='], { name: '' }],
    ['options before the argument', ['--name', 'scout', '--all', 'demo'], { name: 'scout', all: true }],
    ['a camelCase key given in kebab-case', ['demo', '--soul-file', 'soul.md'], { soulFile: 'soul.md' }],
    ['- as a value (standard input)', ['demo', '--soul-file', '-'], { soulFile: '-' }],
    ['a value that starts with - after =', ['demo', '--name=-x'], { name: '-x' }],
    ['a negative number as a value', ['demo', '--name', '-5'], { name: '-5' }],
    ['the last of a repeated string wins', ['demo', '--name', 'a', '--name', 'b'], { name: 'b' }],
    ['a repeatable option keeps every value', ['demo', '--field', 'x', '--field=y', '--field', 'z'], { field: ['x', 'y', 'z'] }],
    ['a choice', ['demo', '--provider', 'xai'], { provider: 'xai' }],
    ['a count alone is true', ['demo', '--watch'], { watch: true }],
    ['a count takes a following number', ['demo', '--watch', '5'], { watch: 5 }],
    ['a count takes a decimal after =', ['demo', '--watch=2.5'], { watch: 2.5 }],
    ['a count leaves a word that is no number as an argument', ['--watch', 'demo'], { watch: true }],
    ['variadic words after the argument', ['demo', 'b', 'c'], { more: ['b', 'c'] }],
    ['-- ends the options: what follows is an argument', ['demo', '--', '--all', '-x'], { more: ['--all', '-x'] }],
    ['-- before the first argument', ['--', '--all'], { agent: '--all' }],
  ])('%s: %j', (_what, argv, expected) => {
    const { input, help } = parse(argv);
    expect(help).toBe(false);
    expect(input).toEqual({ ...DEFAULTS, agent: 'demo', ...expected });
  });

  it('a string option not given is absent, not an empty string', () => {
    const { input } = parse(['demo']);
    for (const key of ['name', 'provider', 'model', 'soulFile', 'watch']) expect(input, key).not.toHaveProperty(key);
  });

  it.each([[['--help']], [['-h']], [['demo', '--help']], [['--all', '-h', 'too', 'many', '--json']]])('%j asks for help, and nothing is checked', (argv) => {
    expect(parse(argv)).toEqual({ input: {}, globals: { ...GLOBALS_OFF, json: argv.includes('--json') }, help: true });
  });

  it('skips the words of a command path (skills enable) and an alias (ls)', () => {
    expect(parseLine(enableSpec, 'skills enable', ['skills', 'enable', 'demo', 'a', 'b'], {}).input).toEqual({ agent: 'demo', skill: ['a', 'b'] });
    expect(parseLine({ examples: [] }, 'list', ['ls', '--json'], {}).globals.json).toBe(true);
  });

  it('health: `--watch 10` is the interval, `--watch demo` leaves demo as the agent', () => {
    expect(parseLine(healthSpec, 'health', ['health', 'demo', '--watch', '10'], {}).input).toEqual({ agent: 'demo', watch: 10 });
    expect(parseLine(healthSpec, 'health', ['health', '--watch', 'demo'], {}).input).toEqual({ agent: 'demo', watch: true });
  });
});

describe('parseLine: what it refuses, in our words', () => {
  it.each<[string, Spec, string, string[], string]>([
    ['a value that looks like an option', SPEC, 'try', ['demo', '--name', '--json'], '--name needs a value (e.g. --name <name>)'],
    ['a value missing at the end', SPEC, 'try', ['demo', '--soul-file'], '--soul-file needs a value (e.g. --soul-file <path>)'],
    ['a flag given as a value', launchSpec, 'launch', ['--name', '-q'], '--name needs a value (e.g. --name <name>)'],
    ['an unknown option close to one', launchSpec, 'launch', ['--modle', 'x'], "unknown option '--modle' (did you mean '--model'?)"],
    ['an unknown option close to a global', SPEC, 'try', ['demo', '--jsno'], "unknown option '--jsno' (did you mean '--json'?)"],
    ['an unknown option with =', SPEC, 'try', ['demo', '--nmae=x'], "unknown option '--nmae' (did you mean '--name'?)"],
    ['an unknown option like nothing', SPEC, 'try', ['demo', '--frobnicate'], "unknown option '--frobnicate' (see 'superagent try --help')"],
    ['an unknown short flag', SPEC, 'try', ['demo', '-z'], "unknown option '-z' (see 'superagent try --help')"],
    ['an unknown flag in a cluster', SPEC, 'try', ['demo', '-yz'], "unknown option '-z' (see 'superagent try --help')"],
    ['--no- on a plain boolean', SPEC, 'try', ['demo', '--no-all'], "unknown option '--no-all' (see 'superagent try --help')"],
    ['a choice not offered', launchSpec, 'launch', ['--provider', 'mistral'], "--provider must be one of: openai, anthropic, xai, openrouter, venice; not 'mistral'"],
    ['a choice with a typo', SPEC, 'try', ['demo', '--provider', 'opnai'], "--provider must be one of: openai, anthropic, xai; not 'opnai' (did you mean 'openai'?)"],
    ['a value for a boolean', SPEC, 'try', ['demo', '--all=yes'], "--all takes no value (see 'superagent try --help')"],
    ['a count given a word after =', SPEC, 'try', ['demo', '--watch=abc'], "--watch takes a number of seconds, not 'abc' (see 'superagent try --help')"],
    ['health --watch abc', healthSpec, 'health', ['demo', '--watch', 'abc'], "--watch takes a number of seconds, not 'abc' (see 'superagent health --help')"],
    ['health --watch abc, options after', healthSpec, 'health', ['demo', '--watch', 'abc', '--json'], "--watch takes a number of seconds, not 'abc' (see 'superagent health --help')"],
    ['health demo --watch 5 extra: a plain extra word', healthSpec, 'health', ['demo', '--watch', '5', 'extra'], "too many arguments: 'extra' (usage: superagent health <agent> [options])"],
    ['a missing argument', getSpec, 'get', [], 'missing <agent> (usage: superagent get <agent> [options])'],
    ['one argument too many', getSpec, 'get', ['a', 'x'], "too many arguments: 'x' (usage: superagent get <agent> [options])"],
    ['two arguments too many', { examples: [] }, 'whoami', ['x', 'y'], "too many arguments: 'x' 'y' (usage: superagent whoami [options])"],
    ['a missing variadic argument', enableSpec, 'skills enable', ['demo'], 'missing <skill> (usage: superagent skills enable <agent> <skill...> [options])'],
    ['a time-out that is not a number', SPEC, 'try', ['demo', '--timeout', 'abc'], "--timeout must be a positive number of seconds, not 'abc'"],
    ['a time-out of zero', SPEC, 'try', ['demo', '--timeout=0'], "--timeout must be a positive number of seconds, not '0'"],
  ])('%s', (_what, spec, name, argv, line) => {
    expect(refusal(() => parseLine(spec, name, [...name.split(' '), ...argv], {}))).toBe(line);
  });

  it('--help wins over a line that would be refused', () => {
    expect(parseLine(getSpec, 'get', ['get', '--help'], {}).help).toBe(true);
    expect(parseLine(getSpec, 'get', ['get', 'a', 'b', '-h'], {}).help).toBe(true);
  });
});

describe('the global options', () => {
  it.each<[string[], Partial<GlobalOptions>]>([
    [[], {}],
    [['--json'], { json: true }],
    [['-q'], { quiet: true }],
    [['--quiet'], { quiet: true }],
    [['-y'], { yes: true }],
    [['-yq'], { yes: true, quiet: true }],
    [['-qy'], { yes: true, quiet: true }],
    [['--no-color'], { color: false }],
    [['--no-input'], { input: false }],
    [['--debug', '--verbose'], { debug: true, verbose: true }],
    [['--timeout', '2.5'], { timeout: 2.5 }],
    [['--timeout=90'], { timeout: 90 }],
    [['--profile', 'ci', '--base-url', 'http://127.0.0.1:9', '--api-key=sa_sk_x'], { profile: 'ci', baseUrl: 'http://127.0.0.1:9', apiKey: 'sa_sk_x' }],
  ])('%j', (flags, expected) => {
    // before and after the command's own words: the same
    expect(parse(['demo', ...flags]).globals).toEqual({ ...GLOBALS_OFF, ...expected });
    expect(parseLine(SPEC, 'try', [...flags, 'try', 'demo'], {}).globals).toEqual({ ...GLOBALS_OFF, ...expected });
  });

  it('every global of CLI.md is declared', () => {
    expect(Object.keys(GLOBALS).sort()).toEqual(['apiKey', 'baseUrl', 'color', 'debug', 'input', 'json', 'profile', 'quiet', 'raw', 'timeout', 'verbose', 'yes']);
  });
});

describe('toGlobals', () => {
  it('nothing given: the defaults', () => {
    expect(toGlobals({}, {})).toEqual(GLOBALS_OFF);
  });

  it.each([
    ['true', false],
    ['1', false],
    ['yes', false],
    ['TRUE', false],
    ['false', true],
    ['FALSE', true],
    ['0', true],
    ['', true],
  ])('CI=%j: prompting allowed is %s', (ci, input) => {
    expect(toGlobals({}, { CI: ci }).input).toBe(input);
  });

  it('--no-input stays off whatever CI says', () => {
    expect(toGlobals({ input: false }, { CI: 'false' }).input).toBe(false);
  });

  it.each(['0', '-1', 'abc', '', 'Infinity', 'NaN'])('a --timeout of %j is a usage error naming it', (value) => {
    expect(refusal(() => toGlobals({ timeout: value }, {}))).toBe(`--timeout must be a positive number of seconds, not '${value}'`);
  });

  it.each(['2147484', '3000000', '1e300'])('a --timeout of %j is above what a timer can wait: a usage error saying the maximum', (value) => {
    expect(refusal(() => toGlobals({ timeout: value }, {}))).toBe(`--timeout must be at most 2147483 seconds (about 24 days), not '${value}'`);
  });

  it('the longest --timeout a timer can wait is taken', () => {
    expect(toGlobals({ timeout: '2147483' }, {}).timeout).toBe(2147483);
  });

  it('a --timeout in seconds, decimals allowed', () => {
    expect(toGlobals({ timeout: '0.5' }, {}).timeout).toBe(0.5);
  });
});

describe('commandWords', () => {
  it.each<[string[], string[]]>([
    [[], []],
    [['get', 'demo'], ['get', 'demo']],
    [['--json', 'skills', '--profile', 'p', 'enable', 'demo'], ['skills', 'enable', 'demo']],
    [['--base-url', 'http://x', '--api-key=k', 'get', 'a'], ['get', 'a']],
    [['-yq', 'destroy', 'x'], ['destroy', 'x']],
    [['--timeout', '5', 'list'], ['list']],
    [['soul', 'show', '--', 'soul', 'x'], ['soul', 'show']],
    [['--json'], []],
  ])('%j → %j', (argv, words) => {
    expect(commandWords(argv)).toEqual(words);
  });
});

describe('usageLine', () => {
  it.each<[Spec, string, string]>([
    [{ examples: [] }, 'whoami', 'superagent whoami [options]'],
    [getSpec, 'get', 'superagent get <agent> [options]'],
    [enableSpec, 'skills enable', 'superagent skills enable <agent> <skill...> [options]'],
    [SPEC, 'try', 'superagent try <agent> [more...] [options]'],
  ])('%#: %s', (spec, name, line) => {
    expect(usageLine(spec, name)).toBe(line);
  });
});

describe('parseInteger and parseNumber: option values checked by the command', () => {
  it.each<[unknown, { min?: number; max?: number }, number]>([
    ['5', { min: 1 }, 5],
    [5, { min: 1, max: 100 }, 5],
    ['100', { min: 1, max: 100 }, 100],
    ['-3', {}, -3],
  ])('parseInteger(%j, %j) = %i', (value, range, n) => {
    expect(parseInteger('--limit', value, range)).toBe(n);
  });

  it.each<[unknown, { min?: number; max?: number }, string]>([
    ['', { min: 1 }, '--limit needs a whole number'],
    ['0', { min: 1 }, "--limit must be a whole number at least 1, not '0'"],
    ['1.5', { min: 1 }, "--limit must be a whole number at least 1, not '1.5'"],
    ['ten', { min: 1, max: 100 }, "--limit must be a whole number from 1 to 100, not 'ten'"],
    ['101', { min: 1, max: 100 }, "--limit must be a whole number from 1 to 100, not '101'"],
  ])('parseInteger(%j, %j) refuses: %s', (value, range, line) => {
    expect(refusal(() => parseInteger('--limit', value, range))).toBe(line);
  });

  it('parseNumber takes decimals within the range, and refuses the rest naming the flag', () => {
    expect(parseNumber('--watch', '2.5', { min: 1, max: 10 })).toBe(2.5);
    expect(parseNumber('--watch', 10, { min: 1, max: 10 })).toBe(10);
    for (const bad of ['0.5', '11', 'x', '', undefined]) {
      expect(refusal(() => parseNumber('--watch', bad, { min: 1, max: 10 }))).toBe(`--watch must be a number from 1 to 10, not '${String(bad)}'`);
    }
  });
});
