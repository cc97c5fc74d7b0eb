// `superagent wallet <agent>`: the agent's public EVM and Solana addresses (never a private key).
import { superagents } from '../../api/superagents.js';
import { printFields } from '../../ui/format.js';
import { resolveAgent } from '../agent-ref.js';
import type { Context } from '../context.js';
import type { CommandSpec } from '../spec.js';

export const spec: CommandSpec = {
  name: 'wallet',
  summary: "Show an agent's EVM and Solana addresses",
  description: "Show an agent's wallet addresses. Piped, one 'evm<TAB>ADDRESS' and one 'solana<TAB>ADDRESS' line.",
  args: [{ name: 'agent', description: 'uuid, unique id prefix (4+ characters) or unique name', required: true, complete: 'agent' }],
  examples: ['superagent wallet demo', "superagent wallet demo | awk '$1 == \"evm\" {print $2}'", 'superagent wallet demo --json | jq -r .solana_address'],
};

export async function run([ref]: string[], _opts: unknown, ctx: Context): Promise<void> {
  const { client } = await ctx.api();
  const { agent_id } = await resolveAgent(client, ref!);
  const wallet = await superagents.wallet(client, agent_id);
  const p = ctx.printer;
  if (p.json) return p.printJson(wallet);
  // the labels double as the keys of the piped form (`evm`, `solana`)
  printFields(p, [
    ['EVM', wallet.evm_address],
    ['Solana', wallet.solana_address],
  ]);
}
