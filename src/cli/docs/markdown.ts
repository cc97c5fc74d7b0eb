// docs/cli.md, written from commander's tree (every command's spec declared): the commands by group,
// the global options, each command's usage, arguments, options and examples, then the environment
// variables and exit codes the CLI uses. `npm run docs` writes it; a test fails when it differs.
import type { Argument, Help, Option } from 'commander';
import { EXIT_MEANINGS } from '../exit-codes.js';
import { buildProgram, declareAll } from '../program/build.js';
import { cli, type CliCommand } from '../program/command.js';
import { argLabel, commandPath } from '../program/options.js';
import { HABITS } from '../registry.js';
import { ENVIRONMENT } from './environment.js';

/** Text in a table cell: one line, its pipes escaped. */
const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
const code = (text: string) => `\`${text}\``;
const anchor = (cmd: CliCommand) =>
  commandPath(cmd)
    .replace(/[^\w-]+/g, '-')
    .toLowerCase();

function table(head: [string, string], rows: Array<[string, string]>): string[] {
  return [`| ${head[0]} | ${head[1]} |`, '|---|---|', ...rows.map(([a, b]) => `| ${cell(a)} | ${cell(b)} |`)];
}

/** The options of `cmd` under `heading` in its help ('Options:' or 'Global options:'). */
function optionRows(help: Help, cmd: CliCommand, heading: string): Array<[string, string]> {
  const inGroup = (o: Option) => (o.helpGroupHeading ?? 'Options:') === heading;
  return help
    .visibleOptions(cmd)
    .filter(inGroup)
    .map((o) => [code(o.flags), help.optionDescription(o)]);
}

function commandSection(help: Help, cmd: CliCommand): string[] {
  const spec = cmd.spec!;
  const label = (a: Argument) => argLabel({ name: a.name(), required: a.required, variadic: a.variadic });
  const args = cmd.registeredArguments.map((a): [string, string] => [code(label(a)), a.description]);
  const options = optionRows(help, cmd, 'Options:');
  return [
    `### ${commandPath(cmd)}`,
    '',
    `Usage: ${code(help.commandUsage(cmd))}`,
    '',
    help.commandDescription(cmd),
    ...(cmd.aliases().length ? ['', `Alias: ${cmd.aliases().map(code).join(', ')}`] : []),
    ...(args.length ? ['', ...table(['argument', ''], args)] : []),
    ...(options.length ? ['', ...table(['option', ''], options)] : []),
    '',
    '```sh',
    ...spec.examples,
    '```',
    '',
  ];
}

export async function cliMarkdown(): Promise<string> {
  const quiet = { write: () => true };
  const world = { env: {}, stdout: quiet, stderr: quiet, columns: 80 };
  const program = buildProgram(world, [], async () => undefined);
  await declareAll(program, world);
  const help = program.createHelp();
  const commands = help.visibleCommands(program).map(cli);
  const groups = [...new Set(commands.map((c) => c.helpGroup()))];
  const habits = Object.entries(HABITS).map(([word, ours]) => `${code(word)} → ${ours.map(code).join(', ')}`);
  return [
    '# superagent command line',
    '',
    '<!-- Written by `npm run docs` from the command tree (src/cli/program/); edit the specs, not this file. -->',
    '',
    program.description(),
    '',
    `Usage: ${code(help.commandUsage(program))}. ${code('superagent help <command>')} is ` +
      `${code('superagent <command> --help')}; ${code('--version')} (${code('-V')}, ${code('-v')}) and ` +
      `${code('superagent version')} print the version.`,
    '',
    '## Commands',
    '',
    ...groups.flatMap((group) => [
      `**${group.replace(/:$/, '')}**`,
      '',
      ...table(
        ['command', ''],
        commands.filter((c) => c.helpGroup() === group).map((c) => [`[${commandPath(c)}](#${anchor(c)})`, c.summary()]),
      ),
      '',
    ]),
    'A mistyped command or option is refused (exit 2) with the nearest one suggested. Words of other CLIs are ' +
      `suggested, never run: ${habits.join('; ')}.`,
    '',
    '## Global options',
    '',
    'Accepted by every command, before or after its words.',
    '',
    // as every command's help lists them (-h, --help included)
    ...table(['option', ''], optionRows(help, commands[0]!, 'Global options:')),
    '',
    '## Command reference',
    '',
    ...commands.flatMap((c) => commandSection(help, c)),
    '## Environment variables',
    '',
    ...table(
      ['variable', ''],
      ENVIRONMENT.map((v) => [code(v.name), v.description]),
    ),
    '',
    '## Exit codes',
    '',
    ...table(
      ['code', ''],
      Object.entries(EXIT_MEANINGS).map(([n, meaning]) => [n, meaning]),
    ),
    '',
  ].join('\n');
}
