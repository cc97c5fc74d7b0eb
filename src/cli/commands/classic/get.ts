// `superagent classic get <id>`: one classic agent, with its goal and instructions.
import { classic } from '../../../api/classic.js';
import { classicId, onClassic, printClassic } from './record.js';
import type { Context } from '../../context.js';
import type { Input, Spec } from '../../spec.js';

export const spec = {
  description: "Show a classic agent: name, goal, instructions, triggers and settings. The id is the uuid shown by 'superagent classic list'.",
  args: [{ name: 'id', description: "the classic agent's uuid", required: true }],
  examples: ['superagent classic get 0b7c2d4e-8f1a-4c3b-9d2e-5a6f7b8c9d0e', 'superagent classic get 0b7c2d4e-8f1a-4c3b-9d2e-5a6f7b8c9d0e --json | jq -r .data.goal'],
} as const satisfies Spec;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const rawId = input.id;
  const id = classicId(rawId);
  const { client } = await ctx.api();
  const record = await onClassic(id, () => classic.get(client, id));
  const p = ctx.printer;
  if (p.json) return p.printJson(record);
  printClassic(p, record);
}
