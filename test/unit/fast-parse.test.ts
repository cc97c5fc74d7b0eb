// The fast parser must agree with commander wherever it answers at all.
import { describe, expect, it } from 'vitest';
import { fastParse } from '../../src/cli/fast-parse.js';
import { toGlobals } from '../../src/cli/globals.js';
import { parseCommand } from '../../src/cli/program.js';
import { ENTRIES } from '../../src/cli/registry.js';
import type { CommandSpec } from '../../src/cli/spec.js';
import { loadCommand } from '../../src/cli/load-command.js';

const sink = { write: () => true };
const env = {};

function sampleValue(flags: string, choices?: readonly string[]): string {
  if (choices) return choices[choices.length - 1]!;
  if (/seconds|<n>|<ms>|limit|count|port/i.test(flags)) return '3';
  return 'value-1';
}

/** Command lines a user might type for `spec`: each option alone, all together, globals around. */
function samples(spec: CommandSpec): string[][] {
  const words = spec.name.split(' ');
  const positional = (spec.args ?? []).flatMap((a) => (a.variadic ? ['one', 'two'] : a.required ? ['agent-x'] : []));
  const lines: string[][] = [[...words, ...positional]];
  const all: string[] = [];
  for (const o of spec.options ?? []) {
    if (o.flags.includes('[')) continue; // optional values: commander's job
    const long = /--[\w-]+/.exec(o.flags)![0];
    const withValue = /<[^>]+>/.test(o.flags) ? [long, sampleValue(o.flags, o.choices)] : [long];
    lines.push([...words, ...positional, ...withValue]);
    all.push(...withValue);
    if (withValue.length === 2) lines.push([...words, `${long}=${withValue[1]}`, ...positional]);
  }
  lines.push([...words, ...positional, ...all]);
  lines.push(['--json', '-q', ...words, '--timeout', '5', ...positional, '--no-color', '-y']);
  lines.push(['--profile', 'p1', ...words, ...positional, '--base-url', 'http://x', '--no-input', '--debug']);
  return lines;
}

const specs = await Promise.all(ENTRIES.map(async (e) => ({ entry: e, spec: (await loadCommand(e)).spec })));

describe('fastParse agrees with commander', () => {
  for (const { entry, spec } of specs) {
    it(`${spec.name}`, async () => {
      let answered = 0;
      for (const argv of samples(spec)) {
        const fast = fastParse(spec, argv, entry.path.length);
        const slow = await parseCommand(spec, argv, env, sink, sink).catch((e: Error) => e);
        if (fast === null) continue;
        answered++;
        expect(slow, argv.join(' ')).not.toBeInstanceOf(Error);
        const s = slow as Exclude<typeof slow, Error | null>;
        expect({ args: fast.args, opts: fast.opts, globals: toGlobals(fast.globalsRaw, env) }, argv.join(' ')).toEqual({
          args: s.args,
          opts: s.opts,
          globals: s.globals,
        });
      }
      expect(answered).toBeGreaterThan(0);
    });
  }

  it('answers the common lines itself (so commander stays unloaded)', () => {
    const get = specs.find((s) => s.spec.name === 'get')!;
    expect(fastParse(get.spec, ['get', 'demo', '--json'], 1)).not.toBeNull();
  });

  it('leaves help, unknown options and missing arguments to commander', () => {
    const get = specs.find((s) => s.spec.name === 'get')!.spec;
    expect(fastParse(get, ['get', '--help'], 1)).toBeNull();
    expect(fastParse(get, ['get', 'x', '--frob'], 1)).toBeNull();
    expect(fastParse(get, ['get'], 1)).toBeNull();
    expect(fastParse(get, ['get', 'a', 'b'], 1)).toBeNull();
    expect(fastParse(get, ['get', 'a', '--timeout'], 1)).toBeNull();
  });
});
