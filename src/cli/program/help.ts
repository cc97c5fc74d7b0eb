// commander's help, told how ours looks: the overview lists every command a person runs, by group,
// a group's commands under their own words (`skills enable`); a command's help shows its arguments,
// options, the global options and its examples.
import { Help, type Command, type HelpConfiguration } from 'commander';
import { GLOBALS } from '../globals.js';
import { optionSyntax } from '../spec.js';
import { cli } from './command.js';
import { commandPath } from './options.js';

export const TAGLINE = 'superagent: run and talk to SuperAgents, autonomous crypto-trading agents.';

/** `skills enable`, `list (ls)`: a command as the lists name it. */
function term(cmd: Command): string {
  const words = commandPath(cmd).split(' ').slice(1).join(' ');
  return cmd.aliases().length ? `${words} (${cmd.aliases().join(', ')})` : words;
}

export const HELP: HelpConfiguration = {
  visibleCommands(cmd) {
    const listed = cli(cmd).listed();
    if (cmd.parent) return listed;
    // the overview: a group word alone is no command, its commands are
    return listed.flatMap((c) => [...(c.entry ? [c] : []), ...c.listed()]);
  },
  // the overview names the global options in one paragraph (overviewFooter), to fit on one screen
  visibleOptions(cmd) {
    return cmd.parent ? Help.prototype.visibleOptions.call(this, cmd) : [];
  },
  subcommandTerm: term,
  commandUsage: (cmd) => `${commandPath(cmd)} ${cmd.usage()}`,
};

/** What follows the overview's list of commands, wrapped to `width` columns. */
export function overviewFooter(width: number): string {
  // `-q/--quiet`: one word each
  const globals = Object.entries(GLOBALS).map(([key, def]) => optionSyntax(key, def).replace(/^(-\w), /, '$1/'));
  return [
    new Help().boxWrap(`Global options: ${globals.join(' ')}`, width),
    '',
    "Run 'superagent <command> --help' for a command's options and examples.",
    'With nothing configured, commands use the embedded local service.',
  ].join('\n');
}

export function examplesText(examples: readonly string[]): string {
  return ['Examples:', ...examples.map((e) => `  $ ${e}`)].join('\n');
}
