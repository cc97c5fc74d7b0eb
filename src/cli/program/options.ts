// A spec's arguments and options as commander declares them, and what commander parsed as the
// command's typed Input. Values commander cannot check by itself (a choice in our words, a count's
// number, a value forgotten before the next option) are checked by the parsers below.
import { Option, type Command } from 'commander';
import { UsageError } from '../../core/errors.js';
import { didYouMean } from '../../core/suggest.js';
import { flagName, optionSyntax, type ArgDef, type OptionDef, type Spec } from '../spec.js';

/** `superagent skills enable`: the command's words, from the program down. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The hint of a refusal that has no better one: where the command's help is. */
export function seeHelp(cmd: Command): string {
  return `see '${commandPath(cmd)} --help'`;
}

/** An argument as usage lines and commander write it: `<agent>`, `[message...]`. */
export function argLabel(a: Pick<ArgDef, 'name' | 'required' | 'variadic'>): string {
  const label = `${a.name}${a.variadic ? '...' : ''}`;
  return a.required ? `<${label}>` : `[${label}]`;
}

const NUMBER = /^\d+(\.\d+)?$/;

/** The long flag as written, without its value: `--no-stream`, `--soul-file`. */
const longFlag = (key: string, def: OptionDef) => `--${def.negatable ? 'no-' : ''}${flagName(key)}`;

/** The flags of the help option every command has (build.ts). */
export const HELP_FLAGS = '-h, --help';

/** Every flag `cmd` takes, long and short (`--name`, `-y`), its help's included. */
function ownFlags(cmd: Command): string[] {
  const flags = cmd.options.flatMap((o) => [o.long, o.short]).filter((f): f is string => f !== undefined);
  return [...flags, ...HELP_FLAGS.split(', ')];
}

/**
 * The option `key` of `cmd`, declared from its definition. A value that is one of the command's own
 * flags was most likely forgotten (`--name --model x`): refused rather than taken.
 */
export function declareOption(cmd: Command, key: string, def: OptionDef): Option {
  const flag = longFlag(key, def);
  const option = new Option(optionSyntax(key, def), def.description);
  if (def.hidden) option.hideHelp();
  if (def.choices) option.choices(def.choices);
  const checked = (value: string): string => {
    if (ownFlags(cmd).includes(value.replace(/=.*$/, ''))) {
      throw new UsageError(`${flag} needs a value`, `e.g. ${optionSyntax(key, def).replace(/^-\w, /, '')}`);
    }
    if (def.choices && !def.choices.includes(value)) {
      const hint = didYouMean(value, def.choices);
      throw new UsageError(`${flag} must be one of: ${def.choices.join(', ')}; not '${value}'`, hint);
    }
    return value;
  };
  if (def.type === 'string') option.argParser(checked);
  else if (def.type === 'strings') {
    option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), checked(value)]);
  } else if (def.type === 'count') {
    // `--watch` alone is true (commander's own value for an optional one given none)
    option.argParser((value: string) => {
      if (NUMBER.test(value)) return Number(value);
      throw new UsageError(`${flag} takes a number of ${def.value ?? 'units'}, not '${value}'`, seeHelp(cmd));
    });
  }
  return option;
}

/** Each argument by its name, each option by its key, as `run` takes them; an option not given is absent. */
export function inputOf(cmd: Command, spec: Spec, options: ReadonlyMap<string, Option>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  (spec.args ?? []).forEach((a, i) => {
    input[a.name] = cmd.processedArgs[i];
  });
  for (const [key, def] of Object.entries(spec.options ?? {})) {
    const value: unknown = cmd.getOptionValue(options.get(key)!.attributeName());
    if (value !== undefined) input[key] = value;
    else if (def.type === 'boolean') input[key] = false;
    else if (def.type === 'strings') input[key] = [];
  }
  return input;
}
