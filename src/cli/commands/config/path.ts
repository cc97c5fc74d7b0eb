// `superagent config path`: where the config file lives (it may not exist yet).
import { configFile } from '../../connect.js';
import type { Context } from '../../context.js';
import type { CommandSpec } from '../../spec.js';

export const spec: CommandSpec = {
  name: 'config path',
  summary: 'Print where the config file lives',
  description: 'Print the path of the config file (SUPERAGENT_CONFIG_DIR, or the platform config dir). The file need not exist yet.',
  examples: ['superagent config path', '$EDITOR "$(superagent config path)"'],
};

export async function run(_args: string[], _opts: unknown, ctx: Context): Promise<void> {
  // deliberately not read: this is how one finds a corrupt file to fix it
  ctx.printer.data(configFile(ctx.env).path);
}
