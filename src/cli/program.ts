// Builds the commander tree for the one command being run (plus the global options) and parses argv.
import type { Command } from 'commander';
import { GLOBAL_OPTIONS, toGlobals, type GlobalOptions } from './globals.js';
import { UsageError } from './errors.js';
import type { CommandSpec, Options } from './spec.js';
import type { OutStream } from '../ui/printer.js';

export interface Parsed {
  args: string[];
  opts: Options;
  globals: GlobalOptions;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Adds one command (and the group commands above it) to `program`, as described by its spec. */
/** commander itself: loaded only when help or a parse error needs it (src/cli/fast-parse.ts does the rest) */
type Commander = typeof import('../vendor/commander.js');

export function defineCommand(commander: Commander, program: Command, spec: CommandSpec, onRun?: (args: unknown[], cmd: Command) => void): Command {
  const words = spec.name.split(' ');
  let parent = program;
  for (const word of words.slice(0, -1)) {
    parent = parent.commands.find((c) => c.name() === word) ?? parent.command(word);
  }
  const cmd = parent.command(words.at(-1)!).description(spec.description ?? spec.summary).summary(spec.summary);
  for (const arg of spec.args ?? []) {
    const label = `${arg.name}${arg.variadic ? '...' : ''}`;
    cmd.argument(arg.required ? `<${label}>` : `[${label}]`, arg.description);
  }
  for (const o of spec.options ?? []) {
    const option = new commander.Option(o.flags, o.description);
    if (o.choices) option.choices(o.choices);
    if (o.repeatable) option.argParser(collect);
    if (o.hidden) option.hideHelp();
    cmd.addOption(option);
  }
  if (spec.examples.length) cmd.addHelpText('after', `\nExamples:\n${spec.examples.map((e) => `  $ ${e}`).join('\n')}\n`);
  if (onRun) cmd.action((...actionArgs: unknown[]) => onRun(actionArgs, cmd));
  return cmd;
}

export function addGlobalOptions(program: Command): Command {
  for (const g of GLOBAL_OPTIONS) program.option(g.flags, g.description);
  return program;
}

/**
 * Parses argv for `spec`. Returns null when help was printed (exit 0); throws UsageError for
 * anything commander rejects, as one line.
 */
export async function parseCommand(spec: CommandSpec, argv: string[], env: NodeJS.ProcessEnv, out: OutStream, err: OutStream): Promise<Parsed | null> {
  const commander = await import('../vendor/commander.js');
  const program = addGlobalOptions(new commander.Command('superagent'));
  let parsed: { args: string[]; opts: Options } | undefined;
  program
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true })
    .configureOutput({
      writeOut: (s) => out.write(s),
      writeErr: (s) => err.write(s),
      outputError: () => undefined, // reported once, by main
    });
  defineCommand(commander, program, spec, (actionArgs, cmd) => {
    const positional = actionArgs.slice(0, (spec.args ?? []).length) as Array<string | string[] | undefined>;
    parsed = { args: positional.flatMap((a) => (a === undefined ? [] : Array.isArray(a) ? a : [a])), opts: cmd.opts() };
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof commander.CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.help' || e.code === 'commander.version') return null;
      const message = e.message.replace(/^error:\s*/i, '');
      throw new UsageError(message, `see 'superagent ${spec.name} --help'`);
    }
    throw e;
  }
  if (!parsed) return null; // a group word alone printed its help
  return { ...parsed, globals: toGlobals(program.opts(), env) };
}
