// `superagent soul show <agent>`: the agent's soul.md, byte for byte (rendered as Markdown on a terminal).
import { superagents } from '../../../api/superagents.js';
import { resolveAgent } from '../shared/agent-ref.js';
import { printDocument } from '../../chat/markdown.js';
import type { Context } from '../../context.js';
import type { Input, Spec } from '../../spec.js';

export const spec = {
  description:
    "Print an agent's soul.md exactly as the service keeps it, so 'soul show demo > soul.md' and " +
    "'soul set demo --file soul.md' round-trip; on a terminal it is rendered as Markdown (not " +
    'with --raw). --json prints the files object ({ agent_id, soul_md, memory_md }).',
  args: [
    {
      name: 'agent',
      description: 'uuid, unique id prefix (4+ characters) or unique name',
      required: true,
      complete: 'agent',
    },
  ],
  examples: [
    'superagent soul show demo',
    'superagent soul show demo > soul.md',
    'superagent soul show demo --json | jq -r .soul_md',
  ],
} as const satisfies Spec;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const ref = input.agent;
  const { client } = await ctx.api();
  const { agent_id } = await resolveAgent(client, ref!);
  const files = await superagents.files(client, agent_id);
  const p = ctx.printer;
  if (p.json) return p.printJson(files);
  const soul = files.soul_md;
  if (soul === '') {
    p.status('soul.md is empty.');
    return;
  }
  await printDocument(ctx, soul);
}
