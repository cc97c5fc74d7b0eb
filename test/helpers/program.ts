// commander's tree (src/cli/program/build.ts) without running anything: what a line would run and
// with which input, the help it writes, or the refusal it throws.
import { parseLine, type Chosen } from '../../src/cli/program/build.js';
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
