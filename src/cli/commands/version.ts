// `superagent version` (hidden): the habit of other CLIs, answered as --version is.
import { version } from '../../core/version.js';
import type { Context } from '../context.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description: 'Print the version, as --version does (with --json, as {"version": …}).',
  examples: ['superagent version', 'superagent version --json'],
} as const satisfies Spec;

export async function run(_input: Input<typeof spec>, ctx: Context): Promise<void> {
  if (ctx.printer.json) return ctx.printer.printJson({ version: version() });
  ctx.printer.data(`superagent ${version()}`);
}
