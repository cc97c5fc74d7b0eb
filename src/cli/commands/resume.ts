// `superagent resume <agent>…`
import type { Context } from '../context.js';
import { runLifecycle } from './shared/lifecycle.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  args: [{ name: 'agent', description: 'agents to resume (uuid, id prefix or name)', variadic: true, complete: 'agent' }],
  examples: ['superagent resume demo', 'superagent resume demo scalper-2'],
} as const satisfies Spec;

export function run(input: Input<typeof spec>, ctx: Context): Promise<number> {
  const args = input.agent;
  return runLifecycle('resume', args, false, ctx);
}
