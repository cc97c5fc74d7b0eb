// `superagent memory <agent>`: the agent's memory.md, byte for byte.
import { superagents } from '../../api/superagents.js';
import { resolveAgent } from './shared/agent-ref.js';
import type { Context } from '../context.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description: "Print an agent's memory.md exactly as the service keeps it (what the agent has noted: sessions, things it was asked to remember).",
  args: [{ name: 'agent', description: 'uuid, unique id prefix (4+ characters) or unique name', required: true, complete: 'agent' }],
  examples: ['superagent memory demo', 'superagent memory demo > memory.md', 'superagent memory demo --json | jq -r .memory_md'],
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
  // Piped or redirected, the bytes are the file's; on a terminal the prompt should start on its own line.
  p.write(p.stdoutIsTTY && !memory.endsWith('\n') ? `${memory}\n` : memory);
}
