// A parser for the common, well-formed command line, so that running a command does not load
// commander (≈13 ms of start-up; bench/get.js). It understands exactly the option syntax of our
// specs and gives up (returns null) on anything else — help, unknown or malformed options, missing
// arguments — where commander takes over to print its help or its precise error.
// test/unit/fast-parse.test.ts checks that both agree on every command.
import { GLOBAL_OPTIONS } from './globals.js';
import type { CommandSpec, Options } from './spec.js';

interface FlagDef {
  key: string;
  takes: 'none' | 'required' | 'optional';
  negate: boolean;
  repeatable: boolean;
  choices?: readonly string[];
}

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

export function flagTable(options: ReadonlyArray<{ flags: string; choices?: readonly string[]; repeatable?: boolean }>): Map<string, FlagDef> {
  const table = new Map<string, FlagDef>();
  for (const o of options) {
    const m = /^(?:-(\w),\s*)?--([\w-]+)(?:\s+(<[^>]+>|\[[^\]]+\]))?$/.exec(o.flags);
    if (!m) continue;
    const [, short, long, value] = m;
    const negate = long!.startsWith('no-');
    const def: FlagDef = {
      key: camel(negate ? long!.slice(3) : long!),
      takes: value === undefined ? 'none' : value.startsWith('<') ? 'required' : 'optional',
      negate,
      repeatable: o.repeatable === true,
      choices: o.choices,
    };
    table.set(`--${long}`, def);
    if (short) table.set(`-${short}`, def);
  }
  return table;
}

export interface FastParsed {
  args: string[];
  opts: Options;
  globalsRaw: Record<string, unknown>;
}

/** `skip` is how many leading positional words name the command. */
export function fastParse(spec: CommandSpec, argv: string[], skip: number): FastParsed | null {
  const globals = flagTable(GLOBAL_OPTIONS);
  const own = flagTable(spec.options ?? []);
  const opts: Options = {};
  const globalsRaw: Record<string, unknown> = {};
  const positional: string[] = [];
  let skipped = 0;
  for (const d of own.values()) if (d.negate) opts[d.key] = true;
  for (const d of globals.values()) if (d.negate) globalsRaw[d.key] = true;

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('-') && arg !== '-') {
      const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
      const name = eq === -1 ? arg : arg.slice(0, eq);
      const def = own.get(name) ?? globals.get(name);
      if (!def || def.takes === 'optional' || name === '-h' || name === '--help') return null;
      const target = own.has(name) ? opts : globalsRaw;
      if (def.takes === 'none') {
        if (eq !== -1) return null;
        target[def.key] = !def.negate;
        continue;
      }
      let value: string | undefined;
      if (eq !== -1) value = arg.slice(eq + 1);
      else {
        value = argv[++i];
        if (value === undefined || (value.startsWith('-') && value !== '-')) return null;
      }
      if (def.choices && !def.choices.includes(value)) return null;
      target[def.key] = def.repeatable ? [...((target[def.key] as string[] | undefined) ?? []), value] : value;
      continue;
    }
    if (skipped < skip) {
      skipped++;
      continue;
    }
    positional.push(arg);
  }

  const specArgs = spec.args ?? [];
  const variadic = specArgs.at(-1)?.variadic === true;
  const required = specArgs.filter((a) => a.required).length;
  if (positional.length < required) return null;
  if (!variadic && positional.length > specArgs.length) return null;
  return { args: positional, opts, globalsRaw };
}
