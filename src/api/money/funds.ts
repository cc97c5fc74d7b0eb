// What an agent still holds, in the few words and figures `destroy` needs before it lets the agent go.
import { compare, isZero } from './decimal.js';
import type { HoldingsResult } from './holdings.js';
import { dustOf } from './tokens.js';
import type { SourceName } from './types.js';

export interface FundsSummary {
  /** the dollar total of what was read */
  usd: number;
  /** non-zero amounts that have no price, so are not in `usd` */
  unpriced: Array<{ chain: SourceName; asset: string; amount: string }>;
  /**
   * a chain's own coin at or above its dust amount (tokens.ts dustOf): funds whatever its price, since
   * the price comes from another source (Hyperliquid) than the amount
   */
  beyond_dust: Array<{ chain: SourceName; asset: string; amount: string }>;
  open_positions: number;
  open_orders: number;
  /** e.g. "1.5 ETH on ethereum, 2.5 SOL, 1 open position on Hyperliquid (ETH long 1, +$50)"; "nothing" */
  phrase: string;
}

const MAX_PARTS = 6;
const BRIEF_DECIMALS = 6;

/** An amount for a sentence: at most six decimals, cut (never rounded up). */
function brief(amount: string): string {
  const [whole = '0', frac = ''] = amount.split('.');
  if (frac.length <= BRIEF_DECIMALS) return amount;
  const cut = frac.slice(0, BRIEF_DECIMALS).replace(/0+$/, '');
  if (!cut && /^-?0$/.test(whole)) return `<0.${'0'.repeat(BRIEF_DECIMALS - 1)}1`;
  return cut ? `${whole}.${cut}` : whole;
}

function dollars(usd: number, signed = false): string {
  // grouped as every other dollar figure is ($10,000, $6,984.50)
  const whole = Number.isInteger(usd);
  const body = Math.abs(usd).toLocaleString('en-US', {
    minimumFractionDigits: whole ? 0 : 2,
    maximumFractionDigits: 2,
  });
  return `${usd < 0 ? '-' : signed ? '+' : ''}$${body}`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

export function fundsSummary(result: HoldingsResult): FundsSummary {
  const parts: string[] = [];
  const unpriced: FundsSummary['unpriced'] = [];
  const beyondDust: FundsSummary['beyond_dust'] = [];
  for (const b of result.balances) {
    if (isZero(b.amount)) continue;
    if (b.usd === null) unpriced.push({ chain: b.chain, asset: b.asset, amount: b.amount });
    const dust = dustOf(b.chain, b.asset);
    if (dust !== null && compare(b.amount, dust) >= 0)
      beyondDust.push({ chain: b.chain, asset: b.asset, amount: b.amount });
    parts.push(`${brief(b.amount)} ${b.asset}${b.chain === 'solana' && b.asset === 'SOL' ? '' : ` on ${b.chain}`}`);
  }
  const hl = result.hyperliquid;
  if (hl) {
    if (hl.positions.length > 0) {
      const each = hl.positions.map((p) => `${p.coin} ${p.side} ${brief(p.size)}, ${dollars(p.unrealized_pnl, true)}`);
      // the account's dollars too: its positions alone do not say what it holds
      const open = plural(hl.positions.length, 'open position');
      parts.push(`${dollars(hl.account_value)} on Hyperliquid with ${open} (${each.join('; ')})`);
    } else if (hl.account_value !== 0) {
      parts.push(`${dollars(hl.account_value)} on Hyperliquid`);
    }
    if (hl.open_orders.length > 0) parts.push(`${plural(hl.open_orders.length, 'open order')} on Hyperliquid`);
    for (const s of hl.spot) {
      if (s.usd === null) unpriced.push({ chain: 'hyperliquid', asset: s.asset, amount: s.amount });
      parts.push(`${brief(s.amount)} ${s.asset} on Hyperliquid spot`);
    }
  }
  const pm = result.polymarket;
  if (pm && pm.positions.length > 0) {
    parts.push(`${plural(pm.positions.length, 'Polymarket position')} (${dollars(pm.value)})`);
  }

  const shown =
    parts.length > MAX_PARTS ? [...parts.slice(0, MAX_PARTS - 1), `${parts.length - MAX_PARTS + 1} more`] : parts;
  return {
    usd: result.total_usd,
    unpriced,
    beyond_dust: beyondDust,
    open_positions: (hl?.positions.length ?? 0) + (pm?.positions.length ?? 0),
    open_orders: hl?.open_orders.length ?? 0,
    phrase: shown.length ? shown.join(', ') : 'nothing',
  };
}
