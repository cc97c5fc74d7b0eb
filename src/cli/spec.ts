// What a command declares about itself (its arguments, options and examples), and the typed input
// its `run` receives, derived from that declaration. The registry (registry.ts) gives each command
// its name, group and summary; commander (program/) declares the rest, completion reads it too.
import type { Context } from './context.js';

/** What shell completion offers for a value. */
export type Completion = 'agent' | 'provider' | 'skill' | 'shell' | 'file' | 'dir';

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

export interface Spec {
  /** longer than the registry's one-line summary; shown by --help */
  description?: string;
  args?: readonly ArgDef[];
  /** by key: `soulFile` is given as `--soul-file` */
  options?: Readonly<Record<string, OptionDef>>;
  examples: readonly string[];
}

type OptionValue<O> = O extends { type: 'boolean' }
  ? boolean
  : O extends { type: 'strings' }
    ? string[]
    : O extends { type: 'count' }
      ? true | number | undefined
      : string | undefined;

type ArgValue<A> = A extends { variadic: true } ? string[] : A extends { required: true } ? string : string | undefined;

type OptionsOf<S extends Spec> = S['options'] extends Readonly<Record<string, OptionDef>> ? { -readonly [K in keyof S['options']]: OptionValue<S['options'][K]> } : unknown;

type ArgsOf<S extends Spec> = S['args'] extends readonly ArgDef[] ? { [A in S['args'][number] as A['name']]: ArgValue<A> } : unknown;

/** What `run` gets: each argument by its name, each option by its key, typed from the spec. */
export type Input<S extends Spec> = ArgsOf<S> & OptionsOf<S>;

export interface CommandModule<S extends Spec = Spec> {
  spec: S;
  /** returns the exit code, or nothing for 0; failures are thrown (exit-codes.ts maps them) */
  run(input: Input<S>, ctx: Context): Promise<number | void>;
}

/** `soulFile` → `soul-file` */
export function flagName(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** How an option is written: `--no-stream`, `-y, --yes`, `--name <name>`, `--watch [seconds]`. */
export function optionSyntax(key: string, o: OptionDef): string {
  const long = `--${o.negatable ? 'no-' : ''}${flagName(key)}`;
  const value = o.value ?? flagName(key);
  const tail = o.type === 'string' || o.type === 'strings' ? ` <${value}>` : o.type === 'count' ? ` [${value}]` : '';
  return `${o.short ? `-${o.short}, ` : ''}${long}${tail}`;
}
