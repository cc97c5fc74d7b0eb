// `superagent restart <agent>…`
import type { Context } from '../context.js';
import { runLifecycle } from '../lifecycle.js';
import type { CommandSpec } from '../spec.js';

export const spec: CommandSpec = {
  name: 'restart',
  summary: 'Restart agents in a fresh container',
  description: 'Restart agents in a fresh container, from running or paused; memory is kept. Several agents at once.',
  args: [{ name: 'agent', description: 'agents to restart (uuid, id prefix or name)', variadic: true, complete: 'agent' }],
  examples: ['superagent restart demo'],
};

export function run(args: string[], _opts: unknown, ctx: Context): Promise<number> {
  return runLifecycle('restart', args, false, ctx);
}
