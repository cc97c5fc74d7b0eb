// The plan a reply gives for each intent whose skills are enabled (docs/api.md): simulated
// trades, bets and look-ups whose figures come from the market snapshot and the tools' results. Pure.
import {
  between,
  findSymbols,
  formatNumber,
  formatPct,
  formatQuote,
  formatUsd,
  intBetween,
  pick,
  quoteOf,
  roundSig,
  toneOf,
  type Quote,
} from './market.js';
import { leverageCap, requestedAmount, requestedLeverage, requestedUsd } from './amounts.js';
import { shellAgentRef, type IntentKey } from './intents.js';
import type { AgentForReply } from './agent.js';

function formatAmount(n: number): string {
  if (n >= 1000) return formatNumber(n, 0);
  if (n >= 1) return formatNumber(roundSig(n, 4), n >= 100 ? 1 : 2);
  return String(roundSig(n, 4));
}

export interface PlanContext {
  agent: AgentForReply;
  message: string;
  snapshot: Quote[];
  symbols: string[];
  rule: string | null;
  rng: () => number;
  /** the quotes a market read shows: the mentioned symbols, or BTC, ETH and SOL */
  focusQuotes: Quote[];
  /** what each enabled skill's tool returned: the plan quotes these figures, never its own */
  found: ReadonlyMap<string, Record<string, unknown>>;
}

function found(ctx: PlanContext, skill: string, key: string): unknown {
  return ctx.found.get(skill)?.[key];
}

function focusQuote(ctx: PlanContext, fallback: string): Quote {
  const sym = ctx.symbols[0] ?? fallback;
  return quoteOf(ctx.snapshot, sym) ?? (ctx.snapshot[0] as Quote);
}

function perpsPlan(ctx: PlanContext): string {
  const q = focusQuote(ctx, 'BTC');
  const side = /\bshort/i.test(ctx.message) && !/\blong\b/i.test(ctx.message) ? 'short' : 'long';
  const wanted = requestedLeverage(ctx.message) ?? 2;
  const cap = leverageCap(ctx.rule);
  const lev = cap !== null && wanted > cap ? cap : wanted;
  const notional = requestedUsd(ctx.message) ?? intBetween(ctx.rng, 10, 50) * 50;
  const stopPct = between(ctx.rng, 1.2, 3) / 100;
  const dir = side === 'long' ? 1 : -1;
  const stop = roundSig(q.price * (1 - dir * stopPct), 5);
  const target = roundSig(q.price * (1 + dir * stopPct * 2), 5);
  const capped =
    cap !== null && wanted > cap
      ? ` (you asked for ${formatNumber(wanted, wanted % 1 ? 1 : 0)}x; my rule caps it)`
      : '';
  const funding = Number(found(ctx, 'hyperliquid', 'funding_rate'));
  return (
    `Hyperliquid plan (simulated): ${side} ${q.symbol}-PERP at ${formatUsd(q.price)}, ` +
    `${formatNumber(lev, lev % 1 ? 1 : 0)}x on $${formatNumber(notional, 0)} notional${capped}, ` +
    `stop ${formatUsd(stop)}, target ${formatUsd(target)}` +
    (Number.isFinite(funding) ? `; funding ${(funding * 100).toFixed(4)}%/h.` : '.')
  );
}

function betsPlan(ctx: PlanContext): string {
  const markets = found(ctx, 'polymarket', 'markets') as Array<{ yes_price: number }> | undefined;
  const odds = Math.round((markets?.[0]?.yes_price ?? 0.5) * 100);
  const stake = requestedUsd(ctx.message) ?? intBetween(ctx.rng, 2, 20) * 25;
  return (
    `Polymarket plan (simulated): find the market, compare its ${odds}% implied odds with my own estimate, ` +
    `and stake $${formatNumber(stake, 0)} only if the edge beats 5 points.`
  );
}

function researchPlan(ctx: PlanContext): string {
  const p = Math.round(Number(found(ctx, 'polymarket-deep-research', 'probability') ?? 0.5) * 100);
  const sources = Number(found(ctx, 'polymarket-deep-research', 'sources') ?? 12);
  return (
    `Deep research (simulated): read the resolution rules, ${sources} recent sources and the order-book depth, ` +
    `then give a probability; a first pass puts it near ${p}%.`
  );
}

function swapPlan(ctx: PlanContext): string {
  const from = ctx.symbols[0] ?? 'SOL';
  const to = ctx.symbols[1] ?? 'USDC';
  const pFrom = quoteOf(ctx.snapshot, from)?.price ?? 1;
  const pTo = to === 'USDC' ? 1 : (quoteOf(ctx.snapshot, to)?.price ?? 1);
  const named = requestedAmount(ctx.message);
  let amount: number | null = null;
  if (named && findSymbols(named.word)[0] === from) amount = named.amount;
  if (amount === null || !Number.isFinite(amount) || amount <= 0) {
    const usd = requestedUsd(ctx.message) ?? intBetween(ctx.rng, 5, 40) * 25;
    amount = roundSig(usd / pFrom, 3);
  }
  const out = (amount * pFrom * 0.997) / pTo;
  const slippage = pick(ctx.rng, ['0.3', '0.5', '1.0']);
  return (
    `Solana swap (simulated): ${formatAmount(amount)} ${from} for about ${formatAmount(out)} ${to} ` +
    `on the best route, max slippage ${slippage}%.`
  );
}

function portfolioPlan(ctx: PlanContext): string {
  const sol = quoteOf(ctx.snapshot, 'SOL') as Quote;
  const eth = quoteOf(ctx.snapshot, 'ETH') as Quote;
  return (
    `Portfolio (simulated): I pull balances from both wallets and mark them to market at SOL ${formatUsd(sol.price)} ` +
    `and ETH ${formatUsd(eth.price)}; 24h PnL follows SOL's ${formatPct(sol.change24h)}.`
  );
}

function walletPlan(ctx: PlanContext): string {
  return (
    `Wallets: my EVM and Solana addresses are ready; \`superagent wallet ${shellAgentRef(ctx.agent)}\` shows both, ` +
    `and private keys never leave my container.`
  );
}

function chainPlan(ctx: PlanContext): string {
  const chain = String(found(ctx, 'chain-registry', 'chain') ?? 'Ethereum');
  const id = String(found(ctx, 'chain-registry', 'chain_id') ?? 1);
  return (
    `Chain registry (simulated): I confirm chain id, RPC and bridge route first, ` +
    `for example ${chain} (chain id ${id}), before moving funds.`
  );
}

function marketPlan(ctx: PlanContext): string {
  const quotes = ctx.focusQuotes;
  const headlines = found(ctx, 'market-intel', 'headlines') as string[] | undefined;
  const news = headlines?.[0] ? `; top headline: "${headlines[0]}"` : '';
  return `Market read (simulated): ${quotes.map(formatQuote).join(', ')}; the tape looks ${toneOf(quotes)}${news}.`;
}

/** [ours] the plan for each intent */
export const PLANS: Readonly<Record<IntentKey, (ctx: PlanContext) => string>> = {
  perps: perpsPlan,
  research: researchPlan,
  bets: betsPlan,
  swap: swapPlan,
  portfolio: portfolioPlan,
  wallet: walletPlan,
  chain: chainPlan,
  market: marketPlan,
};
