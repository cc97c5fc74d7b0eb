// `superagent classic get <id>`: one classic agent, with its goal and instructions.
import { classic } from '../../../api/classic.js';
import { onClassic, printClassic, resolveClassic } from './record.js';
import type { Context } from '../../context.js';
import type { Input, Spec } from '../../spec.js';

export const spec = {
  description:
    'Show a classic agent: name, goal, instructions, triggers and settings. ' +
    "The id is the uuid shown by 'superagent classic list'.",
  args: [
    {
      name: 'agent',
      description: 'the classic agent: its uuid, a unique id prefix (4+ characters) or its name',
      required: true,
    },
  ],
  examples: [
    'superagent classic get 0b7c2d4e-8f1a-4c3b-9d2e-5a6f7b8c9d0e',
    'superagent classic get 0b7c2d4e-8f1a-4c3b-9d2e-5a6f7b8c9d0e --json | jq -r .data.goal',
  ],
} as const satisfies Spec;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const { client } = await ctx.api();
  const id = await resolveClassic(client, input.agent);
  const record = await onClassic(id, () => classic.get(client, id));
  const p = ctx.printer;
  if (p.json) return p.printJson(record);
  printClassic(p, record);
}
