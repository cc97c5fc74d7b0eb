// The declaration of one option or argument of a command (spec.ts declares commands with them;
// globals.ts the options every command takes): types alone, so that globals.ts needs no Spec, whose
// run() takes the Context that holds the global options.

/** What shell completion offers for a value (skill-off: the skills now off, for enable; skill-on, for disable). */
export type Completion = 'agent' | 'provider' | 'skill-on' | 'skill-off' | 'shell' | 'file' | 'dir';

export interface OptionDef {
  /**
   * boolean: `--all`; string: `--name <name>`; strings: repeatable, every value kept;
   * count: an optional number (`--watch [seconds]`): true alone, the number when one follows.
   */
  type: 'boolean' | 'string' | 'strings' | 'count';
  description: string;
  /** a one-letter alias: `-y` */
  short?: string;
  /** the value's name in help: `--soul-file <path>` (default: the option's own name) */
  value?: string;
  choices?: readonly string[];
  complete?: Completion;
  /** a boolean that is on unless `--no-<flag>` is given */
  negatable?: boolean;
  hidden?: boolean;
}

export interface ArgDef {
  name: string;
  description: string;
  required?: boolean;
  variadic?: boolean;
  complete?: Completion;
  /** the words it may be, offered by shell completion (the command still checks the value itself) */
  choices?: readonly string[];
}
