// `superagent update <agent> --name N --description D`: the profile.
import { superagents } from '../../api/superagents.js';
import { parseAgentName, parseDescription } from '../agent-fields.js';
import { resolveAgent } from '../agent-ref.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import type { CommandSpec, Options } from '../spec.js';

export const spec: CommandSpec = {
  name: 'update',
  summary: "Change an agent's name or description",
  description: "Change an agent's name, description, or both. An empty --description clears it. Piped, prints the agent id.",
  args: [{ name: 'agent', description: 'uuid, unique id prefix (4+ characters) or unique name', required: true, complete: 'agent' }],
  options: [
    { flags: '--name <name>', description: 'the new name (1-100 characters)' },
    { flags: '--description <text>', description: 'the new description (up to 500 characters; "" clears it)' },
  ],
  examples: ['superagent update scout --name scout-v2', 'superagent update scout --description "ETH only, low leverage"'],
};

function changes(opts: Options): { name?: string; description?: string } {
  if (opts.name === undefined && opts.description === undefined) {
    throw new UsageError('nothing to update: give --name, --description or both');
  }
  return {
    ...(opts.name !== undefined && { name: parseAgentName(opts.name) }),
    ...(opts.description !== undefined && { description: parseDescription(opts.description) }),
  };
}

export async function run([ref]: string[], opts: Options, ctx: Context): Promise<void> {
  const body = changes(opts);
  const { client } = await ctx.api();
  const agent = await resolveAgent(client, ref!);
  const result = await superagents.updateProfile(client, agent.agent_id, body);
  const p = ctx.printer;
  if (p.json) return p.printJson(result);
  if (!p.stdoutIsTTY) p.data(result.agent_id);
  const label = agent.name ?? agent.agent_id.slice(0, 8);
  p.success(body.name !== undefined && body.name !== label ? `Updated ${label} (now named ${body.name})` : `Updated ${label}`);
}
