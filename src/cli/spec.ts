// What a command declares about itself (its arguments, options and examples), and the typed input
// its `run` receives, derived from that declaration. The registry (registry.ts) gives each command
// its name, group and summary; commander (program/) declares the rest, completion reads it too.
import type { Context } from './context.js';
import type { ArgDef, Completion, OptionDef } from './program/defs.js';

export type { ArgDef, Completion, OptionDef };

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

type OptionsOf<S extends Spec> =
  S['options'] extends Readonly<Record<string, OptionDef>>
    ? { -readonly [K in keyof S['options']]: OptionValue<S['options'][K]> }
    : unknown;

type ArgsOf<S extends Spec> = S['args'] extends readonly ArgDef[]
  ? { [A in S['args'][number] as A['name']]: ArgValue<A> }
  : unknown;

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
