// `superagent resume <agent>…`
import type { Context } from '../context.js';
import { runLifecycle } from '../lifecycle.js';
import type { CommandSpec } from '../spec.js';

export const spec: CommandSpec = {
  name: 'resume',
  summary: 'Resume paused agents',
  args: [{ name: 'agent', description: 'agents to resume (uuid, id prefix or name)', variadic: true, complete: 'agent' }],
  examples: ['superagent resume demo', 'superagent resume demo scalper-2'],
};

export function run(args: string[], _opts: unknown, ctx: Context): Promise<number> {
  return runLifecycle('resume', args, false, ctx);
}
