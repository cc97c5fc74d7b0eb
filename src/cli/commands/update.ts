// `superagent update <agent> --name N --description D`: the profile.
import { superagents } from '../../api/superagents.js';
import { parseAgentName, parseDescription } from './shared/agent-fields.js';
import type { ApiClient } from '../../api/client.js';
import { assertNameFree, namingTheAgent, resolveAgent, resolveIn } from './shared/agent-ref.js';
import type { Context } from '../context.js';
import { UsageError } from '../../core/errors.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    "Change an agent's name, description, or both. An empty --description clears it. Piped, prints the agent id.",
  args: [
    {
      name: 'agent',
      description: 'uuid, unique id prefix (4+ characters) or unique name',
      required: true,
      complete: 'agent',
    },
  ],
  options: {
    name: { type: 'string', description: 'the new name (1-100 characters; not one a live agent already has)' },
    allowDuplicateName: {
      type: 'boolean',
      description:
        'skip the check that no other live agent has that name ' +
        '(a service that keeps names unique, as the embedded one does, still refuses it: exit 6)',
    },
    description: {
      type: 'string',
      value: 'text',
      description: 'the new description (up to 500 characters; "" clears it)',
    },
  },
  examples: [
    'superagent update scout --name scout-v2',
    'superagent update scout --description "ETH only, low leverage"',
  ],
} as const satisfies Spec;

function changes(input: { name?: string; description?: string }): { name?: string; description?: string } {
  if (input.name === undefined && input.description === undefined) {
    throw new UsageError('nothing to update: give --name, --description or both');
  }
  return {
    ...(input.name !== undefined && { name: parseAgentName(input.name) }),
    ...(input.description !== undefined && { description: parseDescription(input.description) }),
  };
}

async function renameTarget(client: ApiClient, ref: string, name: string) {
  const agents = await superagents.list(client);
  const agent = resolveIn(ref, agents);
  assertNameFree(agents, name, agent.agent_id);
  return agent;
}

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const ref = input.agent;
  const body = changes(input);
  const { client } = await ctx.api();
  // a rename needs the list (no two agents of one name); it also resolves the reference
  const agent =
    body.name !== undefined && !input.allowDuplicateName
      ? await renameTarget(client, ref!, body.name)
      : await resolveAgent(client, ref!);
  const result = await superagents.updateProfile(client, agent.agent_id, body).catch(async (err: unknown) => {
    throw body.name === undefined ? err : await namingTheAgent(client, err, body.name, agent.agent_id);
  });
  const p = ctx.printer;
  if (p.json) return p.printJson(result);
  if (!p.stdoutIsTTY) p.data(result.agent_id ?? agent.agent_id);
  const label = agent.name ?? agent.agent_id.slice(0, 8);
  p.success(
    body.name !== undefined && body.name !== label ? `Updated ${label} (now named ${body.name})` : `Updated ${label}`,
  );
}
