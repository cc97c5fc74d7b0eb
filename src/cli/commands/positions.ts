// `superagent positions <agent>`: what the agent has at stake: its open Hyperliquid positions, resting
// orders and spot balances, and its Polymarket positions, read from the public sources (no key).
import type { HyperliquidView, PolymarketView } from '../../api/money/holdings.js';
import { printTable } from '../../ui/format.js';
import { resolveAgent } from './shared/agent-ref.js';
import { readAgentMoney } from './shared/money.js';
import { failIfPartial, usd } from './shared/money-view.js';
import type { Context } from '../context.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    "Show an agent's open Hyperliquid positions, resting orders and spot balances, and its Polymarket " +
    'positions. Piped, one tab-separated row each, its kind first: account first (account_value, withdrawable; ' +
    'there even with no position, when Hyperliquid was read), position (coin, side, size, entry_price, ' +
    'position_value, unrealized_pnl, leverage, liquidation_price or none), order (coin, side, size, price), ' +
    'spot (asset, amount, usd), polymarket (title, outcome, size, avg_price, current_price, value, pnl). ' +
    'A source that cannot be read is named on stderr, the rest printed, and the exit code is 7.',
  args: [
    {
      name: 'agent',
      description: 'uuid, unique id prefix (4+ characters) or unique name',
      required: true,
      complete: 'agent',
    },
  ],
  examples: [
    'superagent positions demo',
    'superagent positions demo | awk \'$1 == "position"\'',
    'superagent positions demo --json | jq .hyperliquid.positions',
  ],
} as const satisfies Spec;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const api = await ctx.api();
  const agent = await resolveAgent(api.client, input.agent!);
  const money = await readAgentMoney(ctx, api, agent, { only: ['hyperliquid', 'polymarket'] });
  const { hyperliquid: hl, polymarket: pm, errors } = money;
  const p = ctx.printer;
  if (p.json) {
    p.printJson({ agent_id: money.agent_id, hyperliquid: hl, polymarket: pm, errors });
  } else if (p.stdoutIsTTY) {
    if (hl) showHyperliquid(ctx, hl);
    if (pm) showPolymarket(ctx, pm, Boolean(hl));
  } else {
    const rows = [...(hl ? hyperliquidRows(hl) : []), ...(pm ? polymarketRows(pm) : [])];
    printTable(p, [], rows);
  }
  failIfPartial(ctx, errors, { what: 'what is shown', profile: api.connection.profile });
}

const money2 = (n: number) => n.toFixed(2);
const signed = (n: number) => (n > 0 ? `+${usd(n)}` : usd(n));

function positionCells(hl: HyperliquidView): string[][] {
  return hl.positions.map((x) => [
    x.coin,
    x.side,
    x.size,
    x.entry_price,
    money2(x.position_value),
    money2(x.unrealized_pnl),
    x.leverage,
    // no empty last field: a row must not end in a tab
    x.liquidation_price ?? 'none',
  ]);
}

function hyperliquidRows(hl: HyperliquidView): string[][] {
  return [
    ['account', money2(hl.account_value), money2(hl.withdrawable)],
    ...positionCells(hl).map((c) => ['position', ...c]),
    ...hl.open_orders.map((o) => ['order', o.coin, o.side, o.size, o.price]),
    ...hl.spot.map((s) => ['spot', s.asset, s.amount, s.usd === null ? '' : money2(s.usd)]),
  ];
}

function polymarketRows(pm: PolymarketView): string[][] {
  return pm.positions.map((x) => [
    'polymarket',
    x.title,
    x.outcome,
    x.size,
    x.avg_price,
    x.current_price,
    money2(x.value),
    money2(x.pnl),
  ]);
}

/** A section on a terminal: its title, then its table or a dim "none". */
function section(ctx: Context, title: string, head: string[], rows: string[][], fixed: number[] = []): void {
  const p = ctx.printer;
  p.data(p.out.bold(title));
  if (rows.length) printTable(p, head, rows, { fixed });
  else p.data(p.out.dim('  none'));
}

function showHyperliquid(ctx: Context, hl: HyperliquidView): void {
  const p = ctx.printer;
  p.data(`${p.out.bold('Hyperliquid')}  account value ${usd(hl.account_value)}, withdrawable ${usd(hl.withdrawable)}`);
  const positions = hl.positions.map((x) => [
    x.coin,
    x.side,
    x.size,
    x.entry_price,
    usd(x.position_value),
    signed(x.unrealized_pnl),
    `${x.leverage}x`,
    x.liquidation_price ?? '',
  ]);
  const head = ['COIN', 'SIDE', 'SIZE', 'ENTRY', 'VALUE', 'UNREALIZED PNL', 'LEVERAGE', 'LIQUIDATION'];
  section(ctx, 'Positions', head, positions, [1, 2, 3, 4, 5]);
  const orders = hl.open_orders.map((o) => [o.coin, o.side, o.size, o.price]);
  section(ctx, 'Open orders', ['COIN', 'SIDE', 'SIZE', 'PRICE'], orders, [1, 2, 3]);
  if (hl.spot.length) {
    const spot = hl.spot.map((s) => [s.asset, s.amount, s.usd === null ? '' : usd(s.usd)]);
    section(ctx, 'Spot', ['ASSET', 'AMOUNT', 'USD'], spot, [1, 2]);
  }
}

function showPolymarket(ctx: Context, pm: PolymarketView, after: boolean): void {
  const p = ctx.printer;
  if (after) p.data('');
  p.data(`${p.out.bold('Polymarket')}  positions worth ${usd(pm.value)}`);
  const rows = pm.positions.map((x) => [
    x.title,
    x.outcome,
    x.size,
    x.avg_price,
    x.current_price,
    usd(x.value),
    signed(x.pnl),
  ]);
  const head = ['MARKET', 'OUTCOME', 'SIZE', 'AVG PRICE', 'PRICE', 'VALUE', 'PNL'];
  if (rows.length) printTable(p, head, rows, { fixed: [2, 3, 4, 5, 6] });
  else p.data(p.out.dim('  none'));
}
