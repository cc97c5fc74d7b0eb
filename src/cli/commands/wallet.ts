// `superagent wallet <agent>`: the agent's public EVM and Solana addresses (never a private key), then
// what they hold, read from the chains, Hyperliquid and Polymarket side by side, valued in dollars.
import { superagents } from '../../api/superagents.js';
import { printFields, printTable } from '../../ui/format.js';
import { resolveAgent } from './shared/agent-ref.js';
import { readAgentMoney } from './shared/money.js';
import { sayOff } from './shared/money-off.js';
import { SOURCES } from '../../api/money/types.js';
import { balanceRows, cents, failIfPartial, totalText, usd } from './shared/money-view.js';
import type { Context } from '../context.js';
import { BadAnswerError } from '../../core/errors.js';
import type { Input, Spec } from '../spec.js';

interface Addresses {
  evm_address?: string | null;
  solana_address?: string | null;
}

export const spec = {
  description:
    "Show an agent's wallet addresses and what they hold: a row per chain and asset with its amount and " +
    "dollar value, and the total; Hyperliquid's row is the perp account's value (asset 'account value'), " +
    "which moves with its positions' unrealized PnL. Piped, one 'evm<TAB>ADDRESS' and one 'solana<TAB>ADDRESS' " +
    "line, then one 'chain<TAB>asset<TAB>amount<TAB>usd' row per holding, usd a plain decimal ('10000.00'; " +
    "'none' when the asset has no price: a token of no known price, such as an unlisted one, leaves the " +
    'total whole). ' +
    'A source that cannot be read is named on stderr, the rest printed, the total marked partial, and the ' +
    'exit code is 7; so is a chain the service has no address for (it may answer null), and a chain coin ' +
    '(ETH, BNB, POL, SOL) the mid prices leave out. ' +
    'Sources switched off are named in one line on stderr (and in --json as switched_off); with every source ' +
    'off, it says no balance was read.',
  args: [
    {
      name: 'agent',
      description: 'uuid, unique id prefix (4+ characters) or unique name',
      required: true,
      complete: 'agent',
    },
  ],
  options: {
    balances: { type: 'boolean', negatable: true, description: 'show the addresses only, reading no balance' },
  },
  examples: [
    'superagent wallet demo',
    'superagent wallet demo --no-balances | awk \'$1 == "evm" {print $2}\'',
    'superagent wallet demo --json | jq .total_usd',
  ],
} as const satisfies Spec;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const ref = input.agent;
  const api = await ctx.api();
  const agent = await resolveAgent(api.client, ref!);
  const p = ctx.printer;
  if (input.balances === false) {
    const wallet = await superagents.wallet(api.client, agent.agent_id);
    printAddresses(ctx, wallet);
    if (p.json) p.printJson({ agent_id: agent.agent_id, ...wallet });
    return missingAddress(wallet, agent.name ?? ref);
  }
  const money = await readAgentMoney(ctx, api, agent);
  // the addresses alone, or a short list, must not pass for a wallet read whole
  const switched_off = sayOff(ctx, api, SOURCES, { nothing: 'no balance', whole: 'the total' });
  const rows = balanceRows(money);
  const errors = money.errors;
  if (p.json) {
    const { agent_id, evm_address, solana_address, total_usd } = money;
    p.printJson({ agent_id, evm_address, solana_address, balances: rows, total_usd, errors, switched_off });
  } else {
    printAddresses(ctx, money);
    // no price: 'none', so that no row ends in an empty field (a trailing tab); piped, a number a script can use
    const dollars = p.stdoutIsTTY ? usd : cents;
    const cells = rows.map((r) => [r.chain, r.asset, r.amount, r.usd === null ? 'none' : dollars(r.usd)]);
    if (p.stdoutIsTTY) {
      p.data('');
      if (rows.length) printTable(p, ['CHAIN', 'ASSET', 'AMOUNT', 'USD'], cells, TABLE);
      else p.data(p.out.dim('nothing held'));
      p.data(`${p.out.dim('Total:')}  ${totalText(money)}`);
    } else {
      printTable(p, [], cells);
    }
  }
  failIfPartial(ctx, errors, { profile: api.connection.profile });
  missingAddress(money, agent.name ?? ref);
}

// amounts never cut: on a narrow terminal the amount is left out (the dollar value and the total stay)
const TABLE = { fixed: [0, 1], whole: [2, 3], drop: [2] };

function printAddresses(ctx: Context, wallet: Addresses): void {
  const p = ctx.printer;
  if (p.json) return;
  const none = p.stdoutIsTTY ? p.out.dim('none') : '';
  // the labels double as the keys of the piped form (`evm`, `solana`)
  printFields(p, [
    ['EVM', wallet.evm_address || none],
    ['Solana', wallet.solana_address || none],
  ]);
}

function missingAddress(wallet: Addresses, name: string): void {
  const missing = [!wallet.evm_address && 'EVM', !wallet.solana_address && 'Solana'].filter(Boolean) as string[];
  if (missing.length === 0) return;
  throw new BadAnswerError(
    `the service has no ${missing.join(' or ')} address for ${name}`,
    'the wallet may still be being created; try again in a minute',
  );
}
