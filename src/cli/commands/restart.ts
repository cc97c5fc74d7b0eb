// `superagent restart <agent>…`
import type { Context } from '../context.js';
import { lifecycleRows, runLifecycle } from './shared/lifecycle.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    'Restart agents in a fresh container, from running or paused; memory is kept. Several agents at once. ' +
    lifecycleRows(false),
  args: [
    { name: 'agent', description: 'agents to restart (uuid, id prefix or name)', variadic: true, complete: 'agent' },
  ],
  examples: ['superagent restart demo'],
} as const satisfies Spec;

export function run(input: Input<typeof spec>, ctx: Context): Promise<number> {
  return runLifecycle('restart', input.agent, false, ctx);
}
