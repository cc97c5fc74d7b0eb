// Running a command: find it in argv, load only its module, parse, run, and turn any failure
// into one line on stderr and an exit code (CLI.md "Exit codes"). main.ts hands over to run().
import { Context, type IO } from './context.js';
import { EXIT, UsageError } from './errors.js';
import { fastParse } from './fast-parse.js';
import { commandWords, toGlobals } from './globals.js';
import type { CommandSpec } from './spec.js';
import { groupHelp, overview } from './help.js';
import { VISIBLE_ENTRIES, entriesUnder, resolveEntry } from './registry.js';
import { loadCommand } from './load-command.js';
import { reportError } from './report.js';
import { createPrinter } from '../ui/printer.js';

function wantsJson(argv: string[]): boolean {
  return argv.includes('--json');
}

function suggest(word: string): string {
  const names = [...new Set(VISIBLE_ENTRIES.flatMap((e) => [e.path[0]!, ...(e.aliases ?? [])]))];
  const close = names.filter((n) => n.startsWith(word.slice(0, 2)) || word.startsWith(n.slice(0, 3)));
  return close.length ? `did you mean ${close.map((n) => `'${n}'`).join(' or ')}?` : "see 'superagent --help'";
}

/** The fast parser for well-formed lines; commander for help and for anything it gives up on. */
async function parse(spec: CommandSpec, argv: string[], consumed: number, env: NodeJS.ProcessEnv, io: IO) {
  const fast = fastParse(spec, argv, consumed);
  if (fast) return { args: fast.args, opts: fast.opts, globals: toGlobals(fast.globalsRaw, env) };
  const { parseCommand } = await import('./program.js');
  return parseCommand(spec, argv, env, io.stdout, io.stderr);
}

export async function run(argv: string[], env: NodeJS.ProcessEnv, io: IO): Promise<number> {
  if (argv[0] === 'help') argv = [...argv.slice(1), '--help'];

  const json = wantsJson(argv);
  const debug = argv.includes('--debug');
  try {
    const words = commandWords(argv);
    if (words.length === 0) {
      io.stdout.write(overview());
      return EXIT.ok;
    }
    const found = resolveEntry(words);
    if (!found) {
      const group = entriesUnder(words[0]!);
      if (group.length > 0 && words.length === 1) {
        io.stdout.write(groupHelp(words[0]!, group));
        return EXIT.ok;
      }
      if (group.length > 0) throw new UsageError(`unknown command '${words.slice(0, 2).join(' ')}'`, `see 'superagent ${words[0]} --help'`);
      throw new UsageError(`unknown command '${words[0]}'`, suggest(words[0]!));
    }
    const mod = await loadCommand(found.entry);
    // an alias (`ls`) reaches commander, which knows the command by its name, as that name
    if (words[0] !== found.entry.path[0]) argv = argv.map((a, i) => (i === argv.indexOf(words[0]!) ? found.entry.path[0]! : a));
    const parsed = await parse(mod.spec, argv, found.consumed, env, io);
    if (!parsed) return EXIT.ok;
    const { globals } = parsed;
    const printer = await createPrinter(io.stdout, io.stderr, { json: globals.json, quiet: globals.quiet, color: globals.color, env });
    const ctx = new Context(globals, env, io, printer);
    try {
      return (await mod.run(parsed.args, parsed.opts, ctx)) ?? EXIT.ok;
    } catch (err) {
      // printer.json: a profile with `output json` turns it on too
      return reportError(err, io.stderr, { json: ctx.printer.json, debug: globals.debug, colour: ctx.printer.err.red.bold });
    } finally {
      await ctx.dispose();
    }
  } catch (err) {
    return reportError(err, io.stderr, { json, debug });
  }
}
