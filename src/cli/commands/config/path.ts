// `superagent config path`: where the config file lives (it may not exist yet).
import type { Context } from '../../context.js';
import type { Input, Spec } from '../../spec.js';

export const spec = {
  description:
    'Print the path of the config file (SUPERAGENT_CONFIG_DIR, or ' +
    'the platform config dir). The file need not exist yet.',
  examples: ['superagent config path', '$EDITOR "$(superagent config path)"', 'superagent config path --json'],
} as const satisfies Spec;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  // deliberately not read: this is how one finds a corrupt file to fix it
  if (ctx.printer.json) ctx.printer.printJson({ path: ctx.config.path });
  else ctx.printer.data(ctx.config.path);
}
