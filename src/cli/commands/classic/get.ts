// `superagent classic get <id>`: one classic agent, with its goal and instructions.
import { classic } from '../../../api/classic.js';
import { classicId, onClassic, printClassic } from '../../classic-record.js';
import type { Context } from '../../context.js';
import type { CommandSpec } from '../../spec.js';

export const spec: CommandSpec = {
  name: 'classic get',
  summary: 'Show a classic agent',
  description: "Show a classic agent: name, goal, instructions, triggers and settings. The id is the uuid shown by 'superagent classic list'.",
  args: [{ name: 'id', description: "the classic agent's uuid", required: true }],
  examples: ['superagent classic get 0b7c2d4e-8f1a-4c3b-9d2e-5a6f7b8c9d0e', 'superagent classic get 0b7c2d4e-8f1a-4c3b-9d2e-5a6f7b8c9d0e --json | jq -r .data.goal'],
};

export async function run([rawId]: string[], _opts: unknown, ctx: Context): Promise<void> {
  const id = classicId(rawId);
  const { client } = await ctx.api();
  const record = await onClassic(id, () => classic.get(client, id));
  const p = ctx.printer;
  if (p.json) return p.printJson(record);
  printClassic(p, record);
}
