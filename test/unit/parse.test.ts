// commander as the parser (src/cli/program/), against a small spec and the real ones, as tables:
// what each command line gives the command, and the exact one-line error (errorLine) of each one it
// refuses. The real specs of get, launch, health, whoami and skills enable are used where the wording
// of their refusals is quoted.
import { describe, expect, it } from 'vitest';
import { parseDecimal, parseInteger, parseNumber } from '../../src/cli/commands/shared/numbers.js';
import { errorLine, exitCodeFor } from '../../src/cli/exit-codes.js';
import { GLOBALS, toGlobals, type GlobalOptions } from '../../src/cli/globals.js';
import { ENTRIES, type Entry } from '../../src/cli/registry.js';
import type { Spec } from '../../src/cli/spec.js';
import { UsageError } from '../../src/core/errors.js';
import { parse as parseIn } from '../helpers/program.js';

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

/** The registry, and `try` with the spec above. */
const TRY: Entry = {
  path: ['try'],
  group: 'agents',
  summary: 'try it',
  load: async () => ({ spec: SPEC, run: async () => undefined }),
};
const ENTRIES_AND_TRY = [...ENTRIES, TRY];

/** What `superagent ...argv` would run: its input and globals, or undefined when help was written. */
async function parse(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const { chosen } = await parseIn(argv, { entries: ENTRIES_AND_TRY, env });
  return chosen && { input: chosen.input, globals: chosen.globals, entry: chosen.entry };
}

const parseTry = (argv: string[], env: NodeJS.ProcessEnv = {}) => parse(['try', ...argv], env);

/** What the command gets when nothing optional is given: booleans off, negatables on, lists empty. */
const DEFAULTS = { all: false, stream: true, field: [] as string[], more: [] as string[] };

/** The one line the user sees for a refused command line (the UsageError's message and hint); exit 2. */
async function refusal(run: () => Promise<unknown> | unknown): Promise<string> {
  try {
    await run();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    expect(exitCodeFor(err)).toBe(2);
    return errorLine(err);
  }
  throw new Error('expected a UsageError');
}

const GLOBALS_OFF: GlobalOptions = {
  json: false,
  quiet: false,
  color: true,
  raw: false,
  debug: false,
  verbose: false,
  yes: false,
  input: true,
};

describe('what the command gets', () => {
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
    [
      'a repeatable option keeps every value',
      ['demo', '--field', 'x', '--field=y', '--field', 'z'],
      { field: ['x', 'y', 'z'] },
    ],
    ['a choice', ['demo', '--provider', 'xai'], { provider: 'xai' }],
    ['a count alone is true', ['demo', '--watch'], { watch: true }],
    ['a count takes a following number', ['demo', '--watch', '5'], { watch: 5 }],
    ['a count takes a decimal after =', ['demo', '--watch=2.5'], { watch: 2.5 }],
    ['variadic words after the argument', ['demo', 'b', 'c'], { more: ['b', 'c'] }],
    ['-- ends the options: what follows is an argument', ['demo', '--', '--all', '-x'], { more: ['--all', '-x'] }],
    ['-- before the first argument', ['--', '--all'], { agent: '--all' }],
  ])('%s: %j', async (_what, argv, expected) => {
    const parsed = await parseTry(argv);
    expect(parsed?.input).toEqual({ ...DEFAULTS, agent: 'demo', ...expected });
  });

  it('a string option not given is absent, not an empty string', async () => {
    const parsed = await parseTry(['demo']);
    for (const key of ['name', 'provider', 'model', 'soulFile', 'watch']) {
      expect(parsed?.input, key).not.toHaveProperty(key);
    }
  });

  const HELP_LINES = [[['--help']], [['-h']], [['demo', '--help']], [['--all', '-h', 'too', 'many', '--json']]];
  it.each(HELP_LINES)('%j asks for help: nothing runs, nothing is checked', async (argv) => {
    const { chosen, stdout } = await parseIn(['try', ...argv], { entries: ENTRIES_AND_TRY });
    expect(chosen).toBeUndefined();
    expect(stdout.startsWith('Usage: superagent try <agent> [more...] [options]\n')).toBe(true);
  });

  it('takes the words of a command path (skills enable) and an alias (ls)', async () => {
    expect((await parse(['skills', 'enable', 'demo', 'a', 'b']))?.input).toEqual({ agent: 'demo', skill: ['a', 'b'] });
    const ls = await parse(['ls', '--json']);
    expect([ls?.entry.path, ls?.globals.json]).toEqual([['list'], true]);
  });

  it('health: `--watch 10` is the interval, `--watch` alone is true', async () => {
    expect((await parse(['health', 'demo', '--watch', '10']))?.input).toEqual({ agent: 'demo', watch: 10 });
    expect((await parse(['health', 'demo', '--watch']))?.input).toEqual({ agent: 'demo', watch: true });
    expect((await parse(['health', '--watch', '--', 'demo']))?.input).toEqual({ agent: 'demo', watch: true });
  });
});

describe('what it refuses, in our words', () => {
  it.each<[string, string, string[], string]>([
    [
      'a value that looks like an option',
      'try',
      ['demo', '--name', '--json'],
      '--name needs a value (e.g. --name <name>)',
    ],
    [
      'a value missing at the end',
      'try',
      ['demo', '--soul-file'],
      '--soul-file needs a value (e.g. --soul-file <path>)',
    ],
    ['a flag given as a value', 'launch', ['--name', '-q'], '--name needs a value (e.g. --name <name>)'],
    [
      'an unknown option close to one',
      'launch',
      ['--modle', 'x'],
      "unknown option '--modle' (did you mean '--model'?)",
    ],
    [
      'an unknown option close to a global',
      'try',
      ['demo', '--jsno'],
      "unknown option '--jsno' (did you mean '--json'?)",
    ],
    ['an unknown option with =', 'try', ['demo', '--nmae=x'], "unknown option '--nmae' (did you mean '--name'?)"],
    [
      'an unknown option like nothing',
      'try',
      ['demo', '--frobnicate'],
      "unknown option '--frobnicate' (see 'superagent try --help')",
    ],
    ['an unknown short flag', 'try', ['demo', '-z'], "unknown option '-z' (see 'superagent try --help')"],
    ['an unknown flag in a cluster', 'try', ['demo', '-yz'], "unknown option '-z' (see 'superagent try --help')"],
    [
      '--no- on a plain boolean',
      'try',
      ['demo', '--no-all'],
      "unknown option '--no-all' (see 'superagent try --help')",
    ],
    [
      'a choice not offered',
      'launch',
      ['--provider', 'mistral'],
      "--provider must be one of: openai, anthropic, xai, openrouter, venice; not 'mistral'",
    ],
    [
      'a choice with a typo',
      'try',
      ['demo', '--provider', 'opnai'],
      "--provider must be one of: openai, anthropic, xai; not 'opnai' (did you mean 'openai'?)",
    ],
    ['a value for a boolean', 'try', ['demo', '--all=yes'], "--all takes no value (see 'superagent try --help')"],
    [
      'a count given a word after =',
      'try',
      ['demo', '--watch=abc'],
      "--watch takes a number of seconds, not 'abc' (see 'superagent try --help')",
    ],
    [
      'health --watch abc',
      'health',
      ['demo', '--watch', 'abc'],
      "--watch takes a number of seconds, not 'abc' (see 'superagent health --help')",
    ],
    [
      'health --watch abc, options after',
      'health',
      ['demo', '--watch', 'abc', '--json'],
      "--watch takes a number of seconds, not 'abc' (see 'superagent health --help')",
    ],
    // the agent after --watch is taken as its value: refused, naming it (give the agent first)
    [
      'health --watch demo',
      'health',
      ['--watch', 'demo'],
      "--watch takes a number of seconds, not 'demo' (see 'superagent health --help')",
    ],
    [
      'a value that is another option of the command',
      'try',
      ['demo', '--name', '--model', 'x'],
      '--name needs a value (e.g. --name <name>)',
    ],
    ['the help flag given as a value', 'launch', ['--name', '--help'], '--name needs a value (e.g. --name <name>)'],
    ['-h given as a value', 'launch', ['--name', '-h', '--json'], '--name needs a value (e.g. --name <name>)'],
    // the REPL's own --model, before the word of its subcommand: not silently dropped
    [
      'an option of assistant before ask',
      'assistant',
      ['--model', 'x', 'ask', 'hi'],
      "--model comes before 'ask' (options of 'assistant ask' go after it: see 'superagent assistant ask --help')",
    ],
    [
      'health demo --watch 5 extra: a plain extra word',
      'health',
      ['demo', '--watch', '5', 'extra'],
      "too many arguments: 'extra' (usage: superagent health <agent> [options])",
    ],
    ['a missing argument', 'get', [], 'missing <agent> (usage: superagent get <agent> [options])'],
    ['one argument too many', 'get', ['a', 'x'], "too many arguments: 'x' (usage: superagent get <agent> [options])"],
    [
      'two arguments too many',
      'whoami',
      ['x', 'y'],
      "too many arguments: 'x' 'y' (usage: superagent whoami [options])",
    ],
    [
      'a missing variadic argument',
      'skills enable',
      ['demo'],
      'missing <skill> (usage: superagent skills enable <agent> <skill...> [options])',
    ],
    [
      'a time-out that is not a number',
      'try',
      ['demo', '--timeout', 'abc'],
      "--timeout must be a number of seconds from 0.1 to 2147483 (about 24 days), not 'abc'",
    ],
    [
      'a time-out of zero',
      'try',
      ['demo', '--timeout=0'],
      "--timeout must be a number of seconds from 0.1 to 2147483 (about 24 days), not '0'",
    ],
    ['an empty --base-url', 'try', ['demo', '--base-url', ''], '--base-url needs a value (e.g. --base-url <url>)'],
    ['an empty --api-key', 'try', ['demo', '--api-key='], '--api-key needs a value (e.g. --api-key <key>)'],
    ['an empty --profile', 'try', ['demo', '--profile', ''], '--profile needs a value (e.g. --profile <name>)'],
  ])('%s', async (_what, name, argv, line) => {
    expect(await refusal(() => parse([...name.split(' '), ...argv]))).toBe(line);
  });

  it('--help wins over a line that would be refused', async () => {
    expect((await parseIn(['get', '--help'])).stdout).toMatch(/^Usage: superagent get/);
    expect((await parseIn(['get', 'a', 'b', '-h'])).stdout).toMatch(/^Usage: superagent get/);
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
    [
      ['--profile', 'ci', '--base-url', 'http://127.0.0.1:9', '--api-key=sa_sk_x'],
      { profile: 'ci', baseUrl: 'http://127.0.0.1:9', apiKey: 'sa_sk_x' },
    ],
  ])('%j', async (flags, expected) => {
    // before and after the command's own words, and between a group's words: the same
    expect((await parseTry(['demo', ...flags]))?.globals).toEqual({ ...GLOBALS_OFF, ...expected });
    expect((await parse([...flags, 'try', 'demo']))?.globals).toEqual({ ...GLOBALS_OFF, ...expected });
    expect((await parse(['soul', ...flags, 'show', 'demo']))?.globals).toEqual({ ...GLOBALS_OFF, ...expected });
  });

  it('every documented global option is declared', () => {
    expect(Object.keys(GLOBALS).sort()).toEqual([
      'apiKey',
      'baseUrl',
      'color',
      'debug',
      'input',
      'json',
      'profile',
      'quiet',
      'raw',
      'timeout',
      'verbose',
      'yes',
    ]);
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

  // plain decimals only (no 0x10, no 1e-9), from 0.1: less than that is no time for any answer
  const REFUSED = ['0', '-1', 'abc', '', 'Infinity', 'NaN', '0x10', '1e-9', '1e3', '0.05', ' 5', '5.'];
  it.each(REFUSED)('a --timeout of %j is a usage error naming it and the range', async (value) => {
    const line = `--timeout must be a number of seconds from 0.1 to 2147483 (about 24 days), not '${value}'`;
    expect(await refusal(() => toGlobals({ timeout: value }, {}))).toBe(line);
  });

  // above what a timer can wait
  it.each(['2147484', '3000000', '1' + '0'.repeat(300)])('a --timeout of %j is refused too', async (value) => {
    const line = await refusal(() => toGlobals({ timeout: value }, {}));
    expect(line.startsWith(`--timeout must be a number of seconds from 0.1 to 2147483 (about 24 days), not '`)).toBe(
      true,
    );
    expect(line.length).toBeLessThan(160); // a long value is cut, not echoed whole
  });

  it('a --timeout of 0.1 and of .5 are taken', () => {
    expect([toGlobals({ timeout: '0.1' }, {}).timeout, toGlobals({ timeout: '.5' }, {}).timeout]).toEqual([0.1, 0.5]);
  });

  it('the longest --timeout a timer can wait is taken', () => {
    expect(toGlobals({ timeout: '2147483' }, {}).timeout).toBe(2147483);
  });

  it('a --timeout in seconds, decimals allowed', () => {
    expect(toGlobals({ timeout: '0.5' }, {}).timeout).toBe(0.5);
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
    // plain decimal digits only: what Number() also reads as a number is no whole number written out
    ...['0x10', '1e3', '0b11', '0o7', '+5', ' 5', '1_000'].map((v): [string, { min: number }, string] => [
      v,
      { min: 1 },
      `--limit must be a whole number at least 1, not '${v}'`,
    ]),
  ])('parseInteger(%j, %j) refuses: %s', async (value, range, line) => {
    expect(await refusal(() => parseInteger('--limit', value, range))).toBe(line);
  });

  it('parseNumber takes decimals within the range, and refuses the rest naming the flag', async () => {
    expect(parseNumber('--watch', '2.5', { min: 1, max: 10 })).toBe(2.5);
    expect(parseNumber('--watch', 10, { min: 1, max: 10 })).toBe(10);
    for (const bad of ['0.5', '11', 'x', '', undefined]) {
      const line = `--watch must be a number from 1 to 10, not '${String(bad)}'`;
      expect(await refusal(() => parseNumber('--watch', bad, { min: 1, max: 10 }))).toBe(line);
    }
  });

  it('parseDecimal takes plain decimals only, and says so in one line without repeating itself', async () => {
    expect(parseDecimal('--max-drawdown', ' 12.5 ', { min: 0, max: 100, open: true })).toBe(12.5);
    expect(parseDecimal('--max-loss', '0', { min: 0 })).toBe(0);
    const drawdown = { min: 0, max: 100, open: true };
    for (const [bad, range, line] of [
      ['150', drawdown, "--max-drawdown must be a plain decimal number above 0 and at most 100, not '150'"],
      ['0', drawdown, "--max-drawdown must be a plain decimal number above 0 and at most 100, not '0'"],
      ['1e3', { min: 0 }, "--max-drawdown must be a plain decimal number at least 0, not '1e3'"],
      ['-1', { min: 0 }, "--max-drawdown must be a plain decimal number at least 0, not '-1'"],
      ['0x10', { min: 0 }, "--max-drawdown must be a plain decimal number at least 0, not '0x10'"],
    ] as const) {
      expect(await refusal(() => parseDecimal('--max-drawdown', bad, range))).toBe(line);
    }
  });
});
