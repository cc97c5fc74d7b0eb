// commander's tree (src/cli/program/build.ts) without running anything: what a line would run and
// with which input, the help it writes, or the refusal it throws; and the whole tree, declared.
import { buildProgram, declareAll, parseLine, type Chosen } from '../../src/cli/program/build.js';
import type { CliCommand } from '../../src/cli/program/command.js';
import type { Entry } from '../../src/cli/registry.js';
import { Capture } from './context.js';

export interface Parsed {
  /** the command the line runs (none: help was written) */
  chosen?: Chosen;
  stdout: string;
  stderr: string;
}

export interface ParseOptions {
  /** the tree's entries (default: the registry's) */
  entries?: readonly Entry[];
  env?: NodeJS.ProcessEnv;
  /** the width help is wrapped to */
  columns?: number;
}

/** What `superagent ...argv` would run, or the help it writes; a refusal is thrown (a UsageError). */
export async function parse(argv: string[], o: ParseOptions = {}): Promise<Parsed> {
  const stdout = new Capture();
  const stderr = new Capture();
  let chosen: Chosen | undefined;
  const world = { env: o.env ?? {}, stdout, stderr, columns: o.columns ?? 80 };
  await parseLine(argv, world, async (c) => void (chosen = c), o.entries);
  return { chosen, stdout: stdout.text, stderr: stderr.text };
}

/** The whole tree, every command's spec declared (its module loaded), as docs/cli.md is made from it. */
export async function declaredTree(): Promise<CliCommand> {
  const out = new Capture();
  const program = buildProgram({ env: {}, stdout: out, stderr: out, columns: 80 }, [], async () => undefined);
  await declareAll(program);
  return program;
}
