// Every command explains itself through commander's help: the overview and a group word's list from
// the registry, `superagent <command> --help` from its spec; and every spec is one commander takes:
// each of its examples parses to the command it shows.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GLOBALS } from '../../src/cli/globals.js';
import { ENTRIES, GROUP_TITLES, VISIBLE_ENTRIES, type Entry, type Group } from '../../src/cli/registry.js';
import { flagName, optionSyntax, type CommandModule, type OptionDef, type Spec } from '../../src/cli/spec.js';
import { shellSplit } from '../../src/ui/shell-split.js';
import { parse } from '../helpers/program.js';

const entryName = (e: Pick<Entry, 'path'>) => e.path.join(' ');
const COMMANDS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/cli/commands');

const loaded = await Promise.all(
  ENTRIES.map(async (entry) => ({ entry, name: entryName(entry), mod: await entry.load() })),
);
const moduleOf = (e: Entry): CommandModule => loaded.find((l) => l.entry === e)!.mod;
const help = async (argv: string[]) => (await parse([...argv, '--help'])).stdout;

/** Help text with its line wrapping undone, so a wrapped description is found whole. */
const flat = (text: string) => text.replace(/\s+/g, ' ');
/** How commander's help adds an option's choices to its description. */
const choices = (o: { choices?: readonly string[] }) =>
  o.choices ? ` (choices: ${o.choices.map((c) => `"${c}"`).join(', ')})` : '';
const argLabel = (a: { name: string; required?: boolean; variadic?: boolean }) =>
  a.required ? `<${a.name}${a.variadic ? '...' : ''}>` : `[${a.name}${a.variadic ? '...' : ''}]`;
const GLOBAL_SYNTAX = Object.entries(GLOBALS).map(([key, o]) => [optionSyntax(key, o), o.description] as const);

describe('every registry entry loads a command with a spec and examples', () => {
  it.each(loaded.map((l) => [l.name, l] as const))('%s', (_name, { entry, mod }) => {
    expect(typeof mod.run).toBe('function');
    expect(entry.summary.trim()).not.toBe('');
    expect(entry.summary).not.toMatch(/\n|placeholder|TODO/i);
    if (mod.spec.description !== undefined) expect(mod.spec.description.trim()).not.toBe('');
    expect(mod.spec.examples.length).toBeGreaterThanOrEqual(1);
    for (const example of mod.spec.examples)
      expect(example, 'an example runs superagent').toMatch(/(^|[\s(|])superagent /);
  });

  it(
    'every command module under src/cli/commands is registered ' + '(and the helpers beside them are not commands)',
    async () => {
      const files = (fs.readdirSync(COMMANDS_DIR, { recursive: true }) as string[]).filter(
        (f) => f.endsWith('.ts') && !f.startsWith(`shared${path.sep}`),
      );
      const registered = new Set(loaded.map((l) => l.mod));
      const commands: string[] = [];
      for (const f of files) {
        const mod = (await import(pathToFileURL(path.join(COMMANDS_DIR, f)).href)) as Partial<CommandModule>;
        if (mod.spec === undefined && mod.run === undefined) continue; // a helper (classic/record.ts, skills/toggle.ts)
        expect(registered.has(mod as CommandModule), `${f} exports a command no registry entry loads`).toBe(true);
        commands.push(f);
      }
      expect(commands).toHaveLength(ENTRIES.length);
    },
  );

  it('names are unique, and commander finds each command by its words, and an alias its command', async () => {
    const names = ENTRIES.map(entryName);
    expect(new Set(names).size).toBe(names.length);
    const argsOf = (e: Entry) => (moduleOf(e).spec.args ?? []).filter((a) => a.required).map((a) => `some-${a.name}`);
    for (const e of ENTRIES) expect((await parse([...e.path, ...argsOf(e)])).chosen?.entry, entryName(e)).toBe(e);
    expect((await parse(['ls'])).chosen?.entry.path).toEqual(['list']);
  });
});

describe('superagent <command> --help', () => {
  it.each(VISIBLE_ENTRIES.map((e) => [entryName(e), e] as const))('%s', async (name, entry) => {
    const spec = moduleOf(entry).spec;
    const text = await help([...entry.path]);
    const usage = ['superagent', name, ...(spec.args ?? []).map(argLabel), '[options]'].join(' ');
    // a long usage line or example is wrapped on words to the width, as the rest is
    expect(flat(text.slice(0, text.indexOf('\n\n'))), text.split('\n')[0]).toBe(`Usage: ${usage}`);
    expect(flat(text)).toContain(flat(spec.description ?? entry.summary));
    for (const a of spec.args ?? []) expect(flat(text)).toContain(` ${a.name} ${flat(a.description)}`);
    for (const [key, o] of Object.entries(spec.options ?? {}) as Array<[string, OptionDef]>) {
      const syntax = optionSyntax(key, o);
      if (o.hidden) expect(text, `hidden ${syntax}`).not.toContain(`--${flagName(key)}`);
      else expect(flat(text), syntax).toContain(` ${syntax} ${flat(o.description)}${choices(o)}`);
    }
    const globals = flat(text.slice(text.indexOf('\nGlobal options:\n')));
    for (const [syntax, description] of GLOBAL_SYNTAX) {
      expect(globals, syntax).toContain(` ${syntax} ${flat(description)}`);
    }
    expect(globals).toContain(' -h, --help show this help');
    const examples = text.slice(text.lastIndexOf('\nExamples:\n'));
    expect(flat(examples)).toBe(flat(`\nExamples:\n${spec.examples.map((e) => `  $ ${e}\n`).join('')}`));
    // no line runs past the width it was asked for (an example is not wrapped)
    for (const line of text.split('\n').filter((l) => !l.startsWith('  $ '))) {
      expect(line.length, line).toBeLessThanOrEqual(80);
    }
  });

  it('get, in full', async () => {
    expect(await help(['get'])).toBe(
      [
        'Usage: superagent get <agent> [options]',
        '',
        "Show one agent's details",
        '',
        'Arguments:',
        '  agent                uuid, unique id prefix (4+ characters) or unique name',
        '',
        'Global options:',
        '  --json               machine output: the API JSON on stdout, nothing else',
        '                       there',
        '  --profile <name>     use this profile of the config file',
        '  --base-url <url>     base URL of the service, without /v1',
        '  --api-key <key>      API key (prefer SUPERAGENT_API_KEY: arguments are visible',
        '                       to other users)',
        '  -q, --quiet          no progress or status messages',
        '  --no-color           no colour',
        '  --raw                no Markdown rendering on a TTY',
        '  --debug              trace HTTP requests on stderr, secrets redacted',
        '  --verbose            also show tool calls and retries when stderr is not a',
        '                       terminal',
        '  --timeout <seconds>  request time-out; for a stream, the longest wait for',
        '                       reply text (default 30, chat and assistant 600); also the',
        '                       longest wait for piped input to end (none without it) and',
        '                       for the OS keychain (default 30)',
        '  -y, --yes            assume yes to confirmations',
        '  --no-input           never prompt; fail naming the missing flag',
        '  -h, --help           show this help',
        '',
        'Examples:',
        '  $ superagent get demo',
        '  $ superagent get 3f2a --json',
        '',
      ].join('\n'),
    );
  });

  it('a command with subcommands lists them after its options (skills)', async () => {
    const text = await help(['skills']);
    const listed = [
      'Agents:',
      '  skills enable        Enable skills on an agent',
      '  skills disable       Disable skills on an agent',
    ];
    expect(text).toContain(`\n${listed.join('\n')}\n`);
  });

  it('help get, --help get, help skills enable: the same as --help after the words', async () => {
    expect((await parse(['help', 'get'])).stdout).toBe(await help(['get']));
    expect((await parse(['--help', 'get'])).stdout).toBe(await help(['get']));
    expect((await parse(['-h', 'soul', 'show'])).stdout).toBe(await help(['soul', 'show']));
    expect((await parse(['help', 'skills', 'enable'])).stdout).toBe(await help(['skills', 'enable']));
  });

  it("server's simulation options each name the variable that sets the same for the embedded service", async () => {
    const text = flat(await help(['server']));
    for (const [flag, variable] of [
      ['--paper-balance', 'SUPERAGENT_PAPER_BALANCE'],
      ['--sim-speed', 'SUPERAGENT_SIM_SPEED'],
      ['--sim-scenario', 'SUPERAGENT_SIM_SCENARIO'],
    ]) {
      const from = text.indexOf(` ${flag} `);
      const described = text.slice(from, text.indexOf(' --', from + flag.length + 2));
      expect(described, flag).toContain(variable);
    }
  });

  it('a hidden option stays out of help but still parses (health --count)', async () => {
    const health = ENTRIES.find((e) => entryName(e) === 'health')!;
    expect(moduleOf(health).spec.options?.count?.hidden).toBe(true);
    const text = await help(['health']);
    expect(text).not.toContain('--count');
    expect(text).toContain('  --watch [seconds]    check again every SECONDS');
    expect((await parse(['health', 'demo', '--count', '2'])).chosen?.input).toMatchObject({ count: '2' });
  });
});

describe('the overview (superagent with no arguments)', async () => {
  const text = (await parse([])).stdout;
  const groups = Object.keys(GROUP_TITLES) as Group[];
  const used = groups.filter((g) => VISIBLE_ENTRIES.some((e) => e.group === g));

  it('is the same for --help, -h, help and options alone', async () => {
    for (const argv of [['--help'], ['-h'], ['help'], ['--json'], ['-q', '--no-color']]) {
      expect((await parse(argv)).stdout, argv.join(' ')).toBe(text);
    }
  });

  it('groups the commands by task, in the order of GROUP_TITLES; a group with no command is left out', () => {
    expect(used.map((g) => GROUP_TITLES[g])).toEqual(['Agents', 'Chat', 'Fleet as code', 'Configuration', 'Service']);
    const positions = used.map((g) => text.indexOf(`\n${GROUP_TITLES[g]}:\n`));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    for (const g of groups.filter((x) => !used.includes(x))) expect(text).not.toContain(`${GROUP_TITLES[g]}:`);
  });

  it('lists every visible command once, with its summary (and alias), under its group', () => {
    const sections = new Map(
      used.map((g) => {
        const start = text.indexOf(`\n${GROUP_TITLES[g]}:\n`);
        return [g, text.slice(start, text.indexOf('\n\n', start + 1))];
      }),
    );
    for (const entry of VISIBLE_ENTRIES) {
      const name = entryName(entry);
      const label = entry.aliases?.length ? `${name} (${entry.aliases.join(', ')})` : name;
      const all = text.split('\n');
      const lines = all.filter((l) => l.startsWith(`  ${label}  `));
      expect(lines, name).toHaveLength(1);
      // the summary, wrapped on the lines below it when long
      const at = all.indexOf(lines[0]!);
      const wrapped = all.slice(at + 1);
      const item = [
        lines[0],
        ...wrapped.slice(
          0,
          wrapped.findIndex((l) => !/^ {4,}/.test(l)),
        ),
      ];
      expect(flat(item.join(' ')).trim(), name).toBe(flat(`${label} ${entry.summary}`));
      expect(sections.get(entry.group), `${name} is under ${GROUP_TITLES[entry.group]}`).toContain(lines[0]);
    }
    const listed = [...sections.values()]
      .join('\n')
      .split('\n')
      .filter((l) => /^ {2}\S/.test(l));
    expect(listed).toHaveLength(VISIBLE_ENTRIES.length);
  });

  it('names the global options and where to read more', () => {
    for (const [key, o] of Object.entries(GLOBALS))
      expect(flat(text), key).toContain(optionSyntax(key, o).replace(/^(-\w), /, '$1/'));
    expect(text).toContain("Run 'superagent <command> --help' for a command's options and examples.");
  });

  // 61: the money commands (positions, pnl) took two lines more; 62: guard; 63: top
  it('is short: one screen', () => {
    expect(text.split('\n').length).toBeLessThanOrEqual(63);
  });
});

describe('a group word alone', () => {
  it('soul, in full: its commands, exit 0 on stdout', async () => {
    const soul = await parse(['soul']);
    expect(soul.chosen).toBeUndefined();
    expect(soul.stdout).toBe(await help(['soul']));
    const head = "Usage: superagent soul <command> [options]\n\nCommands of 'soul': show, edit, set\n";
    expect(soul.stdout.startsWith(head)).toBe(true);
    expect(
      soul.stdout.endsWith(
        [
          'Agents:',
          "  soul show            Print an agent's soul.md",
          "  soul edit            Edit an agent's soul.md in $VISUAL or $EDITOR",
          "  soul set             Replace an agent's soul.md from a file or stdin",
          '',
        ].join('\n'),
      ),
    ).toBe(true);
  });

  const groupWords = [...new Set(VISIBLE_ENTRIES.filter((e) => e.path.length > 1).map((e) => e.path[0]!))];

  it.each(groupWords)('%s lists exactly its commands', async (word) => {
    expect(groupWords.sort()).toEqual(['assistant', 'classic', 'config', 'skills', 'soul']);
    const text = await help([word]);
    // the list under the heading before the first of the group's commands
    const list = text.slice(text.lastIndexOf(':\n', text.indexOf(`  ${word} `)) + 2).split('\n\n')[0]!;
    const listed = list.split('\n').filter(Boolean);
    const expected = VISIBLE_ENTRIES.filter((e) => e.path[0] === word && e.path.length > 1).map(entryName);
    expect(listed.map((l) => l.trim().split(/\s{2,}/)[0])).toEqual(expected);
  });
});

describe('hidden entries are nowhere in help', () => {
  const hidden = ENTRIES.filter((e) => e.hidden);

  it('only the shell scripts’ helper and `version` are hidden', () => {
    expect(hidden.map(entryName)).toEqual(['__complete', 'version']);
  });

  it('not in the overview, a group, any command’s help, or the names suggestions choose from', async () => {
    const texts = [(await parse([])).stdout];
    for (const e of VISIBLE_ENTRIES) texts.push(await help([...e.path]));
    const everything = texts.join('\n');
    for (const e of hidden) {
      expect(everything).not.toMatch(new RegExp(`^  ${e.path[0]} `, 'm'));
      await expect(parse([`${e.path[0]}x`])).rejects.toThrow(/^unknown command/);
      await expect(parse([`${e.path[0]}x`])).rejects.toMatchObject({ hint: "see 'superagent --help'" });
    }
  });
});

/**
 * The superagent command lines of an example, as argv after `superagent`: split like a shell, cut
 * at | || && ;, redirections and leading VAR=value dropped. An example with $(…), <(…) or backquotes
 * is skipped (the words inside are another command).
 */
function commandLines(example: string): string[][] {
  if (/\$\(|<\(|`/.test(example)) return [];
  const segments: string[][] = [[]];
  const words = shellSplit(example);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (['|', '||', '&&', ';'].includes(w)) segments.push([]);
    else if (['>', '>>', '<', '2>'].includes(w)) i++;
    else segments.at(-1)!.push(w);
  }
  return segments
    .map((s) => s.slice(s.findIndex((w) => !/^[A-Za-z_]\w*=/.test(w))))
    .filter((s) => s[0] === 'superagent')
    .map((s) => s.slice(1));
}

describe('every spec is one commander takes', () => {
  const FLAG_OF_GLOBAL = new Set(
    Object.entries(GLOBALS).flatMap(([k, o]) => [flagName(k), ...('short' in o ? [o.short] : [])]),
  );

  it('commandLines splits examples like a shell', () => {
    expect(commandLines('superagent health demo || superagent restart demo')).toEqual([
      ['health', 'demo'],
      ['restart', 'demo'],
    ]);
    expect(commandLines('EDITOR="code --wait" superagent soul edit demo')).toEqual([['soul', 'edit', 'demo']]);
    expect(commandLines('superagent soul show demo | sed s/a/b/ | superagent soul set demo --file -')).toEqual([
      ['soul', 'show', 'demo'],
      ['soul', 'set', 'demo', '--file', '-'],
    ]);
    expect(commandLines('superagent memory demo > memory.md')).toEqual([['memory', 'demo']]);
    expect(commandLines('superagent chat demo "What is your view on BTC today?"')).toEqual([
      ['chat', 'demo', 'What is your view on BTC today?'],
    ]);
    expect(commandLines('id=$(superagent launch --name scout)')).toEqual([]);
  });

  it.each(loaded.map((l) => [l.name, l.mod.spec] as const))(
    '%s: option keys, argument names, shorts',
    (_name, spec: Spec) => {
      for (const [key, o] of Object.entries(spec.options ?? {}) as Array<[string, OptionDef]>) {
        expect(key, 'a camelCase key').toMatch(/^[a-z][a-zA-Z0-9]*$/);
        expect(FLAG_OF_GLOBAL.has(flagName(key)), `--${flagName(key)} is a global option`).toBe(false);
        if (o.short) expect(FLAG_OF_GLOBAL.has(o.short) || o.short === 'h', `-${o.short} is taken`).toBe(false);
        if (o.choices) expect(o.choices.length).toBeGreaterThan(0);
        if (o.negatable) expect(o.type).toBe('boolean');
        expect(o.description.trim()).not.toBe('');
      }
      const args = spec.args ?? [];
      for (const [i, a] of args.entries()) {
        expect(a.name, 'an argument name').toMatch(/^[a-z][a-z0-9-]*$/);
        if (a.variadic) expect(i, `<${a.name}...> is last`).toBe(args.length - 1);
        if (a.required)
          expect(
            args.slice(0, i).every((b) => b.required),
            `<${a.name}> after an optional argument`,
          ).toBe(true);
      }
    },
  );

  /** The entry whose words start `argv`, the longest such (`skills enable demo x` is skills enable). */
  const named = (argv: string[]) =>
    ENTRIES.filter((e) => e.path.every((w, i) => argv[i] === w)).sort((a, b) => b.path.length - a.path.length)[0];

  const SPECS = loaded.map((l) => [l.name, l.mod.spec] as const);
  it.each(SPECS)('%s: its examples parse, to the command they name', async (_name, spec) => {
    const lines = spec.examples.flatMap(commandLines);
    // every spec has an example without $(…), so none is left unchecked
    expect(lines.length).toBeGreaterThan(0);
    for (const argv of lines) {
      const { chosen } = await parse(argv);
      expect(chosen, argv.join(' ')).toBeDefined();
      if (named(argv)) expect(chosen!.entry, argv.join(' ')).toBe(named(argv));
    }
  });
});
