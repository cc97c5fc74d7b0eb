// `superagent pause <agent>…`
import type { Context } from '../context.js';
import { lifecycleRows, runLifecycle } from './shared/lifecycle.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    'Pause agents: they stop processing and the container stays alive. ' +
    'Several agents at once; --all pauses every running ' +
    'agent (the kill switch): already paused counts as done, one line per agent, non-zero if any failed. ' +
    'Once every pause is sent, what the paused agents left open is read: ' +
    'a line on stderr for each with open positions or orders ' +
    '(a paused agent does not manage them), and --json rows gain open_positions and open_orders ' +
    '(null when not read). A read that fails is one line on stderr and does not change the exit code of the pause. ' +
    lifecycleRows(true),
  args: [
    { name: 'agent', description: 'agents to pause (uuid, id prefix or name)', variadic: true, complete: 'agent' },
  ],
  options: {
    all: { type: 'boolean', description: 'pause every running agent (the kill switch); already paused counts as done' },
  },
  examples: ['superagent pause demo', 'superagent pause --all'],
} as const satisfies Spec;

export function run(input: Input<typeof spec>, ctx: Context): Promise<number> {
  return runLifecycle('pause', input.agent, input.all, ctx);
}
