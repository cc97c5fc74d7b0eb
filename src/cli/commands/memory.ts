// `superagent memory <agent>`: the agent's memory.md, byte for byte (rendered as Markdown on a terminal).
import { superagents } from '../../api/superagents.js';
import { resolveAgent } from './shared/agent-ref.js';
import { printDocument } from '../chat/markdown.js';
import type { Context } from '../context.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    "Print an agent's memory.md exactly as the service keeps it (what the agent has noted: sessions, " +
    'things it was asked to remember); on a terminal it is rendered as Markdown (not with --raw).',
  args: [
    {
      name: 'agent',
      description: 'uuid, unique id prefix (4+ characters) or unique name',
      required: true,
      complete: 'agent',
    },
  ],
  examples: [
    'superagent memory demo',
    'superagent memory demo > memory.md',
    'superagent memory demo --json | jq -r .memory_md',
  ],
} as const satisfies Spec;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const ref = input.agent;
  const { client } = await ctx.api();
  const { agent_id } = await resolveAgent(client, ref!);
  const files = await superagents.files(client, agent_id);
  const memory = files.memory_md;
  const p = ctx.printer;
  if (p.json) return p.printJson({ agent_id: files.agent_id ?? agent_id, memory_md: memory });
  if (memory === '') {
    p.status('memory.md is empty.');
    return;
  }
  await printDocument(ctx, memory);
}
