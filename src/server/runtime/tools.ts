// Simulated tool calls of a SuperAgent's reply (docs/api.md): one per enabled skill the
// reply draws on, each with its arguments, a short JSON result and a duration. Pure and
// deterministic: every figure comes from the reply's seed and its simulated market snapshot, so a
// price a tool returns is the price the reply quotes.

import {
  assetInfo,
  between,
  digest,
  formatUsd,
  intBetween,
  pick,
  quoteOf,
  round2,
  roundSig,
  seededRng,
  type Quote,
} from './market.js';
import { singleLine, withoutControls } from './text.js';

/** A call as the stream reports it (Agno's `tool` object; docs/api.md, Streaming replies). */
export interface ToolCall {
  tool_call_id: string;
  tool_name: string;
  tool_args: Record<string, string>;
  /** what the tool returned: a short JSON text */
  result: string;
  /** seconds, two decimals */
  duration: number;
}

export interface ToolContext {
  /** the reply's seed: same agent, history and message, same tool calls */
  seed: string;
  message: string;
  /** tickers the message mentions, in order */
  symbols: string[];
  snapshot: Quote[];
}

export interface SimulatedTool {
  call: ToolCall;
  /** the result as an object, for the reply text to agree with it */
  data: Record<string, unknown>;
}

/** [ours] tool calls reported per reply; the stream stays short and readable */
export const MAX_TOOL_CALLS = 3;

interface Outcome {
  name: string;
  args: Record<string, string>;
  result: Record<string, unknown>;
}

type Simulator = (ctx: ToolContext, rng: () => number) => Outcome;

function quote(ctx: ToolContext, fallback: string): Quote {
  return quoteOf(ctx.snapshot, ctx.symbols[0] ?? fallback) ?? (ctx.snapshot[0] as Quote);
}

/** The message on one line, short enough to read as an argument, without control characters. */
function queryOf(message: string): string {
  const line = singleLine(withoutControls(message));
  return line.length > 60 ? `${line.slice(0, 59).trimEnd()}…` : line;
}

function fundingRate(ctx: ToolContext, rng: () => number): Outcome {
  const q = quote(ctx, 'BTC');
  const supply = assetInfo(q.symbol)?.supply ?? 1e9;
  // hourly funding leans with the day's move, as crowded longs pay more after a rally
  const rate = roundSig(0.0000125 * (1 + q.change24h / 4) + between(rng, -0.000004, 0.000004), 3);
  return {
    name: 'get_funding_rate',
    args: { symbol: q.symbol },
    result: {
      symbol: q.symbol,
      mark_price: q.price,
      funding_rate: rate,
      interval: '1h',
      open_interest_usd: roundSig(q.price * supply * between(rng, 0.002, 0.01), 4),
    },
  };
}

function marketIntel(ctx: ToolContext, rng: () => number): Outcome {
  const q = quote(ctx, 'BTC');
  if (!/\b(?:news|headlines?)\b/i.test(ctx.message)) {
    return {
      name: 'get_price',
      args: { symbol: q.symbol },
      result: { symbol: q.symbol, price: q.price, change_24h_pct: q.change24h },
    };
  }
  const name = assetInfo(q.symbol)?.name ?? q.symbol;
  const move =
    q.change24h >= 0
      ? `${name} gains ${q.change24h.toFixed(1)}% on the day`
      : `${name} slips ${(-q.change24h).toFixed(1)}% on the day`;
  const second = pick(rng, [
    `Open interest in ${q.symbol} perps builds`,
    `${q.symbol} exchange outflows pick up`,
    `Options desks price more ${q.symbol} volatility`,
  ]);
  return { name: 'get_news', args: { symbol: q.symbol }, result: { symbol: q.symbol, headlines: [move, second] } };
}

function positions(ctx: ToolContext, rng: () => number): Outcome {
  const held = ['SOL', 'ETH'].map((symbol) => {
    const q = quoteOf(ctx.snapshot, symbol) as Quote;
    const size = roundSig(between(rng, 500, 5000) / q.price, 3);
    // opened a day ago, so the open profit follows the 24 h change
    const entry = roundSig(q.price / (1 + q.change24h / 100), 6);
    return {
      symbol,
      side: 'long',
      size,
      entry_price: entry,
      mark_price: q.price,
      unrealized_pnl_usd: round2((q.price - entry) * size),
    };
  });
  const value = round2(held.reduce((sum, p) => sum + p.size * p.mark_price, 0) + intBetween(rng, 200, 2000));
  return { name: 'get_positions', args: {}, result: { positions: held, account_value_usd: value } };
}

function searchMarkets(ctx: ToolContext, rng: () => number): Outcome {
  const q = quote(ctx, 'BTC');
  const level = formatUsd(roundSig(q.price * 1.1, 2));
  const question = ctx.symbols.length
    ? `Will ${q.symbol} close the month above ${level}?`
    : pick(rng, [
        'Will the Fed cut rates at its next meeting?',
        'Will BTC reach a new all-time high this quarter?',
        'Will a spot SOL ETF be approved this year?',
      ]);
  const market = { question, yes_price: intBetween(rng, 18, 82) / 100, volume_usd: intBetween(rng, 40, 900) * 1000 };
  return { name: 'search_markets', args: { query: queryOf(ctx.message) }, result: { markets: [market] } };
}

function research(ctx: ToolContext, rng: () => number): Outcome {
  const result = {
    probability: intBetween(rng, 15, 85) / 100,
    sources: intBetween(rng, 6, 24),
    confidence: pick(rng, ['low', 'medium', 'high']),
  };
  return { name: 'research_market', args: { question: queryOf(ctx.message) }, result };
}

function swapQuote(ctx: ToolContext, rng: () => number): Outcome {
  const input = ctx.symbols[0] ?? 'SOL';
  const output = ctx.symbols[1] ?? 'USDC';
  const price = (symbol: string) => (symbol === 'USDC' ? 1 : (quoteOf(ctx.snapshot, symbol)?.price ?? 1));
  // 0.3 % route fees, as the reply's swap plan counts them
  const rate = roundSig((price(input) * 0.997) / price(output), 6);
  const result = {
    input,
    output,
    rate,
    price_impact_pct: round2(between(rng, 0.01, 0.4)),
    route: pick(rng, ['Orca', 'Raydium', 'Meteora → Orca', 'Phoenix']),
  };
  return { name: 'get_swap_quote', args: { input, output }, result };
}

function walletBalance(chain: 'ethereum' | 'solana', native: string): Simulator {
  return (ctx, rng) => {
    const q = quoteOf(ctx.snapshot, native) as Quote;
    const amount = roundSig(between(rng, 50, 1500) / q.price, 4);
    const usdc = intBetween(rng, 0, 2500);
    const balances = [
      { token: native, amount, usd: round2(amount * q.price) },
      { token: 'USDC', amount: usdc, usd: usdc },
    ];
    return {
      name: 'get_wallet_balance',
      args: { chain },
      result: { chain, balances, total_usd: round2(amount * q.price + usdc) },
    };
  };
}

const CHAINS = [
  { chain: 'Arbitrum', chain_id: 42161, native_token: 'ETH' },
  { chain: 'Base', chain_id: 8453, native_token: 'ETH' },
  { chain: 'Optimism', chain_id: 10, native_token: 'ETH' },
  { chain: 'Ethereum', chain_id: 1, native_token: 'ETH' },
] as const;

function chainInfo(ctx: ToolContext, rng: () => number): Outcome {
  const named = CHAINS.find((c) => new RegExp(`\\b${c.chain}\\b`, 'i').test(ctx.message));
  const info = named ?? pick(rng, CHAINS);
  return { name: 'get_chain_info', args: { chain: info.chain }, result: { ...info } };
}

/** [ours] the tool each skill uses */
const SIMULATORS: Readonly<Record<string, Simulator>> = {
  hyperliquid: fundingRate,
  polymarket: searchMarkets,
  'polymarket-deep-research': research,
  'evm-wallet': walletBalance('ethereum', 'ETH'),
  'solana-wallet': walletBalance('solana', 'SOL'),
  'solana-swap': swapQuote,
  'portfolio-tracker': positions,
  'chain-registry': chainInfo,
  'market-intel': marketIntel,
};

/** The call a skill makes for this reply, or null for a skill without a tool. */
export function simulateTool(skill: string, ctx: ToolContext): SimulatedTool | null {
  const simulate = Object.hasOwn(SIMULATORS, skill) ? SIMULATORS[skill] : undefined;
  if (!simulate) return null;
  const rng = seededRng('agent-tool', ctx.seed, skill);
  const { name, args, result } = simulate(ctx, rng);
  const call: ToolCall = {
    tool_call_id: `call_${digest('tool-call-id', ctx.seed, skill).slice(0, 24)}`,
    tool_name: name,
    tool_args: args,
    result: JSON.stringify(result),
    duration: round2(between(rng, 0.08, 0.95)),
  };
  return { call, data: result };
}

/** Agno's line for a finished call: `get_funding_rate(symbol=ETH) completed in 0.21s.` */
export function toolCompletedLine(call: ToolCall): string {
  const args = Object.entries(call.tool_args)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  return `${call.tool_name}(${args}) completed in ${call.duration.toFixed(2)}s.`;
}
