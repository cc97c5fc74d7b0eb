// The command tree as the completion scripts need it, built from the registry and every command's
// spec, so a script generated from it can never drift from the commands themselves.
import { PROVIDERS } from '../../contract.js';
import { GLOBALS } from '../globals.js';
import { VISIBLE_ENTRIES, type Entry } from '../registry.js';
import { optionSyntax, type ArgDef, type OptionDef } from '../spec.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** What a word may be: fixed words, names asked of the hidden `__complete` command, paths, or anything. */
export type Values =
  { kind: 'words'; words: readonly string[] } | { kind: 'agent' | 'skill-on' | 'skill-off' | 'file' | 'dir' | 'none' };

export interface OptionModel {
  /** '-y' and '--yes' for '-y, --yes' */
  names: string[];
  description: string;
  takesValue: boolean;
  values: Values;
}

export interface ArgModel {
  name: string;
  variadic: boolean;
  values: Values;
}

export interface CommandModel {
  /** '' for the top level, 'launch', 'skills enable', or a group word alone ('soul') */
  key: string;
  summary: string;
  /** the words that may follow this key as a subcommand, with their summaries */
  subcommands: Array<{ name: string; summary: string }>;
  /** false for a group word that is no command of its own ('soul', 'config') */
  runnable: boolean;
  options: OptionModel[];
  args: ArgModel[];
}

export interface Tree {
  commands: CommandModel[];
  globals: OptionModel[];
  /** alias → the command word it stands for ('ls' → 'list') */
  aliases: Record<string, string>;
}

const NONE: Values = { kind: 'none' };

function argValues(arg: ArgDef): Values {
  if (arg.choices) return { kind: 'words', words: arg.choices };
  switch (arg.complete) {
    case 'agent':
    case 'skill-on':
    case 'skill-off':
    case 'file':
      return { kind: arg.complete };
    case 'provider':
      return { kind: 'words', words: PROVIDERS };
    case 'shell':
      return { kind: 'words', words: SHELLS };
    default:
      return NONE;
  }
}

/** An option as the scripts see it: its names, whether a value follows, and what that value may be. */
function optionModel(key: string, o: OptionDef): OptionModel {
  const syntax = optionSyntax(key, o);
  const long = syntax.replace(/^-\w, /, '').split(' ')[0]!;
  // an optional value ('--watch [seconds]') never takes the next word from the completion's point of view
  const takesValue = o.type === 'string' || o.type === 'strings';
  let values: Values = NONE;
  if (o.choices) values = { kind: 'words', words: o.choices };
  else if (o.complete === 'file' || o.complete === 'dir') values = { kind: o.complete };
  else if (o.complete === 'provider') values = { kind: 'words', words: PROVIDERS };
  return { names: o.short ? [`-${o.short}`, long] : [long], description: o.description, takesValue, values };
}

function optionModels(options: Readonly<Record<string, OptionDef>> | undefined): OptionModel[] {
  return Object.entries(options ?? {})
    .filter(([, o]) => !o.hidden)
    .map(([key, o]) => optionModel(key, o));
}

export async function buildTree(entries: readonly Entry[] = VISIBLE_ENTRIES): Promise<Tree> {
  const loaded = await Promise.all(entries.map(async (entry) => ({ entry, spec: (await entry.load()).spec })));
  const byKey = new Map<string, CommandModel>();
  const model = (key: string): CommandModel => {
    let m = byKey.get(key);
    if (!m) {
      m = { key, summary: '', subcommands: [], runnable: false, options: [], args: [] };
      byKey.set(key, m);
    }
    return m;
  };
  const top = model('');
  const aliases: Record<string, string> = {};

  for (const { entry, spec } of loaded) {
    const key = entry.path.join(' ');
    const m = model(key);
    m.runnable = true;
    m.summary = entry.summary;
    m.options = optionModels(spec.options);
    m.args = (spec.args ?? []).map((a) => ({ name: a.name, variadic: a.variadic === true, values: argValues(a) }));
    for (const alias of entry.path.length === 1 ? (entry.aliases ?? []) : []) aliases[alias] = entry.path[0]!;
    if (entry.path.length === 2)
      model(entry.path[0]!).subcommands.push({ name: entry.path[1]!, summary: entry.summary });
    else if (entry.path.length > 2) throw new Error(`completion supports two-word commands at most, not '${key}'`);
  }
  // the top level lists every first word once; a group word alone is described by its subcommands
  for (const m of byKey.values()) {
    if (m.key === '' || m.key.includes(' ')) continue;
    if (!m.runnable) m.summary = `${m.key} commands: ${m.subcommands.map((s) => s.name).join(', ')}`;
    top.subcommands.push({ name: m.key, summary: m.summary });
  }
  const commands = [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { commands, globals: optionModels(GLOBALS), aliases };
}

/** The value options of a command, globals included: the words after them are values, not arguments. */
export function valueOptionNames(tree: Tree, command: CommandModel): string[] {
  return [...tree.globals, ...command.options].filter((o) => o.takesValue).flatMap((o) => o.names);
}

/** A slot as the scripts encode it: agent, skill-on, skill-off, file, dir, none, or words:a,b,c. */
export function valuesToken(values: Values): string {
  return values.kind === 'words' ? `words:${values.words.join(',')}` : values.kind;
}
