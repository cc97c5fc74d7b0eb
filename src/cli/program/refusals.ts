// What commander refuses, in our words: one line that says what to do, a usage error (exit 2), with
// the nearest command or option suggested, subcommands included, and a habit from other CLIs
// (`delete`, `stop`, `status`) pointed at ours. commander's own text is not shown (configureOutput).
import type { Command, CommanderError, Option } from 'commander';
import { UsageError } from '../../core/errors.js';
import { closest, didYouMean } from '../../core/suggest.js';
import { HABITS } from '../registry.js';
import { cli } from './command.js';
import { commandPath, seeHelp } from './options.js';

/** What a command's words look like in a message: `soul show`, not `superagent soul show`. */
const words = (cmd: Command) => commandPath(cmd).split(' ').slice(1).join(' ');
const within = (cmd: Command, word: string) => [words(cmd), word].filter(Boolean).join(' ');

/** The commands a typo under `cmd` may have meant: names and aliases, hidden ones left out. */
function visibleNames(cmd: Command): string[] {
  return cli(cmd)
    .listed()
    .flatMap((c) => [c.name(), ...c.aliases()]);
}

/** `did you mean 'get', 'health' or 'list'?` */
function oneOf(names: readonly string[], quote: (s: string) => string): string {
  const quoted = names.map(quote);
  return `did you mean ${quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : quoted[0]}?`;
}

export function unknownCommand(cmd: Command, word: string): UsageError {
  const quote = (s: string) => `'${within(cmd, s)}'`;
  const habit = cmd.parent ? undefined : HABITS[word];
  const hint = habit ? oneOf(habit, quote) : didYouMean(word, visibleNames(cmd), quote);
  return new UsageError(`unknown command '${within(cmd, word)}'`, hint ?? seeHelp(cmd));
}

/**
 * A command that runs by itself and has subcommands too (`skills <agent>`, `skills enable`): a first
 * word close to a subcommand is a typo of it, not an agent. After `--` the word is taken as it is.
 */
export function subcommandTypo(cmd: Command, argv: readonly string[]): UsageError | undefined {
  const word = cmd.args[0];
  if (word === undefined || cmd.commands.length === 0) return undefined;
  const end = argv.indexOf('--');
  if (end >= 0 && argv.indexOf(word, end) > end) return undefined;
  return closest(word, visibleNames(cmd)) === undefined ? undefined : unknownCommand(cmd, word);
}

/**
 * An option of a command's own given before the word of its subcommand (`assistant --model x ask`):
 * it would be dropped, the subcommand parses only what follows its word.
 */
export function strayOption(parent: Command, sub: Command): UsageError | undefined {
  const given = (o: Option) => parent.getOptionValueSource(o.attributeName()) === 'cli';
  const stray = [...cli(parent).declared.values()].find(given);
  if (!stray) return undefined;
  const hint = `options of '${words(sub)}' go after it: ${seeHelp(sub)}`;
  return new UsageError(`${stray.long ?? stray.short} comes before '${sub.name()}'`, hint);
}

/** Every option `cmd` takes, its own and its ancestors' (the globals), as commander declared them. */
const optionsInScope = (cmd: Command) => {
  const all = [];
  for (let c: Command | null = cmd; c; c = c.parent) all.push(...c.options);
  return all;
};

export function unknownOption(cmd: Command, flag: string): UsageError {
  const name = flag.replace(/=.*$/, '');
  const options = optionsInScope(cmd);
  // `--all=yes`: the option is known, the value is not taken
  if (name !== flag && options.some((o) => o.long === name && !o.required && !o.optional)) {
    return new UsageError(`${name} takes no value`, seeHelp(cmd));
  }
  const longs = options.filter((o) => !o.hidden && o.long).map((o) => o.long!);
  const hint = name.startsWith('--') ? didYouMean(name, longs) : undefined;
  return new UsageError(`unknown option '${name}'`, hint ?? seeHelp(cmd));
}

/** `superagent get <agent> [options]`, as the refusals quote it */
function usageOf(cmd: Command): string {
  return `${commandPath(cmd)} ${cmd.usage()}`;
}

/** The text between the first pair of quotes of commander's message: the flag or argument it names. */
const quoted = (message: string) => /'([^']*)'/.exec(message)?.[1] ?? '';

/**
 * The error to throw for commander's `err`, raised by `cmd`: help shown (exit 0) stays commander's;
 * every refusal becomes a UsageError in our words.
 */
export function refusal(err: CommanderError, cmd: Command, argv: readonly string[]): Error {
  if (err.exitCode === 0) return err;
  switch (err.code) {
    case 'commander.unknownOption':
      return unknownOption(cmd, quoted(err.message));
    case 'commander.optionMissingArgument': {
      const syntax = quoted(err.message).replace(/^-\w, /, '');
      return new UsageError(`${syntax.split(' ')[0]} needs a value`, `e.g. ${syntax}`);
    }
    case 'commander.missingArgument':
      return new UsageError(`missing <${quoted(err.message)}>`, `usage: ${usageOf(cmd)}`);
    case 'commander.excessArguments': {
      const extra = cmd.args.slice(cmd.registeredArguments.length);
      if (cmd.commands.length > 0 && cmd.registeredArguments.length === 0) return unknownCommand(cmd, extra[0]!);
      const typo = subcommandTypo(cmd, argv);
      if (typo) return typo;
      return new UsageError(`too many arguments: ${extra.map((a) => `'${a}'`).join(' ')}`, `usage: ${usageOf(cmd)}`);
    }
    default:
      return new UsageError(err.message.replace(/^error: /, ''), seeHelp(cmd));
  }
}
