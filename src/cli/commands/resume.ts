// `superagent resume <agent>…`
import type { Context } from '../context.js';
import { lifecycleRows, runLifecycle } from './shared/lifecycle.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    'Resume paused agents. Several agents at once; --all resumes every paused agent (undoing pause --all): ' +
    'already running counts as done, one line per agent, non-zero if any failed. ' +
    lifecycleRows(true),
  args: [
    { name: 'agent', description: 'agents to resume (uuid, id prefix or name)', variadic: true, complete: 'agent' },
  ],
  options: { all: { type: 'boolean', description: 'resume every paused agent; already running counts as done' } },
  examples: ['superagent resume demo', 'superagent resume demo scalper-2', 'superagent resume --all'],
} as const satisfies Spec;

export function run(input: Input<typeof spec>, ctx: Context): Promise<number> {
  return runLifecycle('resume', input.agent, input.all, ctx);
}
