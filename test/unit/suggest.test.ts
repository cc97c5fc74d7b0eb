// "Did you mean …?" wherever commander refuses a word: commands and subcommands (a command that runs
// by itself included: `skills enabel`), options (a command's own and the global ones), and the habits
// of other CLIs pointed at ours. Each is a usage error (exit 2) in one line; nothing runs.
import { describe, expect, it } from 'vitest';
import { closest, didYouMean } from '../../src/core/suggest.js';
import { runLine } from '../helpers/context.js';
import { parse } from '../helpers/program.js';

/** The one line `superagent ...argv` is refused with: exit 2, nothing on stdout, nothing asked. */
async function refused(argv: string[]): Promise<string> {
  // no service: a line that got as far as running a command fails to find one
  const nowhere = { SUPERAGENT_BASE_URL: 'http://127.0.0.1:9', SUPERAGENT_API_KEY: 'sa_sk_x' };
  const r = await runLine(undefined, argv, { env: nowhere });
  expect([r.code, r.stdout, r.asked], r.stderr).toEqual([2, '', []]);
  expect(r.stderr).toMatch(/^Error: [^\n]*\n$/);
  return r.stderr.replace(/^Error: |\n$/g, '');
}

describe('a command or subcommand mistyped', () => {
  it.each<[string[], string]>([
    [['lsit'], "unknown command 'lsit' (did you mean 'list'?)"],
    [['lanuch', '--name', 'x'], "unknown command 'lanuch' (did you mean 'launch'?)"],
    [['soul', 'shwo', 'demo'], "unknown command 'soul shwo' (did you mean 'soul show'?)"],
    [['config', 'sett'], "unknown command 'config sett' (did you mean 'config set'?)"],
    [['classic', 'lst'], "unknown command 'classic lst' (did you mean 'classic list'?)"],
    // a command that runs by itself: its first word is a typo of a subcommand, not an agent
    [['skills', 'enabel'], "unknown command 'skills enabel' (did you mean 'skills enable'?)"],
    [['skills', 'enabel', 'demo', 'hyperliquid'], "unknown command 'skills enabel' (did you mean 'skills enable'?)"],
    [['skills', 'disabel', 'demo'], "unknown command 'skills disabel' (did you mean 'skills disable'?)"],
    [['assistant', 'aks', 'how is BTC?'], "unknown command 'assistant aks' (did you mean 'assistant ask'?)"],
    [['soul', 'bogus'], "unknown command 'soul bogus' (see 'superagent soul --help')"],
    [['frobnicate'], "unknown command 'frobnicate' (see 'superagent --help')"],
  ])('%j', async (argv, line) => {
    expect(await refused(argv)).toBe(line);
  });

  it('an agent of a name close to a subcommand is still reachable after --, or by a name far from one', async () => {
    expect((await parse(['skills', '--', 'enabel'])).chosen?.input).toEqual({ agent: 'enabel' });
    expect((await parse(['skills', 'demo'])).chosen?.input).toEqual({ agent: 'demo' });
    expect((await parse(['skills', 'enable', 'demo', 'x'])).chosen?.entry.path).toEqual(['skills', 'enable']);
  });
});

describe('habits from other CLIs: suggested, never run', () => {
  it.each<[string[], string]>([
    [['delete', 'demo'], "unknown command 'delete' (did you mean 'destroy'?)"],
    [['rm', 'demo', '--yes'], "unknown command 'rm' (did you mean 'destroy'?)"],
    [['remove', 'demo'], "unknown command 'remove' (did you mean 'destroy'?)"],
    [['stop', 'demo'], "unknown command 'stop' (did you mean 'pause'?)"],
    [['start', 'demo'], "unknown command 'start' (did you mean 'resume'?)"],
    [['status'], "unknown command 'status' (did you mean 'get', 'health' or 'list'?)"],
  ])('%j', async (argv, line) => {
    expect(await refused(argv)).toBe(line);
  });

  it('superagent version prints the version, as --version does (and --json as JSON)', async () => {
    const { version } = (await import('../../package.json', { with: { type: 'json' } })).default as { version: string };
    const printed = { code: 0, stdout: `superagent ${version}\n`, stderr: '', asked: [] };
    expect(await runLine(undefined, ['version'])).toEqual(printed);
    expect(JSON.parse((await runLine(undefined, ['version', '--json'])).stdout)).toEqual({ version });
  });
});

describe('an option mistyped', () => {
  it.each<[string[], string]>([
    [['launch', '--modle', 'x'], "unknown option '--modle' (did you mean '--model'?)"],
    [['update', 'demo', '--nmae=x'], "unknown option '--nmae' (did you mean '--name'?)"],
    [['list', '--jsn'], "unknown option '--jsn' (did you mean '--json'?)"],
    [['--jsn', 'list'], "unknown option '--jsn' (did you mean '--json'?)"],
    [['soul', '--jsn', 'show', 'demo'], "unknown option '--jsn' (did you mean '--json'?)"],
    [['soul', 'show', 'demo', '--jsno'], "unknown option '--jsno' (did you mean '--json'?)"],
    [['health', 'demo', '--wacth'], "unknown option '--wacth' (did you mean '--watch'?)"],
    [['pause', '--all=yes'], "--all takes no value (see 'superagent pause --help')"],
    [['get', 'demo', '--no-color=1'], "--no-color takes no value (see 'superagent get --help')"],
    [['get', 'demo', '-z'], "unknown option '-z' (see 'superagent get --help')"],
    [['--foo'], "unknown option '--foo' (see 'superagent --help')"],
  ])('%j', async (argv, line) => {
    expect(await refused(argv)).toBe(line);
  });

  it('a hidden option is never suggested (health --count)', async () => {
    const line = "unknown option '--cont' (see 'superagent health --help')";
    expect(await refused(['health', 'demo', '--cont', '2'])).toBe(line);
  });
});

describe('the matcher itself (core/suggest.ts)', () => {
  it('takes one edit in five letters, two in six, a swap of neighbours as one, or a prefix', () => {
    expect(closest('enabel', ['enable', 'disable'])).toBe('enable');
    expect(closest('lsit', ['list', 'launch'])).toBe('list');
    expect(closest('lau', ['list', 'launch'])).toBe('launch');
    expect(closest('demo', ['enable', 'disable'])).toBeUndefined();
    expect(didYouMean('x', ['list'])).toBeUndefined();
  });
});
