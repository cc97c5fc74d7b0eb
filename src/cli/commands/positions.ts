// `superagent positions <agent>`: what the agent has at stake: its open Hyperliquid positions, resting
// orders and spot balances, and its Polymarket positions, read from the public sources (no key).
import type { HyperliquidView, PolymarketView } from '../../api/money/holdings.js';
import { printTable, visibleWidth, type TableOptions } from '../../ui/format.js';
import { resolveAgent } from './shared/agent-ref.js';
import { readAgentMoney } from './shared/money.js';
import { sayOff } from './shared/money-off.js';
import { cents, failIfPartial, usd } from './shared/money-view.js';
import type { Context } from '../context.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    "Show an agent's open Hyperliquid positions, resting orders and spot balances, and its Polymarket " +
    'positions. Piped, one tab-separated row each, its kind first: account first (account_value, withdrawable; ' +
    'there even with no position, when Hyperliquid was read), position (coin, side, size, entry_price, ' +
    'position_value, unrealized_pnl, leverage, liquidation_price or none), order (coin, side, size, price), ' +
    'spot (asset, amount, usd), polymarket (title, outcome, size, avg_price, current_price, value, pnl). ' +
    'A source that cannot be read is named on stderr, the rest printed, and the exit code is 7. ' +
    'Sources switched off are named in one line on stderr (with --json, that source is null, and switched_off ' +
    'names it).',
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

/** The sources positions reads. */
const READ = ['hyperliquid', 'polymarket'] as const;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const api = await ctx.api();
  const agent = await resolveAgent(api.client, input.agent!);
  const money = await readAgentMoney(ctx, api, agent, { only: READ });
  // nothing shown must not pass for nothing held
  const switched_off = sayOff(ctx, api, READ, { nothing: 'no position', whole: 'what is shown' });
  const { hyperliquid: hl, polymarket: pm, errors } = money;
  const p = ctx.printer;
  if (p.json) {
    p.printJson({ agent_id: money.agent_id, hyperliquid: hl, polymarket: pm, errors, switched_off });
  } else if (p.stdoutIsTTY) {
    if (hl) showHyperliquid(ctx, hl);
    if (pm) showPolymarket(ctx, pm, Boolean(hl));
  } else {
    const rows = [...(hl ? hyperliquidRows(hl) : []), ...(pm ? polymarketRows(pm) : [])];
    printTable(p, [], rows);
  }
  failIfPartial(ctx, errors, { what: 'what is shown', profile: api.connection.profile });
}

const signed = (n: number) => (n > 0 ? `+${usd(n)}` : usd(n));

function positionCells(hl: HyperliquidView): string[][] {
  return hl.positions.map((x) => [
    x.coin,
    x.side,
    x.size,
    x.entry_price,
    cents(x.position_value),
    cents(x.unrealized_pnl),
    x.leverage,
    // no empty last field: a row must not end in a tab
    x.liquidation_price ?? 'none',
  ]);
}

function hyperliquidRows(hl: HyperliquidView): string[][] {
  return [
    ['account', cents(hl.account_value), cents(hl.withdrawable)],
    ...positionCells(hl).map((c) => ['position', ...c]),
    ...hl.open_orders.map((o) => ['order', o.coin, o.side, o.size, o.price]),
    ...hl.spot.map((s) => ['spot', s.asset, s.amount, s.usd === null ? '' : cents(s.usd)]),
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
    cents(x.value),
    cents(x.pnl),
  ]);
}

/** A section on a terminal: its title, then its table or a dim "none". */
function section(ctx: Context, title: string, head: string[], rows: string[][], options: TableOptions): void {
  const p = ctx.printer;
  p.data(p.out.bold(title));
  if (rows.length) printTable(p, head, rows, options);
  else p.data(p.out.dim('  none'));
}

/** A source's title and its sums on one line, or, on a terminal too narrow for that, a line each (never cut). */
function heading(ctx: Context, title: string, sums: string[]): void {
  const p = ctx.printer;
  const line = `${p.out.bold(title)}  ${sums.join(', ')}`;
  p.data(visibleWidth(line) < p.columns ? line : [p.out.bold(title), ...sums].join('\n  '));
}

function showHyperliquid(ctx: Context, hl: HyperliquidView): void {
  heading(ctx, 'Hyperliquid', [`account value ${usd(hl.account_value)}`, `withdrawable ${usd(hl.withdrawable)}`]);
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
  const columns = ['COIN', 'SIDE', 'SIZE', 'ENTRY', 'VALUE', 'UNREALIZED PNL', 'LEVERAGE', 'LIQUIDATION'];
  // amounts never cut: the least useful columns are left out first on a narrow terminal
  section(ctx, 'Positions', columns, positions, { fixed: [0, 1], whole: [2, 3, 4, 5, 7], drop: [7, 6, 3, 2, 5] });
  const orders = hl.open_orders.map((o) => [o.coin, o.side, o.size, o.price]);
  section(ctx, 'Open orders', ['COIN', 'SIDE', 'SIZE', 'PRICE'], orders, { fixed: [0, 1], whole: [2, 3] });
  if (hl.spot.length) {
    const spot = hl.spot.map((s) => [s.asset, s.amount, s.usd === null ? '' : usd(s.usd)]);
    section(ctx, 'Spot', ['ASSET', 'AMOUNT', 'USD'], spot, { fixed: [0], whole: [1, 2], drop: [1] });
  }
}

function showPolymarket(ctx: Context, pm: PolymarketView, after: boolean): void {
  const p = ctx.printer;
  if (after) p.data('');
  heading(ctx, 'Polymarket', [`positions worth ${usd(pm.value)}`]);
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
  // the market's title may be cut; the numbers are left out, least useful first, rather than cut
  if (rows.length) printTable(p, head, rows, { whole: [2, 3, 4, 5, 6], drop: [3, 4, 2, 6, 1] });
  else p.data(p.out.dim('  none'));
}
