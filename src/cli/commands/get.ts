// `superagent get <agent>`: one agent's record.
import { superagents } from '../../api/superagents.js';
import { botField, orUnknown, printFields, statusWord, timeFor } from '../../ui/format.js';
import { resolveAgent } from './shared/agent-ref.js';
import { ourCommand } from './shared/command-line.js';
import type { Context } from '../context.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  args: [
    {
      name: 'agent',
      description: 'uuid, unique id prefix (4+ characters) or unique name',
      required: true,
      complete: 'agent',
    },
  ],
  examples: ['superagent get demo', 'superagent get 3f2a --json'],
} as const satisfies Spec;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const ref = input.agent;
  const { client } = await ctx.api();
  const found = await resolveAgent(client, ref!);
  // a name or prefix was matched against the list, whose records are the same as GET's: no second request
  const a = found.record ?? (await superagents.get(client, found.agent_id));
  const p = ctx.printer;
  if (p.json) return p.printJson(a);
  printFields(p, [
    ['Name', a.name],
    ['ID', a.agent_id],
    ['Status', statusWord(p, a.status ?? '')],
    // an empty description is known to be empty: no row; one not sent is unknown
    ['Description', a.description === '' ? undefined : orUnknown(p, a.description)],
    ['Model', a.model ? `${a.model}${a.model_provider ? ` (${a.model_provider})` : ''}` : orUnknown(p, a.model)],
    ['Created', a.created_at ? timeFor(p, a.created_at) : orUnknown(p, a.created_at)],
    // the get answer carries neither: what it does not send is left out, not shown as unknown
    ['Bot', a.bot_username === undefined ? undefined : botField(p, a.bot_username)],
    ['Wallet', a.wallet_address ?? walletHint(ctx, found.name ?? ref!)],
  ]);
}

/** Where the addresses are, for a person: `superagent wallet demo` (nothing for a script). */
function walletHint(ctx: Context, ref: string): string | undefined {
  return ctx.printer.stdoutIsTTY ? ctx.printer.out.dim(ourCommand(ctx, 'wallet', ref)) : undefined;
}
