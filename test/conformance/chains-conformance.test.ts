// The recorded public answers (test/fixtures/chains/), the readers (src/api/money/) and the embedded
// service's simulation (src/server/sim/) held to one another: every recorded answer is read by its
// reader; the simulation answers each recorded request in the recorded shape; the readers read the
// simulation's answers as seeded; and on EVM the simulation and a real node (hardhat) give the same rows.
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Address } from 'viem';
import { readEvm } from '../../src/api/money/evm.js';
import { readHoldings } from '../../src/api/money/holdings.js';
import { readHlPortfolio } from '../../src/api/money/hyperliquid.js';
import { createSourceHttp } from '../../src/api/money/source-http.js';
import { SPL_TOKEN_PROGRAM, TOKEN_2022_PROGRAM } from '../../src/api/money/solana.js';
import { EVM_TOKENS } from '../../src/api/money/tokens.js';
import type { Endpoints, Holding } from '../../src/api/money/types.js';
import { chainSourcesHarness, EVM_OWNER, fixture, SOLANA_OWNER } from '../helpers/chain-sources.js';
import { type EvmNode, startEvmNode } from '../helpers/evm-node.js';
import { shapeDifferences } from '../helpers/json-shape.js';
import type { TestService } from '../helpers/service.js';
import { perTest } from '../helpers/service-support.js';
import { agentPath } from '../helpers/superagent-fixtures.js';
import { fakeClock, hlInfo, rpc, withHyperliquid, withPolymarket } from '../helpers/sim.js';

const start = chainSourcesHarness();
const t = perTest();
const FIXTURES = readdirSync(new URL('../fixtures/chains/', import.meta.url))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length))
  .sort();
const OFF: Endpoints = {
  ethereum: null,
  arbitrum: null,
  base: null,
  polygon: null,
  bsc: null,
  optimism: null,
  solana: null,
  hyperliquid: null,
  polymarket: null,
};

describe('the recorded answers and the readers', () => {
  it('every recorded answer is read by its reader, with the values it holds', async () => {
    const s = await start();
    const endpoints = { ...OFF, solana: s.solana, hyperliquid: s.hyperliquid, polymarket: s.polymarket };
    const result = await readHoldings({ evm: EVM_OWNER, solana: SOLANA_OWNER }, endpoints, { json: s.http.json });
    const portfolio = await readHlPortfolio(s.hyperliquid, EVM_OWNER, s.http.json);
    expect([...new Set(s.asked)].sort()).toEqual(FIXTURES);
    expect(result.errors).toEqual([]);
    expect(result.balances.map((b) => [b.asset, b.amount, b.usd])).toEqual([
      ['SOL', '2.5', 468.25],
      ['USDC', '125', 125],
      ['DezX…B263', '42', null],
    ]);
    expect(result.hyperliquid).toMatchObject({ account_value: 10050.1, withdrawable: 9360.08 });
    expect(result.hyperliquid!.positions.map((p) => [p.coin, p.side, p.size, p.entry_price])).toEqual([
      ['ETH', 'long', '1', '3400'],
    ]);
    expect(result.hyperliquid!.open_orders.map((o) => [o.coin, o.side, o.price])).toEqual([
      ['BTC', 'buy', '88000'],
      ['ETH', 'sell', '3800'],
    ]);
    expect(result.polymarket).toMatchObject({ value: 66.28, positions: [{ size: '120.5', avg_price: '0.42' }] });
    expect(portfolio.map((p) => p.period)).toEqual(fixture('hyperliquid-portfolio').map(([p]: [string]) => p));
    expect(portfolio[0]!.accountValueHistory.at(-1)).toEqual([1764214800000, '10050.1']);
  });
});

/**
 * An agent on the simulation holding something of everything, its perp account trading; with
 * `polymarket`, betting too (its bets are paid from polygon USDC.e: the balances are then not as seeded).
 */
async function seededAgent({ polymarket = false } = {}) {
  const clock = fakeClock();
  const svc = await t.service({ simClock: clock.now });
  const agent = await (polymarket ? withPolymarket : withHyperliquid)(svc, 'Conformance');
  const evm = agent.wallet_address as Address;
  const { solana_address: solana } = (await svc.call('GET', `${agentPath(agent.agent_id)}/wallet`)).json;
  const seeds: Array<[string, string, string]> = [
    ['solana', 'SOL', '2.5'],
    ['solana', 'USDC', '125'],
    ['solana', 'USDT', '0.5'],
    ['hyperliquid', 'USDC', '14.625485'],
    ['hyperliquid', 'HYPE', '2.5'],
    ...POLYGON_SEEDS.map(([asset, amount]) => ['polygon', asset, amount] as [string, string, string]),
  ];
  for (const [chain, asset, amount] of seeds) {
    await svc.seedHoldings(chain === 'solana' ? solana : evm, { chain: chain as 'solana', asset, amount });
  }
  // positions and resting orders come and go as it trades: move on until it has both at once (bounded)
  const bets = async () =>
    !polymarket || (await svc.call('GET', `/sim/polymarket/positions?user=${evm}`, { key: null })).json.length > 0;
  const holdsBoth = async () =>
    (await hlInfo(svc, 'clearinghouseState', evm)).assetPositions.length > 0 &&
    (await hlInfo(svc, 'openOrders', evm)).length > 0 &&
    (await bets());
  for (let i = 0; i < 200 && !(await holdsBoth()); i++) clock.advance(60);
  return { svc, evm, solana: solana as string };
}

const POLYGON_SEEDS: Array<[string, string]> = [
  ['POL', '1.5'],
  ['USDC', '12.345678'],
  ['USDC.e', '0.000001'],
  ['WPOL', '7.000000000000000001'],
];

/** The simulation's answer to the request each recorded answer answers. */
async function simAnswer(svc: TestService, name: string, evm: string, solana: string): Promise<unknown> {
  const [source, kind] = [name.slice(0, name.indexOf('-')), name.slice(name.indexOf('-') + 1)];
  if (source === 'hyperliquid') return hlInfo(svc, kind, kind === 'allMids' ? undefined : evm);
  if (source === 'polymarket')
    return (await svc.call('GET', `/sim/polymarket/${kind}?user=${evm}`, { key: null })).json;
  if (kind === 'getBalance') return rpc(svc, '/sim/solana', 'getBalance', [solana]);
  const program = kind.endsWith('token2022') ? TOKEN_2022_PROGRAM : SPL_TOKEN_PROGRAM;
  return rpc(svc, '/sim/solana', 'getTokenAccountsByOwner', [
    solana,
    { programId: program },
    { encoding: 'jsonParsed' },
  ]);
}

/** allMids is a map from coin to price: its coins are its values' keys, not a shape */
const comparable = (name: string, answer: any) => (name === 'hyperliquid-allMids' ? Object.values(answer) : answer);

describe('the simulation against the recorded answers', () => {
  it('answers every recorded request in the recorded shape, lists holding elements to compare', async () => {
    const { svc, evm, solana } = await seededAgent({ polymarket: true });
    const differences: Record<string, string[]> = {};
    const empty: string[] = [];
    for (const name of FIXTURES) {
      const answer = comparable(name, await simAnswer(svc, name, evm, solana));
      const found = shapeDifferences(comparable(name, fixture(name)), answer, {
        nullable: ['$.assetPositions[].position.liquidationPx'],
      });
      if (found.length) differences[name] = found;
      if (JSON.stringify(answer).includes('[]')) empty.push(name);
    }
    expect(differences).toEqual({});
    // the paper agents own no Token-2022 account: that list stays empty
    expect(empty).toEqual(['solana-getTokenAccountsByOwner-token2022']);
    // and the reader takes the simulated bets as they are
    const http = createSourceHttp({ timeoutMs: 5_000 });
    t.closeAfter({ close: async () => http.close() });
    const result = await readHoldings(
      { evm },
      { ...OFF, polymarket: `${svc.url}/sim/polymarket` },
      { json: http.json },
    );
    expect(result.errors).toEqual([]);
    expect(result.polymarket!.positions.length).toBeGreaterThan(0);
  });

  it('the readers read the simulation as seeded, every source without an error', async () => {
    const { svc, evm, solana } = await seededAgent();
    const http = createSourceHttp({ timeoutMs: 5_000 });
    t.closeAfter({ close: async () => http.close() });
    const sim = `${svc.url}/sim`;
    const endpoints = {
      ...OFF,
      polygon: `${sim}/evm/polygon`,
      solana: `${sim}/solana`,
      hyperliquid: `${sim}/hyperliquid`,
      polymarket: `${sim}/polymarket`,
    };
    const result = await readHoldings({ evm, solana }, endpoints, { json: http.json, readEvm });
    expect(result.errors).toEqual([]);
    expect(result.balances.map((b) => [b.chain, b.asset, b.amount])).toEqual([
      ...POLYGON_SEEDS.map(([asset, amount]) => ['polygon', asset, amount]),
      ['solana', 'SOL', '2.5'],
      ['solana', 'USDC', '125'],
      ['solana', 'USDT', '0.5'],
    ]);
    // every row is priced: the simulated market quotes the chains' natives (POL, BNB) too
    expect(result.balances.filter((b) => b.usd === null).map((b) => b.asset)).toEqual([]);
    expect(result.hyperliquid!.positions.length).toBeGreaterThan(0);
    expect(result.hyperliquid!.spot.map((b) => [b.asset, b.amount])).toEqual([
      ['USDC', '14.625485'],
      ['HYPE', '2.5'],
    ]);
    expect(result.polymarket).toEqual({ positions: [], value: 0 });
  });
});

describe('EVM: the simulation and a real node agree', () => {
  let node: EvmNode;
  beforeAll(async () => {
    node = await startEvmNode(137);
    await node.installTokens(EVM_TOKENS.polygon.map((tk) => tk.address));
    await node.installMulticall3();
  });
  afterAll(async () => {
    await node?.stop();
  });

  it('eth_chainId, eth_getBalance, balanceOf and aggregate3 give the seeded amounts on both', async () => {
    const { svc, evm } = await seededAgent();
    const units = (asset: string, amount: string) => {
      const decimals = asset === 'POL' ? 18 : EVM_TOKENS.polygon.find((tk) => tk.symbol === asset)!.decimals;
      const [whole, frac = ''] = amount.split('.');
      return BigInt(`${whole}${frac.padEnd(decimals, '0')}`);
    };
    for (const [asset, amount] of POLYGON_SEEDS) {
      const token = EVM_TOKENS.polygon.find((tk) => tk.symbol === asset);
      if (token) await node.setTokenBalance(token.address, evm, units(asset, amount));
      else await node.setNative(evm, units(asset, amount));
    }
    const http = createSourceHttp({ timeoutMs: 5_000 });
    t.closeAfter({ close: async () => http.close() });
    const expected: Holding[] = POLYGON_SEEDS.map(([asset, amount]) => ({
      chain: 'polygon',
      asset,
      amount,
      priceKey: asset.startsWith('USDC') ? 'USD' : 'POL',
    }));
    for (const multicall of [true, false]) {
      const onSim = await readEvm('polygon', `${svc.url}/sim/evm/polygon`, evm, http.json, undefined, { multicall });
      const onNode = await readEvm('polygon', node.url, evm, http.json, undefined, { multicall });
      expect(onSim).toEqual(expected);
      expect(onNode).toEqual(onSim);
    }
  });
});
