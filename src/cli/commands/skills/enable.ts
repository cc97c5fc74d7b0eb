// `superagent skills enable <agent> <skill…>`: one request for all the named skills.
import type { Context } from '../../context.js';
import { runSkillsToggle } from './toggle.js';
import type { Input, Spec } from '../../spec.js';

export const spec = {
  description:
    'Enable one or more skills on an agent in a single request. An unknown skill ' +
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
      description: 'skills to enable (see `superagent skills <agent>`)',
      required: true,
      variadic: true,
      complete: 'skill-off', // enabling one that is on would change nothing
    },
  ],
  examples: [
    'superagent skills enable demo hyperliquid',
    'superagent skills enable demo polymarket polymarket-deep-research',
  ],
} as const satisfies Spec;

export function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const args = [...[input.agent].flat(), ...[input.skill].flat()].filter((a): a is string => a !== undefined);
  return runSkillsToggle(true, args, ctx);
}
