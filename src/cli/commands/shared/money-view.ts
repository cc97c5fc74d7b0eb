// How the money commands show what was read: dollars, the rows of `wallet`, and a partial read (each
// source that failed named on stderr, the command's failure exit 7 once the rest is printed).
import { endpointHint, type AgentMoney } from './money.js';
import type { Profile } from '../../../config/file.js';
import type { SourceFailure, SourceName } from '../../../api/money/types.js';
import { isZero } from '../../../api/money/decimal.js';
import { BadAnswerError } from '../../../core/errors.js';
import { terminalSafe } from '../../../ui/terminal-safe.js';
import type { Context } from '../../context.js';

const DOLLARS = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
/**
 * From here up a dollar figure (a number) no longer holds cents: shown in whole dollars, in plain
 * digits (a hostile source may send 1e78), never with an exponent or cents it does not have.
 */
const HUGE = 1e15;
const WHOLE_DOLLARS = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});
const PLAIN_WHOLE = new Intl.NumberFormat('en-US', { useGrouping: false, maximumFractionDigits: 0 });

/** "$10,000.00", "-$5.25"; "$1,000,000,000,000,000" */
export function usd(value: number): string {
  return (Math.abs(value) >= HUGE ? WHOLE_DOLLARS : DOLLARS).format(value);
}

export interface BalanceRow {
  chain: SourceName;
  asset: string;
  amount: string;
  usd: number | null;
}

/** Cents as an exact decimal string ("10000.00"): the amount of an account kept in dollars (whole past HUGE). */
export const cents = (value: number) => (Math.abs(value) >= HUGE ? PLAIN_WHOLE.format(value) : value.toFixed(2));

/** What the Hyperliquid row stands for: the perp account's value, which moves with the unrealized PnL. */
export const HL_ACCOUNT_ASSET = 'account value';

/** What the agent holds, one row per chain and asset, nothing of zero: the chains, Hyperliquid, Polymarket. */
export function balanceRows(money: AgentMoney): BalanceRow[] {
  const rows: BalanceRow[] = money.balances.filter((b) => !isZero(b.amount));
  const hl = money.hyperliquid;
  if (hl && hl.account_value !== 0) {
    rows.push({
      chain: 'hyperliquid',
      asset: HL_ACCOUNT_ASSET,
      amount: cents(hl.account_value),
      usd: hl.account_value,
    });
  }
  for (const s of hl?.spot ?? [])
    rows.push({ chain: 'hyperliquid', amount: s.amount, usd: s.usd, asset: `${s.asset} (spot)` });
  const pm = money.polymarket;
  if (pm && pm.value !== 0)
    rows.push({ chain: 'polymarket', asset: 'positions', amount: cents(pm.value), usd: pm.value });
  return rows;
}

/** "$10,000.00", or "$10,000.00 (partial: base, solana not read)". */
export function totalText(money: Pick<AgentMoney, 'total_usd' | 'errors'>): string {
  const missing = [...new Set(money.errors.map((e) => e.source))];
  return missing.length ? `${usd(money.total_usd)} (partial: ${missing.join(', ')} not read)` : usd(money.total_usd);
}

/** Text a source sent, fit for where it goes: made safe on a terminal, as it is elsewhere. */
export function sourceText(ctx: Context, text: string): string {
  return ctx.printer.stdoutIsTTY ? terminalSafe(text) : text;
}

/**
 * After the rest is printed: each source that failed named on stderr, and the command's failure (exit 7).
 * Nothing when every source was read.
 */
export function failIfPartial(
  ctx: Context,
  errors: readonly SourceFailure[],
  { what = 'the total', profile }: { what?: string; profile?: Profile } = {},
): void {
  if (errors.length === 0) return;
  for (const e of errors) ctx.printer.stderrWrite(`${e.source}: ${e.message}\n`);
  const names = [...new Set(errors.map((e) => e.source))];
  throw new BadAnswerError(
    `${names.join(', ')} could not be read: ${what} is partial`,
    `try again later, or ${endpointHint(ctx.env, profile, names[0]!)}`,
  );
}
