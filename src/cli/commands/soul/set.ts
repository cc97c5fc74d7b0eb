// `superagent soul set <agent> --file PATH|-`: replace soul.md whole, from a file or standard input.
import { superagents } from '../../../api/superagents.js';
import { shellWord } from '../../../ui/shell-word.js';
import { resolveAgent } from '../shared/agent-ref.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../../core/errors.js';
import { readSoul } from '../shared/soul-source.js';
import type { Input, Spec } from '../../spec.js';

export const spec = {
  description:
    "Replace an agent's soul.md with a file, or with standard input given --file -. The text must be UTF-8, " +
    'not empty, and at most 256 KiB; anything else is refused before any request.',
  args: [
    {
      name: 'agent',
      description: 'uuid, unique id prefix (4+ characters) or unique name',
      required: true,
      complete: 'agent',
    },
  ],
  options: {
    file: {
      type: 'string',
      value: 'path',
      complete: 'file',
      description: 'the new soul.md (a file, or - for standard input; up to 256 KiB)',
    },
  },
  examples: [
    'superagent soul set demo --file soul.md',
    'superagent soul show demo | sed s/cautious/bold/ | superagent soul set demo --file -',
  ],
} as const satisfies Spec;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const ref = input.agent;
  const source = input.file;
  if (source === undefined) {
    throw new UsageError(
      '--file is required',
      `superagent soul set ${shellWord(ref!)} --file soul.md (or --file - to read standard input)`,
    );
  }
  const soul = await readSoul(ctx, source, '--file');
  const { client } = await ctx.api();
  const agent = await resolveAgent(client, ref!);
  const result = await superagents.updateSoul(client, agent.agent_id, soul);
  const p = ctx.printer;
  if (p.json) return p.printJson(result);
  if (!p.stdoutIsTTY) p.data(result.agent_id ?? agent.agent_id);
  p.success(`Updated the soul.md of ${agent.name ?? agent.agent_id.slice(0, 8)}`);
}
