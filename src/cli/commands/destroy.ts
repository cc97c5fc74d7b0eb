// `superagent destroy <agent>`: for good. A person confirms by typing the name; a script says --yes.
import type { ApiClient } from '../../api/client.js';
import { superagents } from '../../api/superagents.js';
import { shellWord } from '../../ui/shell-word.js';
import { resolveAgent, type AgentRef } from './shared/agent-ref.js';
import { typedNameConfirms } from './shared/typed-name.js';
import {
  abandons,
  destroyQuestion,
  leftBehind,
  readFunds,
  refusal,
  sayAbandoned,
  type Holdings,
} from './shared/funds-check.js';
import { withStop } from './shared/stop.js';
import type { Context } from '../context.js';
import { UsageError } from '../../core/errors.js';
import type { Input, Spec } from '../spec.js';
import { COIN_DUST } from '../../api/money/coins.js';

/** "0.0002 ETH, 0.001 BNB, …" */
const DUST_TEXT = Object.entries(COIN_DUST)
  .map(([coin, amount]) => `${amount} ${coin}`)
  .join(', ');

export const spec = {
  description:
    'Destroy an agent for good: it stops, and every later call on it answers "not found". ' +
    'What it holds is read from the chains first: $1 or more, an open position or order, ' +
    `an amount without a price, or a chain's own coin (or its wrapped token) past its dust amount ` +
    `whatever its price (${DUST_TEXT}) refuses the destroy (exit 6), naming them: ` +
    'close its positions and move ' +
    'its funds out first (on the embedded service it is paper money, which only --abandon-funds lets go). ' +
    'Nothing known but a source not read (failed, or switched off) refuses it too (exit 7), naming each. ' +
    '--abandon-funds destroys it all the same, saying what is left behind. ' +
    'On a terminal, confirm by typing its name; elsewhere --yes is required (--yes never abandons funds).',
  args: [
    {
      name: 'agent',
      description: 'uuid, unique id prefix (4+ characters) or unique name',
      required: true,
      complete: 'agent',
    },
  ],
  options: {
    abandonFunds: {
      type: 'boolean',
      description: 'destroy it even though it holds funds, or what it holds could not be read (they are lost)',
    },
  },
  examples: ['superagent destroy scout', 'superagent destroy 3f2a9c1e --yes', 'superagent destroy scout --yes --json'],
} as const satisfies Spec;

/** The agent's name: known from the list match, else one GET (which also proves the uuid exists). */
async function nameOf(client: ApiClient, ref: AgentRef): Promise<string> {
  return ref.name ?? (await superagents.get(client, ref.agent_id)).name;
}

async function confirm(ctx: Context, name: string, holdings: Holdings, abandoned: boolean): Promise<void> {
  // what is abandoned was said just before: not listed again
  const wallet = `superagent wallet ${shellWord(name)}`;
  const question = destroyQuestion(name, abandoned, `; it holds ${leftBehind(holdings)} (${wallet})`);
  if (!(await typedNameConfirms(ctx, name, question)))
    throw new UsageError(`the name typed does not match; ${name} not destroyed`);
}

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const ref = input.agent;
  const interactive = ctx.canPrompt;
  if (!ctx.globals.yes && !interactive) {
    throw new UsageError(
      '--yes required when not running interactively',
      `superagent destroy ${shellWord(ref!)}${input.abandonFunds ? ' --abandon-funds' : ''} --yes`,
    );
  }
  const api = await ctx.api();
  const { client } = api;
  const agent = await resolveAgent(client, ref!);
  const name = await nameOf(client, agent);
  // one round of reads, before anything is asked or sent
  const holdings = await withStop(ctx, (stop) =>
    stop.race(readFunds(ctx, api, { agent_id: agent.agent_id, name }, stop.signal)),
  );
  if (input.abandonFunds) sayAbandoned(ctx, [holdings]);
  else {
    const refused = refusal([holdings]);
    if (refused) throw refused;
  }
  if (!ctx.globals.yes) await confirm(ctx, name, holdings, Boolean(input.abandonFunds) && abandons(holdings));
  const result = await superagents.destroy(client, agent.agent_id);
  const p = ctx.printer;
  if (p.json) return p.printJson(result);
  if (!p.stdoutIsTTY) p.data(result.agent_id ?? agent.agent_id);
  p.success(`Destroyed ${name}`);
}
