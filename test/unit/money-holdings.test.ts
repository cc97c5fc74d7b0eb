// Everything an agent holds (src/api/money/holdings.ts) from the recorded answers on loopback: values,
// the exact total, a failing source next to good ones, missing prices, and the summary destroy shows.
import { describe, expect, it } from 'vitest';
import { fundsSummary } from '../../src/api/money/funds.js';
import { holdsFunds } from '../../src/cli/commands/shared/funds-check.js';
import { readHoldings, type HoldingsResult, type ReadEvm } from '../../src/api/money/holdings.js';
import type { Endpoints } from '../../src/api/money/types.js';
import { chainSourcesHarness, EVM_OWNER, fixture, SOLANA_OWNER, type ChainSources } from '../helpers/chain-sources.js';

const start = chainSourcesHarness();
const addresses = { evm: EVM_OWNER, solana: SOLANA_OWNER };
const NOTHING: HoldingsResult = {
  balances: [],
  hyperliquid: null,
  polymarket: null,
  total_usd: 0,
  errors: [],
  partial: false,
};

/** The loopback sources, with ethereum and base "read" by a stand-in EVM reader (its own helper tests it). */
function endpointsOf(s: ChainSources, changes: Partial<Endpoints> = {}): Endpoints {
  return {
    ethereum: 'http://127.0.0.1:1/eth',
    arbitrum: null,
    base: null,
    polygon: null,
    bsc: null,
    optimism: null,
    solana: s.solana,
    hyperliquid: s.hyperliquid,
    polymarket: s.polymarket,
    ...changes,
  };
}

const readEvm: ReadEvm = async (chain, _url, address) => {
  expect(address).toBe(EVM_OWNER);
  if (chain === 'base') throw new Error('127.0.0.1:1 could not be reached (ECONNREFUSED)');
  return [
    { chain, asset: 'ETH', amount: '1.5', priceKey: 'ETH' },
    { chain, asset: 'USDC', amount: '10.005', priceKey: 'USD' },
  ];
};

async function read(s: ChainSources, changes: Partial<Endpoints> = {}, timeoutMs?: number): Promise<HoldingsResult> {
  return readHoldings(addresses, endpointsOf(s, changes), { json: s.http.json, readEvm, timeoutMs });
}

describe('readHoldings', () => {
  it('values every source and totals them exactly to the cent', async () => {
    const s = await start();
    const result = await read(s);
    expect(result.balances).toEqual([
      { chain: 'ethereum', asset: 'ETH', amount: '1.5', usd: 5175.15 },
      { chain: 'ethereum', asset: 'USDC', amount: '10.005', usd: 10.01 },
      { chain: 'solana', asset: 'SOL', amount: '2.5', usd: 468.25 },
      { chain: 'solana', asset: 'USDC', amount: '125', usd: 125 },
      { chain: 'solana', asset: 'DezX…B263', amount: '42', usd: null },
    ]);
    expect(result.hyperliquid).toMatchObject({
      account_value: 10050.1,
      withdrawable: 9360.08,
      positions: [{ coin: 'ETH', side: 'long', size: '1', unrealized_pnl: 50.1, leverage: '5' }],
      spot: [
        { asset: 'USDC', amount: '14.625485', usd: 14.63 },
        { asset: 'HYPE', amount: '2.5', usd: 95.3 },
      ],
    });
    expect(result.hyperliquid!.open_orders).toHaveLength(2);
    expect(result.polymarket).toMatchObject({
      value: 66.28,
      positions: [{ outcome: 'Yes', value: 66.28, pnl: 15.67 }],
    });
    // 5175.15 + 10.005 + 468.25 + 125 + 10050.1 + 14.625485 + 95.3 + 66.275, rounded once
    expect(result.total_usd).toBe(16004.71);
    expect(result.errors).toEqual([]);
    expect(result.partial).toBe(false);
  });

  it('lists a failing source next to good ones and totals only what was read', async () => {
    const s = await start();
    s.overrides.set('solana-getBalance', { status: 502 });
    const result = await read(s, { base: 'http://127.0.0.1:1/base' });
    expect(result.errors).toEqual([
      { source: 'base', message: '127.0.0.1:1 could not be reached (ECONNREFUSED)' },
      { source: 'solana', message: `${new URL(s.solana).host} answered 502` },
    ]);
    expect(result.partial).toBe(true);
    expect(result.balances.map((b) => b.chain)).toEqual(['ethereum', 'ethereum']);
    expect(result.total_usd).toBe(15411.46);
  });

  it('a malformed number fails its source only, never counted as zero', async () => {
    const s = await start();
    const state = fixture('hyperliquid-clearinghouseState');
    state.marginSummary.accountValue = '10,050.1';
    s.overrides.set('hyperliquid-clearinghouseState', state);
    const result = await read(s);
    expect(result.hyperliquid).toBeNull();
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ source: 'hyperliquid' });
    expect(result.errors[0]!.message).toMatch(/clearinghouseState accountValue is not a decimal number \("10,050.1"\)/);
    expect(result.polymarket?.value).toBe(66.28);
    expect(result.total_usd).toBe(5844.68);
  });

  it('without mid prices the non-stable rows have no value and the gap is an error', async () => {
    const s = await start();
    s.overrides.set('hyperliquid-allMids', { status: 500 });
    const result = await read(s);
    expect(result.balances.map((b) => b.usd)).toEqual([null, 10.01, null, 125, null]);
    expect(result.hyperliquid?.spot).toEqual([
      { asset: 'USDC', amount: '14.625485', usd: 14.63 },
      { asset: 'HYPE', amount: '2.5', usd: null },
    ]);
    const message = `mid prices: ${new URL(s.hyperliquid).host} answered 500`;
    expect(result.errors).toEqual([{ source: 'hyperliquid', message }]);
    expect(result.partial).toBe(true);
  });

  it('a chain coin quoted below $0.01 fails the prices: its rows have no price, never a near-zero one', async () => {
    const s = await start();
    s.overrides.set('hyperliquid-allMids', { ...fixture('hyperliquid-allMids'), ETH: '0.000000000001' });
    const result = await read(s);
    expect(result.balances[0]).toEqual({ chain: 'ethereum', asset: 'ETH', amount: '1.5', usd: null });
    const host = new URL(s.hyperliquid).host;
    const message = `mid prices: ${host} allMids ETH is 0.000000000001, below $0.01: not believed`;
    expect(result.errors).toEqual([{ source: 'hyperliquid', message }]);
  });

  it('mid prices that leave out a chain coin: its rows have no value, the total is partial, said once', async () => {
    const s = await start();
    const { ETH: _left, ...mids } = fixture('hyperliquid-allMids');
    s.overrides.set('hyperliquid-allMids', { ...mids, HYPE: undefined });
    const ethAndWeth: ReadEvm = async (chain) => [
      { chain, asset: 'ETH', amount: '1.5', priceKey: 'ETH' },
      { chain, asset: 'WETH', amount: '2', priceKey: 'ETH' },
    ];
    const result = await readHoldings(addresses, endpointsOf(s), { json: s.http.json, readEvm: ethAndWeth });
    expect(result.balances.map((b) => b.usd)).toEqual([null, null, 468.25, 125, null]);
    // a spot coin allMids does not list by name stays unpriced, like an unlisted token: no gap said
    expect(result.hyperliquid?.spot[1]).toEqual({ asset: 'HYPE', amount: '2.5', usd: null });
    const message = `mid prices: ${new URL(s.hyperliquid).host} allMids lists no price for ETH`;
    expect(result.errors).toEqual([{ source: 'hyperliquid', message }]);
    expect(result.partial).toBe(true);
  });

  it('with Hyperliquid switched off, priced rows are a stated gap', async () => {
    const s = await start();
    const result = await read(s, { hyperliquid: null, polymarket: null });
    expect(result.hyperliquid).toBeNull();
    expect(result.balances[0]!.usd).toBeNull();
    const message = 'mid prices not read: the hyperliquid source is switched off';
    expect(result.errors).toEqual([{ source: 'hyperliquid', message }]);
  });

  it('a source that does not answer in time is an error, the others are kept', async () => {
    const s = await start();
    // only stand-ins here, answering at once or never, so no real request can be slow under load
    const stuckOnEthereum: ReadEvm = async (chain) =>
      chain === 'ethereum' ? new Promise(() => {}) : [{ chain, asset: 'USDC', amount: '2', priceKey: 'USD' }];
    const off = { solana: null, hyperliquid: null, polymarket: null };
    const endpoints = endpointsOf(s, { base: 'http://127.0.0.1:1/base', ...off });
    const deps = { json: s.http.json, readEvm: stuckOnEthereum, timeoutMs: 50 };
    const result = await readHoldings(addresses, endpoints, deps);
    const host = new URL(endpoints.ethereum!).host;
    expect(result.errors).toEqual([{ source: 'ethereum', message: `${host} did not answer within 50 ms` }]);
    expect(result.balances).toEqual([{ chain: 'base', asset: 'USDC', amount: '2', usd: 2 }]);
    expect(result.total_usd).toBe(2);
  });

  it('an interrupted read throws instead of returning a partial result', async () => {
    const s = await start();
    const stop = new AbortController();
    stop.abort(new Error('interrupted'));
    const reading = readHoldings(addresses, endpointsOf(s), { json: s.http.json, readEvm }, stop.signal);
    await expect(reading).rejects.toThrow('interrupted');
  });

  it('an agent without addresses reads only the mid prices', async () => {
    const s = await start();
    const result = await readHoldings({ evm: null, solana: null }, endpointsOf(s), { json: s.http.json, readEvm });
    expect(result).toEqual(NOTHING);
    expect(s.asked).toEqual(['hyperliquid-allMids']);
  });
});

describe('fundsSummary', () => {
  it('says what is held, what has no price and what is open', async () => {
    const s = await start();
    const summary = fundsSummary(await read(s));
    expect(summary).toMatchObject({
      usd: 16004.71,
      unpriced: [{ chain: 'solana', asset: 'DezX…B263', amount: '42' }],
      open_positions: 2,
      open_orders: 2,
    });
    expect(summary.phrase).toBe(
      '1.5 ETH on ethereum, 10.005 USDC on ethereum, 2.5 SOL, 125 USDC on solana, 42 DezX…B263 on solana, 5 more',
    );
  });

  it('a chain coin at or past its dust amount is funds whatever its price; a stablecoin under $1 is not', () => {
    const holding = (chain: 'base' | 'solana' | 'bsc', asset: string, amount: string, usd: number | null = 0) =>
      holdsFunds(fundsSummary({ ...NOTHING, balances: [{ chain, asset, amount, usd }] }));
    expect(holding('base', 'ETH', '1000')).toBe(true);
    expect(holding('base', 'WETH', '0.0002')).toBe(true);
    expect(holding('base', 'ETH', '0.0001')).toBe(false);
    expect(holding('solana', 'SOL', '0.004')).toBe(true);
    expect(holding('bsc', 'WBNB', '0.001')).toBe(true);
    expect(holding('base', 'USDC', '0.99', 0.99)).toBe(false);
    expect(
      fundsSummary({ ...NOTHING, balances: [{ chain: 'base', asset: 'ETH', amount: '5', usd: 0 }] }),
    ).toMatchObject({
      beyond_dust: [{ chain: 'base', asset: 'ETH', amount: '5' }],
      phrase: '5 ETH on base',
    });
  });

  it('names positions with their profit, shortens long amounts, and says "nothing" for nothing', () => {
    expect(fundsSummary(NOTHING).phrase).toBe('nothing');
    const some: HoldingsResult = {
      ...NOTHING,
      balances: [
        { chain: 'ethereum', asset: 'ETH', amount: '1.5', usd: 5175.15 },
        { chain: 'solana', asset: 'SOL', amount: '2.5', usd: 468.25 },
        { chain: 'solana', asset: 'WEIRD', amount: `0.${'0'.repeat(254)}1`, usd: null },
      ],
      hyperliquid: {
        account_value: 1000,
        withdrawable: 900,
        positions: [
          {
            coin: 'ETH',
            side: 'long',
            size: '1',
            entry_price: '3400',
            position_value: 3450,
            unrealized_pnl: 50,
            leverage: '5',
            liquidation_price: null,
          },
        ],
        open_orders: [],
        spot: [],
      },
    };
    expect(fundsSummary(some).phrase).toBe(
      // the account's dollars said with its positions, as without any
      '1.5 ETH on ethereum, 2.5 SOL, <0.000001 WEIRD on solana, $1,000 on Hyperliquid with 1 open position ' +
        '(ETH long 1, +$50)',
    );
  });
});
