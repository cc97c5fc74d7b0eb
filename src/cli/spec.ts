// The shape of a command module: static metadata (for help, parsing and completion) and `run`.
import type { Context } from './context.js';

export interface OptionSpec {
  /** commander syntax: '--name <name>', '-y, --yes', '--watch [seconds]' */
  flags: string;
  description: string;
  choices?: readonly string[];
  /** for repeatable options: collect every value into an array */
  repeatable?: boolean;
  hidden?: boolean;
}

export type Completion = 'agent' | 'provider' | 'skill' | 'shell' | 'file';

export interface ArgSpec {
  name: string;
  description: string;
  required?: boolean;
  variadic?: boolean;
  complete?: Completion;
  /** the words it may be, offered by shell completion (the command still checks the value itself) */
  choices?: readonly string[];
}

export interface CommandSpec {
  /** 'launch', or 'soul show' for a command in a group */
  name: string;
  summary: string;
  description?: string;
  args?: ArgSpec[];
  options?: OptionSpec[];
  examples: string[];
}

export type Options = Record<string, unknown>;

export interface CommandModule {
  spec: CommandSpec;
  /** `args` are the positional arguments (a variadic one flattened), `opts` the command's own options */
  run(args: string[], opts: Options, ctx: Context): Promise<number | void>;
}
