// The simulated tool calls of an agent's reply (docs/api.md, Streaming replies): which tools, with what,
// and that what they return agrees with the reply and the market snapshot.
import { describe, expect, it } from 'vitest';
import { formatPct, formatUsd, marketSnapshot, quoteOf } from '../../src/server/runtime/market.js';
import { composeAgentReply, type AgentForReply, type Turn } from '../../src/server/runtime/replies.js';
import { SKILL_NAMES } from '../../src/server/runtime/skills.js';
import { MAX_TOOL_CALLS, simulateTool, toolCompletedLine, type ToolContext } from '../../src/server/runtime/tools.js';

function agent(enabled: readonly string[]): AgentForReply {
  return {
    agent_id: '0b7c6a52-3f1e-4d2a-9c8b-5e4f3a2b1c0d',
    name: 'toolsmith',
    description: '',
    model: 'gpt-4o',
    model_provider: 'openai',
    soul_md: '# Toolsmith\n',
    skills: Object.fromEntries(SKILL_NAMES.map((s) => [s, enabled.includes(s)])),
  };
}

const calls = (enabled: readonly string[], message: string, history: Turn[] = []) =>
  composeAgentReply(agent(enabled), history, message);
const result = (call: { result: string }) => JSON.parse(call.result);

describe('composeAgentReply: tool calls', () => {
  it(
    'a question about ETH funding with hyperliquid on calls ' + 'get_funding_rate {symbol: ETH}, quoted in the reply',
    () => {
      const reply = calls(['hyperliquid'], 'What is the ETH funding rate?');
      expect(reply.toolCalls.map((c) => [c.tool_name, c.tool_args])).toEqual([['get_funding_rate', { symbol: 'ETH' }]]);
      const found = result(reply.toolCalls[0]!);
      expect(Object.keys(found)).toEqual(['symbol', 'mark_price', 'funding_rate', 'interval', 'open_interest_usd']);
      expect(found).toMatchObject({ symbol: 'ETH', interval: '1h' });
      expect(Math.abs(found.funding_rate)).toBeLessThan(0.001);
      expect(reply.content).toContain(`ETH-PERP at ${formatUsd(found.mark_price)}`);
      expect(reply.content).toContain(`funding ${(found.funding_rate * 100).toFixed(4)}%/h`);
    },
  );

  it('calls nothing when the skill is off, and says how to turn it on', () => {
    const reply = calls([], 'What is the ETH funding rate?');
    expect(reply.toolCalls).toEqual([]);
    expect(reply.content).toContain('skills enable toolsmith hyperliquid');
  });

  it.each<[string, string[], Array<[string, Record<string, string>]>]>([
    ['What is the price of BTC?', ['market-intel'], [['get_price', { symbol: 'BTC' }]]],
    ['Any news on SOL?', ['market-intel'], [['get_news', { symbol: 'SOL' }]]],
    ['Show my portfolio pnl', ['portfolio-tracker'], [['get_positions', {}]]],
    [
      'place a bet on the election odds',
      ['polymarket'],
      [['search_markets', { query: 'place a bet on the election odds' }]],
    ],
    [
      'do some research on the Fed decision',
      ['polymarket-deep-research'],
      [['research_market', { question: 'do some research on the Fed decision' }]],
    ],
    ['swap 1 SOL to JUP', ['solana-swap'], [['get_swap_quote', { input: 'SOL', output: 'JUP' }]]],
    ['which chain should I bridge to, Base?', ['chain-registry'], [['get_chain_info', { chain: 'Base' }]]],
    [
      'what is your wallet address',
      ['evm-wallet', 'solana-wallet'],
      [
        ['get_wallet_balance', { chain: 'ethereum' }],
        ['get_wallet_balance', { chain: 'solana' }],
      ],
    ],
    ['hello there', [...SKILL_NAMES], []],
    ['What is the price of BTC?', ['hyperliquid', 'polymarket'], []],
  ])('%j with %j on calls %j', (message, enabled, expected) => {
    expect(calls(enabled, message).toolCalls.map((c) => [c.tool_name, c.tool_args])).toEqual(expected);
  });

  it(`makes at most ${MAX_TOOL_CALLS} calls, one per skill, with distinct ids`, () => {
    const reply = calls([...SKILL_NAMES], 'open a long on ETH, check my wallet balances and the market news');
    expect(reply.toolCalls).toHaveLength(MAX_TOOL_CALLS);
    expect(new Set(reply.toolCalls.map((c) => c.tool_call_id)).size).toBe(MAX_TOOL_CALLS);
    for (const call of reply.toolCalls) {
      expect(call.tool_call_id).toMatch(/^call_[0-9a-f]{24}$/);
      expect(call.duration).toBeGreaterThan(0);
      expect(call.duration).toBeLessThan(1);
      expect(Math.round(call.duration * 100) / 100).toBe(call.duration);
      expect(call.result.length).toBeLessThan(400);
    }
  });

  it('is deterministic for the same agent, history and message, and changes with the message and the history', () => {
    const history: Turn[] = [
      { role: 'user', content: 'hi' },
      { role: 'agent', content: 'hello' },
    ];
    const a = calls(['hyperliquid', 'market-intel'], 'ETH funding and price?', history);
    expect(
      calls(['hyperliquid', 'market-intel'], 'ETH funding and price?', structuredClone(history)).toolCalls,
    ).toEqual(a.toolCalls);
    expect(calls(['hyperliquid', 'market-intel'], 'ETH funding and prices?', history).toolCalls).not.toEqual(
      a.toolCalls,
    );
    expect(calls(['hyperliquid', 'market-intel'], 'ETH funding and price?').toolCalls).not.toEqual(a.toolCalls);
  });

  it('the reply quotes what the tools found: prices, odds, probabilities, chains', () => {
    const price = calls(['market-intel'], 'What is the price of BTC?');
    const quote = result(price.toolCalls[0]!);
    expect(price.content).toContain(`BTC ${formatUsd(quote.price)} (${formatPct(quote.change_24h_pct)})`);

    const bet = calls(['polymarket'], 'place a bet on the election odds');
    const market = result(bet.toolCalls[0]!).markets[0];
    expect(bet.content).toContain(`${Math.round(market.yes_price * 100)}% implied odds`);

    const research = calls(['polymarket-deep-research'], 'do some research on the Fed decision');
    const study = result(research.toolCalls[0]!);
    expect(research.content).toContain(`${study.sources} recent sources`);
    expect(research.content).toContain(`near ${Math.round(study.probability * 100)}%`);

    const chain = calls(['chain-registry'], 'which chain should I bridge to?');
    const info = result(chain.toolCalls[0]!);
    expect(chain.content).toContain(`${info.chain} (chain id ${info.chain_id})`);

    const news = calls(['market-intel'], 'Any news on SOL?');
    expect(news.content).toContain(`top headline: "${result(news.toolCalls[0]!).headlines[0]}"`);
  });
});

describe('simulateTool', () => {
  const snapshot = marketSnapshot('tools-test');
  const ctx = (message: string, symbols: string[] = []): ToolContext => ({
    seed: 'seed-1',
    message,
    symbols,
    snapshot,
  });

  it('prices come from the snapshot it is given', () => {
    const eth = quoteOf(snapshot, 'ETH')!;
    expect(result(simulateTool('market-intel', ctx('price of ETH', ['ETH']))!.call)).toEqual({
      symbol: 'ETH',
      price: eth.price,
      change_24h_pct: eth.change24h,
    });
    expect(result(simulateTool('hyperliquid', ctx('ETH funding', ['ETH']))!.call).mark_price).toBe(eth.price);
    const swap = result(simulateTool('solana-swap', ctx('swap SOL to ETH', ['SOL', 'ETH']))!.call);
    expect(swap.rate).toBeCloseTo((quoteOf(snapshot, 'SOL')!.price * 0.997) / eth.price, 6);
  });

  it('positions are marked to the snapshot and their open profit adds up', () => {
    const { positions, account_value_usd } = result(simulateTool('portfolio-tracker', ctx('my portfolio'))!.call);
    expect(positions.map((p: any) => p.symbol)).toEqual(['SOL', 'ETH']);
    for (const p of positions) {
      expect(p.mark_price).toBe(quoteOf(snapshot, p.symbol)!.price);
      expect(p.unrealized_pnl_usd).toBeCloseTo((p.mark_price - p.entry_price) * p.size, 1);
    }
    expect(account_value_usd).toBeGreaterThan(positions.reduce((s: number, p: any) => s + p.size * p.mark_price, 0));
  });

  it('wallet balances add up to their total', () => {
    const { chain, balances, total_usd } = result(simulateTool('solana-wallet', ctx('wallet'))!.call);
    expect(chain).toBe('solana');
    expect(balances.map((b: any) => b.token)).toEqual(['SOL', 'USDC']);
    expect(balances.reduce((s: number, b: any) => s + b.usd, 0)).toBeCloseTo(total_usd, 1);
  });

  it('is null for a skill without a tool, and seeded by the reply', () => {
    expect(simulateTool('teleport', ctx('hi'))).toBeNull();
    expect(simulateTool('toString', ctx('hi'))).toBeNull();
    const a = simulateTool('polymarket', ctx('bet on it'))!;
    expect(simulateTool('polymarket', ctx('bet on it'))).toEqual(a);
    expect(simulateTool('polymarket', { ...ctx('bet on it'), seed: 'seed-2' })!.call.tool_call_id).not.toBe(
      a.call.tool_call_id,
    );
  });
});

describe('toolCompletedLine', () => {
  it("reads like Agno's: name(args) completed in N.NNs.", () => {
    const base = { tool_call_id: 'call_x', result: '{}', duration: 0.21 };
    expect(toolCompletedLine({ ...base, tool_name: 'get_funding_rate', tool_args: { symbol: 'ETH' } })).toBe(
      'get_funding_rate(symbol=ETH) completed in 0.21s.',
    );
    expect(
      toolCompletedLine({
        ...base,
        tool_name: 'get_swap_quote',
        tool_args: { input: 'SOL', output: 'JUP' },
        duration: 0.5,
      }),
    ).toBe('get_swap_quote(input=SOL, output=JUP) completed in 0.50s.');
    expect(toolCompletedLine({ ...base, tool_name: 'get_positions', tool_args: {} })).toBe(
      'get_positions() completed in 0.21s.',
    );
  });
});
