// Help, rendered from the registry (the overview and a group's list, with no command loaded) and
// from a command's spec (`superagent <command> --help`).
import { GLOBALS, usageLine } from './parse.js';
import { GROUP_TITLES, VISIBLE_ENTRIES, entryName, type Entry, type Group } from './registry.js';
import { optionSyntax, type OptionDef, type Spec } from './spec.js';

function label(e: Entry): string {
  return entryName(e) + (e.aliases?.length ? ` (${e.aliases.join(', ')})` : '');
}

function lines(entries: readonly Entry[]): string[] {
  const width = Math.max(...entries.map((e) => label(e).length));
  return entries.map((e) => `  ${label(e).padEnd(width)}  ${e.summary}`);
}

const GLOBAL_LINE = Object.entries(GLOBALS)
  .map(([key, def]) => optionSyntax(key, def).replace(/^(-\w), (--\S+)/, '$1/$2'))
  .join(' ');

/** Words of `text` in lines of at most `width` characters, each after `indent`. */
export function wrap(text: string, width: number, indent = ''): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      out.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(indent + line);
  return out;
}

export function overview(width = 80): string {
  const groups = Object.keys(GROUP_TITLES) as Group[];
  const sections = groups.flatMap((group) => {
    const entries = VISIBLE_ENTRIES.filter((e) => e.group === group);
    return entries.length ? [`${GROUP_TITLES[group]}:`, ...lines(entries), ''] : [];
  });
  return [
    'superagent: run and talk to SuperAgents, autonomous crypto-trading agents.',
    '',
    'Usage: superagent <command> [options]',
    '',
    ...sections,
    ...wrap(`Global options: ${GLOBAL_LINE}`, width),
    '',
    "Run 'superagent <command> --help' for a command's options and examples.",
    'With nothing configured, commands use the embedded local service.',
    '',
  ].join('\n');
}

export function groupHelp(word: string): string {
  const entries = VISIBLE_ENTRIES.filter((e) => e.path[0] === word);
  return [`Commands of '${word}':`, ...lines(entries), '', `Run 'superagent ${word} <command> --help' for details.`, ''].join('\n');
}

function optionRows(options: Readonly<Record<string, OptionDef>>): Array<[string, string]> {
  return Object.entries(options)
    .filter(([, o]) => !o.hidden)
    .map(([key, o]) => [optionSyntax(key, o), o.choices ? `${o.description} (${o.choices.join(', ')})` : o.description]);
}

function table(rows: Array<[string, string]>, width: number): string[] {
  const left = Math.min(28, Math.max(...rows.map(([l]) => l.length)));
  return rows.flatMap(([l, r]) => {
    const text = wrap(r, width, ' '.repeat(left + 4));
    if (l.length > left) return [`  ${l}`, ...text];
    return [`  ${l.padEnd(left)}  ${text[0]?.trimStart() ?? ''}`, ...text.slice(1)];
  });
}

/** `superagent <command> --help` */
export function commandHelp(entry: Entry, spec: Spec, width = 80): string {
  const name = entryName(entry);
  const args = (spec.args ?? []).map((a): [string, string] => [a.name, a.description]);
  const own = optionRows(spec.options ?? {});
  return [
    `Usage: ${usageLine(spec, name)}`,
    '',
    ...wrap(spec.description ?? entry.summary, width),
    ...(entry.aliases?.length ? ['', `Alias: ${entry.aliases.join(', ')}`] : []),
    ...(args.length ? ['', 'Arguments:', ...table(args, width)] : []),
    ...(own.length ? ['', 'Options:', ...table(own, width)] : []),
    '',
    'Global options:',
    ...table([...optionRows(GLOBALS), ['-h, --help', 'show this help']], width),
    '',
    'Examples:',
    ...spec.examples.map((e) => `  $ ${e}`),
    '',
  ].join('\n');
}

/** Every command name and alias a typo may have meant (for suggestions). */
export function commandNames(): string[] {
  return [...new Set(VISIBLE_ENTRIES.flatMap((e) => [e.path[0]!, ...(e.aliases ?? [])]))];
}

