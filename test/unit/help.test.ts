// Every command explains itself, from the registry (the overview and a group's list, with nothing
// loaded) and from its spec (`superagent <command> --help`); and every spec is one the parser
// accepts: its options and arguments are well formed, and each of its examples parses.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commandHelp, commandNames, groupHelp, overview } from '../../src/cli/help.js';
import { GLOBALS, commandWords, parseLine, usageLine } from '../../src/cli/parse.js';
import { ENTRIES, GROUP_TITLES, VISIBLE_ENTRIES, entriesUnder, entryName, resolveEntry, type Entry, type Group } from '../../src/cli/registry.js';
import { flagName, optionSyntax, type CommandModule, type OptionDef, type Spec } from '../../src/cli/spec.js';
import { shellSplit } from '../../src/ui/shell-split.js';

const COMMANDS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/cli/commands');

const loaded = await Promise.all(ENTRIES.map(async (entry) => ({ entry, name: entryName(entry), mod: await entry.load() })));
const moduleOf = (e: Entry): CommandModule => loaded.find((l) => l.entry === e)!.mod;

/** Help text with its line wrapping undone, so a wrapped description is found whole. */
const flat = (text: string) => text.replace(/\s+/g, ' ');
const optionText = (o: OptionDef) => (o.choices ? `${o.description} (${o.choices.join(', ')})` : o.description);

describe('every registry entry loads a command with a spec and examples', () => {
  it.each(loaded.map((l) => [l.name, l] as const))('%s', (_name, { entry, mod }) => {
    expect(typeof mod.run).toBe('function');
    expect(entry.summary.trim()).not.toBe('');
    expect(entry.summary).not.toMatch(/\n|placeholder|TODO/i);
    if (mod.spec.description !== undefined) expect(mod.spec.description.trim()).not.toBe('');
    expect(mod.spec.examples.length).toBeGreaterThanOrEqual(1);
    for (const example of mod.spec.examples) expect(example, 'an example runs superagent').toMatch(/(^|[\s(|])superagent /);
  });

  it('every command module under src/cli/commands is registered (and the helpers beside them are not commands)', async () => {
    const files = (fs.readdirSync(COMMANDS_DIR, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && !f.startsWith(`shared${path.sep}`));
    const registered = new Set(loaded.map((l) => l.mod));
    const commands: string[] = [];
    for (const f of files) {
      const mod = (await import(pathToFileURL(path.join(COMMANDS_DIR, f)).href)) as Partial<CommandModule>;
      if (mod.spec === undefined && mod.run === undefined) continue; // a helper (classic/record.ts, skills/toggle.ts)
      expect(registered.has(mod as CommandModule), `${f} exports a command no registry entry loads`).toBe(true);
      commands.push(f);
    }
    expect(commands).toHaveLength(ENTRIES.length);
  });

  it('names are unique, and an alias finds its command', () => {
    const names = ENTRIES.map(entryName);
    expect(new Set(names).size).toBe(names.length);
    for (const e of ENTRIES) expect(resolveEntry(e.path), entryName(e)).toBe(e);
    expect(resolveEntry(['ls'])?.path).toEqual(['list']);
  });
});

describe('commandHelp: superagent <command> --help', () => {
  it.each(VISIBLE_ENTRIES.map((e) => [entryName(e), e] as const))('%s', (name, entry) => {
    const spec = moduleOf(entry).spec;
    const help = commandHelp(entry, spec);
    const text = flat(help);
    expect(help.startsWith(`Usage: ${usageLine(spec, name)}\n\n`)).toBe(true);
    expect(text).toContain(flat(spec.description ?? entry.summary));
    for (const a of spec.args ?? []) expect(text).toContain(` ${a.name} ${flat(a.description)}`);
    for (const [key, o] of Object.entries(spec.options ?? {})) {
      const syntax = optionSyntax(key, o);
      if (o.hidden) expect(help, `hidden ${syntax}`).not.toContain(`--${flagName(key)}`);
      else expect(text, syntax).toContain(` ${syntax} ${flat(optionText(o))}`);
    }
    expect(help).toContain('\nGlobal options:\n');
    for (const [key, o] of Object.entries(GLOBALS)) expect(text, key).toContain(` ${optionSyntax(key, o)} ${flat(o.description)}`);
    expect(text).toContain(' -h, --help show this help');
    expect(help.endsWith(`\nExamples:\n${spec.examples.map((e) => `  $ ${e}\n`).join('')}`)).toBe(true);
    if (entry.aliases?.length) expect(help).toContain(`\nAlias: ${entry.aliases.join(', ')}\n`);
    // no line runs past the width it was asked for (a long option syntax gets its own line)
    for (const line of help.split('\n').filter((l) => !l.startsWith('  $ '))) expect(line.length, line).toBeLessThanOrEqual(80);
  });

  it('get, in full', async () => {
    const get = ENTRIES.find((e) => entryName(e) === 'get')!;
    expect(commandHelp(get, moduleOf(get).spec)).toBe(
      [
        'Usage: superagent get <agent> [options]',
        '',
        "Show one agent's details",
        '',
        'Arguments:',
        '  agent  uuid, unique id prefix (4+ characters) or unique name',
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

  it('a hidden option stays out of help but still parses (health --count)', () => {
    const health = ENTRIES.find((e) => entryName(e) === 'health')!;
    const spec = moduleOf(health).spec;
    expect(spec.options?.count?.hidden).toBe(true);
    expect(commandHelp(health, spec)).not.toContain('--count');
    expect(commandHelp(health, spec)).toContain('  --watch [seconds]  check again every SECONDS');
    expect(parseLine(spec, 'health', ['health', 'demo', '--count', '2'], {}).input).toMatchObject({ count: '2' });
  });
});

describe('the overview (superagent with no arguments)', () => {
  const text = overview();
  const groups = Object.keys(GROUP_TITLES) as Group[];
  const used = groups.filter((g) => VISIBLE_ENTRIES.some((e) => e.group === g));

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
      const lines = text.split('\n').filter((l) => l.startsWith(`  ${label}  `) || l === `  ${label}`);
      expect(lines, name).toHaveLength(1);
      expect(lines[0]!.endsWith(`  ${entry.summary}`), lines[0]).toBe(true);
      expect(sections.get(entry.group), `${name} is under ${GROUP_TITLES[entry.group]}`).toContain(lines[0]);
    }
    const listed = [...sections.values()].join('\n').split('\n').filter((l) => l.startsWith('  '));
    expect(listed).toHaveLength(VISIBLE_ENTRIES.length);
  });

  it('names the global options and where to read more', () => {
    for (const [key, o] of Object.entries(GLOBALS)) expect(flat(text), key).toContain(optionSyntax(key, o).replace(/^(-\w), /, '$1/'));
    expect(text).toContain("Run 'superagent <command> --help' for a command's options and examples.");
  });

  it('is short: one screen', () => {
    expect(text.split('\n').length).toBeLessThanOrEqual(60);
  });
});

describe('groupHelp: a group word alone', () => {
  it('skills, in full', () => {
    expect(groupHelp('skills')).toBe(
      [
        "Commands of 'skills':",
        "  skills          List an agent's skills",
        '  skills enable   Enable skills on an agent',
        '  skills disable  Disable skills on an agent',
        '',
        "Run 'superagent skills <command> --help' for details.",
        '',
      ].join('\n'),
    );
  });

  const groupWords = [...new Set(VISIBLE_ENTRIES.filter((e) => e.path.length > 1).map((e) => e.path[0]!))];

  it.each(groupWords)('%s lists exactly its commands', (word) => {
    expect(groupWords.sort()).toEqual(['assistant', 'classic', 'config', 'skills', 'soul']);
    const listed = groupHelp(word).split('\n').filter((l) => l.startsWith('  '));
    expect(listed.map((l) => l.trim().split(/\s{2,}/)[0])).toEqual(entriesUnder(word).map(entryName));
  });
});

describe('hidden entries are nowhere in help', () => {
  const hidden = ENTRIES.filter((e) => e.hidden);

  it('only the shell scripts’ helper is hidden', () => {
    expect(hidden.map(entryName)).toEqual(['__complete']);
  });

  it('not in the overview, a group, any command’s help, or the names suggestions choose from', () => {
    const everything = [
      overview(),
      ...new Set(VISIBLE_ENTRIES.map((e) => groupHelp(e.path[0]!))),
      ...VISIBLE_ENTRIES.map((e) => commandHelp(e, moduleOf(e).spec)),
    ].join('\n');
    for (const e of hidden) {
      expect(everything).not.toContain(e.path[0]);
      expect(commandNames()).not.toContain(e.path[0]);
      expect(VISIBLE_ENTRIES).not.toContain(e);
    }
    expect(commandNames()).toEqual(expect.arrayContaining(['launch', 'list', 'ls', 'skills', 'config', 'server']));
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

describe('every spec is one the parser accepts', () => {
  const FLAG_OF_GLOBAL = new Set(Object.entries(GLOBALS).flatMap(([k, o]) => [flagName(k), ...('short' in o ? [o.short] : [])]));

  it('commandLines splits examples like a shell', () => {
    expect(commandLines('superagent health demo || superagent restart demo')).toEqual([['health', 'demo'], ['restart', 'demo']]);
    expect(commandLines('EDITOR="code --wait" superagent soul edit demo')).toEqual([['soul', 'edit', 'demo']]);
    expect(commandLines('superagent soul show demo | sed s/a/b/ | superagent soul set demo --file -')).toEqual([['soul', 'show', 'demo'], ['soul', 'set', 'demo', '--file', '-']]);
    expect(commandLines('superagent memory demo > memory.md')).toEqual([['memory', 'demo']]);
    expect(commandLines('superagent chat demo "What is your view on BTC today?"')).toEqual([['chat', 'demo', 'What is your view on BTC today?']]);
    expect(commandLines('id=$(superagent launch --name scout)')).toEqual([]);
  });

  it.each(loaded.map((l) => [l.name, l.mod.spec] as const))('%s: option keys, argument names, shorts', (_name, spec: Spec) => {
    for (const [key, o] of Object.entries(spec.options ?? {})) {
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
      if (a.required) expect(args.slice(0, i).every((b) => b.required), `<${a.name}> after an optional argument`).toBe(true);
    }
  });

  it.each(loaded.map((l) => [l.name, l.mod.spec] as const))('%s: its examples parse', (_name, spec) => {
    const lines = spec.examples.flatMap(commandLines);
    // every spec has an example without $(…), so none is left unchecked
    expect(lines.length).toBeGreaterThan(0);
    for (const argv of lines) {
      const entry = resolveEntry(commandWords(argv));
      expect(entry, argv.join(' ')).toBeDefined();
      const parsed = parseLine(moduleOf(entry!).spec, entryName(entry!), argv, {});
      expect(parsed.help, argv.join(' ')).toBe(false);
    }
  });
});
