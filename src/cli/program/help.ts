// commander's help, told how ours looks: the overview lists every command a person runs, by group,
// a group's commands under their own words (`skills enable`); a command's help shows its arguments,
// options, the global options and its examples.
import { Help, type Command, type HelpConfiguration } from 'commander';
import { GLOBALS } from '../globals.js';
import { wrapWords } from '../../ui/format.js';
import { optionSyntax } from '../spec.js';
import { cli } from './command.js';
import { commandPath } from './options.js';

export const TAGLINE = 'superagent: run and talk to SuperAgents, autonomous crypto-trading agents.';

/** `skills enable`, `list (ls)`: a command as the lists name it. */
function term(cmd: Command): string {
  const words = commandPath(cmd).split(' ').slice(1).join(' ');
  return cmd.aliases().length ? `${words} (${cmd.aliases().join(', ')})` : words;
}

/**
 * Below commander's 40 columns a text is still wrapped (the terminal would break its words); an
 * option whose description would get fewer columns than this has it on the lines under it.
 */
const MIN_WRAP = 20;

/**
 * `text` on words, to go after a prefix of at most `indent` columns in lines at most `width` wide,
 * its later lines indented by `indent`.
 */
function hanging(text: string, width: number, indent: number): string {
  if (text.length <= width - indent) return text;
  return wrapWords(text, Math.max(width - indent, MIN_WRAP)).join(`\n${' '.repeat(indent)}`);
}

export const HELP: HelpConfiguration = {
  minWidthToWrap: MIN_WRAP,
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
  // after `Usage: ` (7 columns), its later lines under its first
  commandUsage(this: Help, cmd) {
    return hanging(`${commandPath(cmd)} ${cmd.usage()}`, this.helpWidth ?? 80, 7);
  },
  formatItem(this: Help, itemTerm, termWidth, description, helper) {
    const width = this.helpWidth ?? 80;
    if (!description || width - termWidth - 4 >= MIN_WRAP) {
      return Help.prototype.formatItem.call(this, itemTerm, termWidth, description, helper);
    }
    // too narrow for a column of descriptions: each under its term
    const under = wrapWords(description, Math.max(width - 4, MIN_WRAP)).map((line) => `    ${line}`);
    return [`  ${itemTerm}`, ...under].join('\n');
  },
};

/** What follows the overview's list of commands, wrapped to `width` columns. */
export function overviewFooter(width: number): string {
  // `-q/--quiet`: one word each
  const globals = Object.entries(GLOBALS).map(([key, def]) => optionSyntax(key, def).replace(/^(-\w), /, '$1/'));
  const help = new Help();
  help.minWidthToWrap = MIN_WRAP;
  const footer = [
    `Global options: ${globals.join(' ')}`,
    '',
    "Run 'superagent <command> --help' for a command's options and examples.",
    'With nothing configured, commands use the embedded local service.',
  ].join('\n');
  return help.boxWrap(footer, width);
}

/** The examples, each wrapped on words to `width` columns (its later lines under its first). */
export function examplesText(examples: readonly string[], width = Infinity): string {
  return ['Examples:', ...examples.map((e) => `  $ ${hanging(e, width, 6)}`)].join('\n');
}
