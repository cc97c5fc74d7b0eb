// `superagent skills disable <agent> <skill…>`: one request for all the named skills.
import type { Context } from '../../context.js';
import { runSkillsToggle } from './toggle.js';
import type { Input, Spec } from '../../spec.js';

export const spec = {
  description:
    'Disable one or more skills on an agent in a single request. An unknown skill ' +
    'name fails (exit 2) naming the valid ones, and nothing changes.',
  args: [
    {
      name: 'agent',
      description: 'uuid, unique id prefix (4+ characters) or unique name',
      required: true,
      complete: 'agent',
    },
    {
      name: 'skill',
      description: 'skills to disable (see `superagent skills <agent>`)',
      required: true,
      variadic: true,
      complete: 'skill-on',
    },
  ],
  examples: [
    'superagent skills disable demo hyperliquid',
    'superagent skills disable demo solana-swap polymarket --json',
  ],
} as const satisfies Spec;

export function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const args = [...[input.agent].flat(), ...[input.skill].flat()].filter((a): a is string => a !== undefined);
  return runSkillsToggle(false, args, ctx);
}
