// commander's command tree, from the one registry: the program with the global options, a command
// per entry (and a group word for `soul show`, `config set`…), each with its summary and group. A
// command is set up and its spec (arguments, options, examples) declared when commander dispatches
// to it, from its module, loaded then: a line loads and sets up only what it runs (declareAll does
// every command, for docs/cli.md and the tests). commander parses, dispatches, writes help and
// refuses (refusals.ts).
import { Argument, CommanderError, Option } from 'commander';
import { GLOBALS, toGlobals, type GlobalOptions } from '../globals.js';
import { ENTRIES, GROUP_TITLES, type Entry } from '../registry.js';
import { optionSyntax, type CommandModule } from '../spec.js';
import { CliCommand, cli, type ProgramWorld } from './command.js';
import { examplesText, HELP, overviewFooter, TAGLINE } from './help.js';
import { argLabel, declareOption, HELP_FLAGS, inputOf } from './options.js';
import { refusal, strayOption, subcommandTypo, unknownCommand, unknownOption } from './refusals.js';

/** The command commander chose, and what it parsed for it. */
export interface Chosen {
  entry: Entry;
  module: CommandModule;
  input: Record<string, unknown>;
  globals: GlobalOptions;
}

const GLOBAL_HEADING = 'Global options:';

/** commander's settings, the same on every command set up (the program, and each command dispatched to). */
function configure(cmd: CliCommand, world: ProgramWorld, argv: readonly string[]): void {
  cmd
    .exitOverride((err) => {
      throw refusal(err, cmd, argv);
    })
    .configureOutput({
      writeOut: (s) => void world.stdout.write(s),
      writeErr: (s) => void world.stderr.write(s),
      // a refusal is written by exit-codes.ts, in one line
      outputError: () => undefined,
      getOutHelpWidth: () => world.columns,
      getErrHelpWidth: () => world.columns,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    })
    .configureHelp(HELP)
    .showSuggestionAfterError(false)
    .addHelpOption(new Option(HELP_FLAGS, 'show this help').helpGroup(GLOBAL_HEADING))
    .helpCommand(false)
    // each command parses the words after its own: `assistant ask --model x` is ask's --model
    .enablePositionalOptions()
    // a command is set up as commander chooses it, before it parses the command's words
    .hook('preSubcommand', (parent, sub) => {
      const stray = strayOption(parent, sub);
      if (stray) throw stray;
      return declare(cli(sub), world, argv);
    });
}

/** The global options, as commander declares them: on the program, and again on each command under it. */
function globalOptions(): Option[] {
  return Object.entries(GLOBALS).map(([key, def]) => new Option(optionSyntax(key, def), def.description));
}

/** The global options given anywhere on the line, from the program down to `cmd`. */
function globalsOf(cmd: CliCommand, env: NodeJS.ProcessEnv): GlobalOptions {
  const path: CliCommand[] = [];
  for (let c: CliCommand | null = cmd; c; c = c.parent && cli(c.parent)) path.unshift(c);
  const raw: Record<string, unknown> = {};
  for (const c of path) {
    for (const key of Object.keys(GLOBALS)) if (c.getOptionValueSource(key) === 'cli') raw[key] = c.getOptionValue(key);
  }
  return toGlobals(raw, env);
}

/** Sets `cmd` up, its spec (its module loaded) and the global options declared, the first time it is needed. */
async function declare(cmd: CliCommand, world: ProgramWorld, argv: readonly string[]): Promise<void> {
  if (cmd.setUp) return;
  cmd.setUp = true;
  configure(cmd, world, argv);
  if (cmd.entry) await declareSpec(cmd, cmd.entry, world);
  for (const option of globalOptions()) cmd.addOption(option.helpGroup(GLOBAL_HEADING));
}

async function declareSpec(cmd: CliCommand, entry: Entry, world: ProgramWorld): Promise<void> {
  const module = await entry.load();
  cmd.module = module;
  const { spec } = module;
  for (const a of spec.args ?? []) cmd.addArgument(new Argument(argLabel(a), a.description));
  for (const [key, def] of Object.entries(spec.options ?? {})) {
    const option = declareOption(cmd, key, def);
    cmd.addOption(option);
    cmd.declared.set(key, option);
  }
  cmd.usage([...(spec.args ?? []).map(argLabel), '[options]'].join(' '));
  if (spec.description) cmd.description(spec.description);
  cmd.addHelpText('after', () => `\n${examplesText(spec.examples, world.columns)}`);
}

/** Every command under `cmd`, set up and declared (docs/cli.md, the tests). */
export async function declareAll(cmd: CliCommand, world: ProgramWorld): Promise<void> {
  for (const sub of cmd.commands.map(cli)) {
    await declare(sub, world, []);
    await declareAll(sub, world);
  }
}

/**
 * The tree of `entries` (the registry's; a test's own); `chosen` is called with the command a line
 * runs. `argv` is the line (refusals read it).
 */
export function buildProgram(
  world: ProgramWorld,
  argv: readonly string[],
  chosen: (c: Chosen) => Promise<void>,
  entries: readonly Entry[] = ENTRIES,
): CliCommand {
  const program = new CliCommand('superagent');
  configure(program, world, argv);
  program.description(TAGLINE).usage('<command> [options]');
  for (const option of globalOptions()) program.addOption(option);
  program.addHelpText('after', () => `\n${overviewFooter(world.columns)}`);

  const node = (parent: CliCommand, word: string): CliCommand => {
    const found = parent.commands.find((c) => c.name() === word);
    if (found) return cli(found);
    const cmd = new CliCommand(word);
    parent.addCommand(cmd);
    return cmd;
  };
  for (const entry of entries) {
    const cmd = entry.path.reduce(node, program);
    cmd.entry = entry;
    cmd.unlisted = entry.hidden === true;
    cmd
      .summary(entry.summary)
      .description(entry.summary)
      .aliases(entry.aliases ?? []);
    // the overview's group; a group word's is that of its first command
    for (let c: CliCommand | null = cmd; c?.parent; c = cli(c.parent)) {
      c.helpGroup(c.helpGroup() || `${GROUP_TITLES[entry.group]}:`);
    }
    cmd.action(async () => {
      const typo = subcommandTypo(cmd, argv);
      if (typo) throw typo;
      const globals = globalsOf(cmd, world.env);
      await chosen({ entry, module: cmd.module!, input: inputOf(cmd, cmd.spec!, cmd.declared), globals });
    });
  }
  for (const cmd of [program, ...program.commands.map(cli)].filter((c) => !c.entry)) groupWord(cmd, world);
  return program;
}

/**
 * The program and a group word alone (`soul`): its help, on stdout; a word after it is a command it
 * does not have, an option one it does not take.
 */
function groupWord(cmd: CliCommand, world: ProgramWorld): void {
  if (cmd.parent) {
    const names = cmd
      .listed()
      .map((c) => c.name())
      .join(', ');
    cmd.summary(`${cmd.name()} commands: ${names}`).description(`Commands of '${cmd.name()}': ${names}`);
  }
  cmd.usage('<command> [options]').allowUnknownOption().allowExcessArguments();
  cmd.action(() => {
    const [first] = cmd.args;
    if (first === undefined) {
      globalsOf(cmd, world.env); // still checked: `superagent --timeout 0`
      return cmd.outputHelp();
    }
    throw first.startsWith('-') && first.length > 1 ? unknownOption(cmd, first) : unknownCommand(cmd, first);
  });
}

/** Runs the line through commander, which calls `chosen` with the command to run (none for help shown). */
export async function parseLine(
  argv: string[],
  world: ProgramWorld,
  chosen: (c: Chosen) => Promise<void>,
  entries: readonly Entry[] = ENTRIES,
): Promise<void> {
  // `superagent help get` and `superagent --help get` are `superagent get --help`
  const first = argv[0] ?? '';
  const asksHelp = first === 'help' || (argv.length > 1 && HELP_FLAGS.split(', ').includes(first));
  const line = asksHelp ? [...argv.slice(1), '--help'] : argv;
  try {
    await buildProgram(world, line, chosen, entries).parseAsync(line, { from: 'user' });
  } catch (err) {
    if (!(err instanceof CommanderError && err.exitCode === 0)) throw err;
  }
}
