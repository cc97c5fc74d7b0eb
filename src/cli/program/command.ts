// A node of the command tree: commander's Command, with what it was built from (its registry
// entry) and, once declared, its module and spec (build.ts).
import { Command, type Option } from 'commander';
import type { OutStream } from '../../ui/printer.js';
import type { Entry } from '../registry.js';
import type { CommandModule, Spec } from '../spec.js';

/** Where commander writes (help, on stdout), and for whom: the line's environment and width. */
export interface ProgramWorld {
  env: NodeJS.ProcessEnv;
  stdout: OutStream;
  stderr: OutStream;
  /** the width help is wrapped to */
  columns: number;
}

export class CliCommand extends Command {
  /** the registry's entry of a command that runs; none for a group word alone (`soul`, `config`) */
  entry?: Entry;
  /** left out of help, the overview and suggestions */
  unlisted = false;
  /** set once it is set up and the global options are declared on it (the program is from the start) */
  setUp = false;
  /** set once its spec is declared (its module loaded) */
  module?: CommandModule;
  /** commander's option for each key of the spec */
  readonly declared = new Map<string, Option>();

  get spec(): Spec | undefined {
    return this.module?.spec;
  }

  /** The subcommands a person sees. */
  listed(): CliCommand[] {
    return (this.commands as CliCommand[]).filter((c) => !c.unlisted);
  }
}

/** What `cmd` is, as the tree built it. */
export const cli = (cmd: Command) => cmd as CliCommand;
