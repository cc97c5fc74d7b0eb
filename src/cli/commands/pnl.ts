// `superagent pnl <agent> [--period day|week|month|all]`: the agent's account value and profit or loss
// over a period, from Hyperliquid's portfolio history: a chart on a terminal, rows for a pipe.
import { add, usdNumber } from '../../api/money/decimal.js';
import type { HlPortfolioPeriod } from '../../api/money/hyperliquid.js';
import { BadAnswerError } from '../../core/errors.js';
import { dimNote, printFields, printTable, tsvRow } from '../../ui/format.js';
import { resolveAgent } from './shared/agent-ref.js';
import { readAgentPortfolio } from './shared/money.js';
import { cents, usd } from './shared/money-view.js';
import type { Context } from '../context.js';
import type { Input, Spec } from '../spec.js';

const PERIODS = ['day', 'week', 'month', 'all'] as const;
type Period = (typeof PERIODS)[number];
/** Hyperliquid's name for each period */
const SOURCE_PERIOD: Record<Period, string> = { day: 'day', week: 'week', month: 'month', all: 'allTime' };

export const spec = {
  description:
    "Show an agent's account value and profit or loss over a period (default week), from its Hyperliquid " +
    "history: a chart on a terminal; piped, one 'time<TAB>account_value<TAB>pnl' row per point (the time in " +
    'ISO 8601, UTC); --json: {agent_id, period, points: [{time, account_value, pnl}], change_usd}.',
  args: [
    {
      name: 'agent',
      description: 'uuid, unique id prefix (4+ characters) or unique name',
      required: true,
      complete: 'agent',
    },
  ],
  options: {
    period: { type: 'string', value: 'period', choices: PERIODS, description: 'day, week (the default), month or all' },
  },
  examples: ['superagent pnl demo', 'superagent pnl demo --period month --json | jq .change_usd'],
} as const satisfies Spec;

export interface PnlPoint {
  time: string;
  account_value: number;
  pnl: number;
}

const negate = (a: string) => (a.startsWith('-') ? a.slice(1) : `-${a}`);

/** The period's points (account value and PnL at each time both are given) and the PnL's change over it. */
export function pnlPoints(history: HlPortfolioPeriod): { points: PnlPoint[]; change_usd: number } {
  const pnlAt = new Map(history.pnlHistory);
  const exact = history.accountValueHistory.flatMap(([time, value]) => {
    const pnl = pnlAt.get(time);
    return pnl === undefined ? [] : [{ time, value, pnl }];
  });
  const first = exact[0];
  const last = exact[exact.length - 1];
  const change_usd = first && last ? usdNumber(add(last.pnl, negate(first.pnl))) : 0;
  const points = exact.map((x) => ({
    time: new Date(x.time).toISOString(),
    account_value: usdNumber(x.value),
    pnl: usdNumber(x.pnl),
  }));
  return { points, change_usd };
}

export async function run(input: Input<typeof spec>, ctx: Context): Promise<void> {
  const period = (input.period ?? 'week') as Period;
  const api = await ctx.api();
  const agent = await resolveAgent(api.client, input.agent!);
  const portfolio = await readAgentPortfolio(ctx, api, agent);
  const history = portfolio.find((x) => x.period === SOURCE_PERIOD[period]);
  if (!history) throw new BadAnswerError(`Hyperliquid's portfolio has no '${SOURCE_PERIOD[period]}' history`);
  const { points, change_usd } = pnlPoints(history);
  const p = ctx.printer;
  if (p.json) return p.printJson({ agent_id: agent.agent_id, period, points, change_usd });
  if (!p.stdoutIsTTY) {
    for (const x of points) p.data(tsvRow([x.time, cents(x.account_value), cents(x.pnl)]));
    return;
  }
  const last = points[points.length - 1];
  if (!last) {
    p.data(p.out.dim(`no history over the last ${period === 'all' ? 'while' : period} yet`));
    return;
  }
  const values = points.map((x) => x.account_value);
  const times = timeLabels(points[0]!.time, last.time);
  const flat = flatAt(values);
  if (flat) {
    // a y-axis of cents would draw movement that is not there
    dimNote(p, `flat at ${flat} from ${times.first} to ${times.last}`);
    return printSums(ctx, period, last.account_value, change_usd);
  }
  const { lineChart } = await import('../../vendor/chart.js');
  const chart = lineChart(values, { columns: p.columns, format: usd, ...times });
  const rows = fewPoints(points).map((x) => [shortTime(x.time), usd(x.account_value)]);
  const widest = Math.max(...rows.map(([time, value]) => time!.length + 2 + value!.length));
  if (chart) p.data(chart);
  // too narrow for even a short table: said, rather than an amount cut
  else if (widest > p.columns - 1)
    dimNote(p, 'too narrow for a chart or a table: pipe it or give --json for the points');
  else printTable(p, ['TIME (UTC)', 'ACCOUNT VALUE'], rows, { whole: [0, 1] });
  printSums(ctx, period, last.account_value, change_usd);
}

function printSums(ctx: Context, period: Period, value: number, change_usd: number): void {
  const sign = change_usd > 0 ? '+' : '';
  printFields(ctx.printer, [
    ['Account value', usd(value)],
    [`PnL (${period})`, `${sign}${usd(change_usd)}`],
  ]);
}

/** "$10,000.00" (or "about $…") when the values move less than a dollar or 0.01% of them; else undefined. */
function flatAt(values: number[]): string | undefined {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  if (hi - lo >= 1 && hi - lo >= Math.abs(hi) * 1e-4) return undefined;
  const last = values[values.length - 1]!;
  return hi - lo < 0.005 ? usd(last) : `about ${usd(last)}`;
}

const DAY = 86_400_000;
const shortTime = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/** The period's ends, as precise as its length needs: hours within two days, else dates (UTC). */
function timeLabels(first: string, last: string): { first: string; last: string } {
  if (Date.parse(last) - Date.parse(first) >= 2 * DAY) return { first: first.slice(0, 10), last: last.slice(0, 10) };
  return { first: first.slice(11, 16), last: `${last.slice(11, 16)} UTC` };
}

/** At most six points, evenly spread, the first and the last among them (the chart's stand-in). */
function fewPoints(points: PnlPoint[]): PnlPoint[] {
  const n = Math.min(6, points.length);
  if (n < 2) return points;
  return Array.from({ length: n }, (_, i) => points[Math.round((i * (points.length - 1)) / (n - 1))]!);
}
