// `superagent wallet <agent>`: the agent's public EVM and Solana addresses (never a private key).
import { superagents } from '../../api/superagents.js';
import { printFields } from '../../ui/format.js';
import { resolveAgent } from './shared/agent-ref.js';
import type { Context } from '../context.js';
import { BadAnswerError } from '../../core/errors.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    "Show an agent's wallet addresses. Piped, one 'evm<TAB>ADDRESS' and one 'solana<TAB>ADDRESS' line. " +
    'When the service has no address for a chain (it may answer null), that is said and the exit code is 7.',
  args: [
    {
      name: 'agent',
      description: 'uuid, unique id prefix (4+ characters) or unique name',
      required: true,
      complete: 'agent',
    },
  ],
  examples: [
    'superagent wallet demo',
    'superagent wallet demo | awk \'$1 == "evm" {print $2}\'',
    'superagent wallet demo --json | jq -r .solana_address',
  ],
} as const satisfies Spec;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const ref = input.agent;
  const { client } = await ctx.api();
  const agent = await resolveAgent(client, ref!);
  const wallet = await superagents.wallet(client, agent.agent_id);
  const p = ctx.printer;
  const missing = [!wallet.evm_address && 'EVM', !wallet.solana_address && 'Solana'].filter(Boolean) as string[];
  if (p.json) p.printJson(wallet);
  else {
    const none = p.stdoutIsTTY ? p.out.dim('none') : '';
    // the labels double as the keys of the piped form (`evm`, `solana`)
    printFields(p, [
      ['EVM', wallet.evm_address || none],
      ['Solana', wallet.solana_address || none],
    ]);
  }
  if (missing.length > 0) {
    throw new BadAnswerError(
      `the service has no ${missing.join(' or ')} address for ${agent.name ?? ref}`,
      'the wallet may still be being created; try again in a minute',
    );
  }
}
