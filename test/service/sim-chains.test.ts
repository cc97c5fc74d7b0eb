// The simulated chains' public answers on the embedded service: EVM JSON-RPC (balances, ERC-20
// balanceOf, Multicall3 aggregate3 decoded by hand here), Solana JSON-RPC and Polymarket's data
// API. Balances start at zero; a test seeds them (RunningServer.seedHoldings).
import { describe, expect, it } from 'vitest';
import { launchAgent, type TestService } from '../helpers/service.js';
import { perTest } from '../helpers/service-support.js';
import { agentPath } from '../helpers/superagent-fixtures.js';
import { fakeClock, rpc, withPolymarket } from '../helpers/sim.js';

const t = perTest();
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const BASE_USDT = '0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2';
const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11';
const SOL_USDC = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v';
const NOBODY_SOL = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';

const word = (n: bigint | number) => BigInt(n).toString(16).padStart(64, '0');
const balanceOf = (owner: string) => `0x70a08231${word(BigInt(owner))}`;

/** aggregate3 calldata for (target, allowFailure, callData) calls: the ABI's head words and offsets. */
function aggregate3(calls: Array<[string, boolean, string]>): string {
  const tuples = calls.map(([target, allow, data]) => {
    const bytes = data.slice(2);
    const padded = bytes.padEnd(Math.ceil(bytes.length / 64) * 64, '0');
    return word(BigInt(target)) + word(allow ? 1 : 0) + word(96) + word(bytes.length / 2) + padded;
  });
  let at = 32 * calls.length;
  const heads = tuples.map((tuple) => {
    const head = word(at);
    at += tuple.length / 2;
    return head;
  });
  return `0x82ad56cb${word(32)}${word(calls.length)}${heads.join('')}${tuples.join('')}`;
}

/** (bool success, bytes returnData)[] back out of aggregate3's answer. */
function decodeResults(hex: string): Array<{ success: boolean; data: string }> {
  const w = hex.slice(2);
  const at = (byte: number) => Number(BigInt(`0x${w.slice(byte * 2, byte * 2 + 64)}`));
  const start = at(0) + 32;
  return Array.from({ length: at(at(0)) }, (_, i) => {
    const tuple = start + at(start + 32 * i);
    const data = tuple + at(tuple + 32);
    return { success: at(tuple) === 1, data: `0x${w.slice((data + 32) * 2, (data + 32 + at(data)) * 2)}` };
  });
}

describe('EVM JSON-RPC', () => {
  it('answers the real chain id, a block number moving with the clock, zero for an unseeded address', async () => {
    const clock = fakeClock();
    const svc = await t.service({ simClock: clock.now });
    expect((await rpc(svc, '/sim/evm/base', 'eth_chainId')).result).toBe('0x2105');
    expect((await rpc(svc, '/sim/evm/ethereum', 'eth_chainId')).result).toBe('0x1');
    expect((await rpc(svc, '/sim/evm/bsc', 'eth_chainId')).result).toBe('0x38');
    const block = BigInt((await rpc(svc, '/sim/evm/ethereum', 'eth_blockNumber')).result);
    clock.advance(10);
    expect(BigInt((await rpc(svc, '/sim/evm/ethereum', 'eth_blockNumber')).result)).toBe(block + 50n);
    const { wallet_address } = await launchAgent(svc, { name: 'Fresh' });
    expect((await rpc(svc, '/sim/evm/base', 'eth_getBalance', [wallet_address, 'latest'])).result).toBe('0x0');
    const call = { to: BASE_USDC, data: balanceOf(wallet_address) };
    expect((await rpc(svc, '/sim/evm/base', 'eth_call', [call, 'latest'])).result).toBe(`0x${word(0)}`);
  });

  it('a seeded address holds its amounts: eth_getBalance in hex wei, balanceOf, aggregate3', async () => {
    const svc = await t.service({ simClock: fakeClock().now });
    const { wallet_address: me } = await launchAgent(svc, { name: 'Seeded' });
    await svc.seedHoldings(me, { chain: 'base', asset: 'ETH', amount: '0.25' });
    await svc.seedHoldings(me, { chain: 'base', asset: 'USDC', amount: '12.5' });
    // replaces the USDC above, the address in any case
    await svc.seedHoldings(me.toLowerCase(), { chain: 'base', asset: BASE_USDC, amount: '12.75' });
    const wei = (await rpc(svc, '/sim/evm/base', 'eth_getBalance', [me, 'latest'])).result;
    expect(wei).toBe(`0x${(25n * 10n ** 16n).toString(16)}`);
    const call = { to: BASE_USDC, data: balanceOf(me) };
    const usdc = (await rpc(svc, '/sim/evm/base', 'eth_call', [call, 'latest'])).result;
    expect(BigInt(usdc)).toBe(12_750_000n);
    expect((await rpc(svc, '/sim/evm/arbitrum', 'eth_getBalance', [me, 'latest'])).result).toBe('0x0');
    const data = aggregate3([
      [BASE_USDC, true, balanceOf(me)],
      [BASE_USDT, true, balanceOf(me)],
      [BASE_USDC, true, '0xdeadbeef'],
      [BASE_USDC, false, '0x313ce567'],
    ]);
    const answer = await rpc(svc, '/sim/evm/base', 'eth_call', [{ to: MULTICALL3, data }, 'latest']);
    const results = decodeResults(answer.result);
    expect(results).toEqual([
      { success: true, data: `0x${word(12_750_000n)}` },
      { success: true, data: `0x${word(0)}` },
      { success: false, data: '0x' },
      { success: true, data: `0x${word(6)}` },
    ]);
    const failing = aggregate3([[BASE_USDC, false, '0xdeadbeef']]);
    const strict = await rpc(svc, '/sim/evm/base', 'eth_call', [{ to: MULTICALL3, data: failing }, 'latest']);
    expect(strict.error.code).toBe(3);
  });

  it('an unknown method is -32601, a bad address -32602, an unknown chain 404', async () => {
    const svc = await t.service({ simClock: fakeClock().now });
    expect((await rpc(svc, '/sim/evm/base', 'eth_sendRawTransaction', ['0x00'])).error.code).toBe(-32601);
    expect((await rpc(svc, '/sim/evm/base', 'eth_getBalance', ['0x1234', 'latest'])).error.code).toBe(-32602);
    const body = { jsonrpc: '2.0', id: 1, method: 'eth_chainId' };
    expect((await svc.call('POST', '/sim/evm/goerli', { body, key: null })).status).toBe(404);
  });
});

describe('JSON-RPC batches', () => {
  const post = (svc: TestService, path: string, body: unknown) => svc.call('POST', path, { body, key: null });

  it('a batch is answered with an array in order, each with its id, errors in place', async () => {
    const svc = await t.service({ simClock: fakeClock().now });
    const batch = [
      { jsonrpc: '2.0', id: 'a', method: 'eth_chainId' },
      { jsonrpc: '2.0', id: 2, method: 'eth_nope' },
      42,
      { jsonrpc: '2.0', id: 3, method: 'eth_getBalance', params: [MULTICALL3, 'latest'] },
    ];
    const res = await post(svc, '/sim/evm/base', batch);
    expect(res.status, res.text).toBe(200);
    expect(res.json.map((r: any) => [r.id, r.result ?? r.error.code])).toEqual([
      ['a', '0x2105'],
      [2, -32601],
      [null, -32600],
      [3, '0x0'],
    ]);
    const sol = await post(svc, '/sim/solana', [
      { jsonrpc: '2.0', id: 9, method: 'getHealth' },
      { jsonrpc: '2.0', id: 8, method: 'getBalance', params: [NOBODY_SOL] },
    ]);
    expect(sol.json.map((r: any) => [r.id, r.result.value ?? r.result])).toEqual([
      [9, 'ok'],
      [8, 0],
    ]);
  });

  it('an empty batch and one past the cap are one JSON-RPC error, as real nodes answer', async () => {
    const svc = await t.service({ simClock: fakeClock().now });
    for (const path of ['/sim/evm/base', '/sim/solana']) {
      const empty = await post(svc, path, []);
      expect([empty.status, empty.json.id, empty.json.error.code]).toEqual([200, null, -32600]);
      const call = { jsonrpc: '2.0', id: 1, method: 'getHealth' };
      const big = await post(
        svc,
        path,
        Array.from({ length: 101 }, () => call),
      );
      expect([big.status, big.json.id, big.json.error.code]).toEqual([200, null, -32600]);
      expect(big.json.error.message).toMatch(/batch/);
    }
    // the other routes still take only an object
    expect((await post(svc, '/sim/hyperliquid/info', [{ type: 'allMids' }])).status).toBe(400);
  });
});

describe('Solana JSON-RPC', () => {
  it('getHealth, and an unseeded owner has zero lamports and no token accounts', async () => {
    const svc = await t.service({ simClock: fakeClock().now });
    expect((await rpc(svc, '/sim/solana', 'getHealth')).result).toBe('ok');
    const balance = (await rpc(svc, '/sim/solana', 'getBalance', [NOBODY_SOL])).result;
    expect(balance.value).toBe(0);
    expect(typeof balance.context.slot).toBe('number');
    const byMint = [NOBODY_SOL, { mint: SOL_USDC }, { encoding: 'jsonParsed' }];
    const accounts = (await rpc(svc, '/sim/solana', 'getTokenAccountsByOwner', byMint)).result;
    expect(accounts.value).toEqual([]);
    expect((await rpc(svc, '/sim/solana', 'getBalance', ['not-a-key'])).error.code).toBe(-32602);
    expect((await rpc(svc, '/sim/solana', 'getSignaturesForAddress', [NOBODY_SOL])).error.code).toBe(-32601);
  });

  it('a seeded agent address: lamports and a jsonParsed USDC token account; destroyed, gone', async () => {
    const svc = await t.service({ simClock: fakeClock().now });
    const { agent_id } = await launchAgent(svc, { name: 'Sol Holder' });
    const { solana_address: me } = (await svc.call('GET', `${agentPath(agent_id)}/wallet`)).json;
    await svc.seedHoldings(me, { chain: 'solana', asset: 'SOL', amount: '1.5' });
    await svc.seedHoldings(me, { chain: 'solana', asset: 'USDC', amount: '42.000001' });
    expect((await rpc(svc, '/sim/solana', 'getBalance', [me])).result.value).toBe(1_500_000_000);
    const byProgram = [me, { programId: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' }, { encoding: 'jsonParsed' }];
    const [account] = (await rpc(svc, '/sim/solana', 'getTokenAccountsByOwner', byProgram)).result.value;
    expect(account.pubkey).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(account.account.data.program).toBe('spl-token');
    const tokenAmount = { amount: '42000001', decimals: 6, uiAmountString: '42.000001' };
    expect(account.account.data.parsed.info).toMatchObject({ mint: SOL_USDC, owner: me, tokenAmount });
    expect((await svc.call('DELETE', agentPath(agent_id))).status).toBe(200);
    expect((await rpc(svc, '/sim/solana', 'getBalance', [me])).result.value).toBe(0);
  });
});

describe('Polymarket data API', () => {
  const USDC_E = '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174';
  const usdcE = async (svc: TestService, user: string) =>
    BigInt((await rpc(svc, '/sim/evm/polygon', 'eth_call', [{ to: USDC_E, data: balanceOf(user) }, 'latest'])).result);
  const pm = async (svc: TestService, kind: string, user: string) =>
    (await svc.call('GET', `/sim/polymarket/${kind}?user=${user}`, { key: null })).json;

  it('a running agent with the polymarket skill bets small, paid from the USDC.e it deposited on polygon', async () => {
    const clock = fakeClock();
    const svc = await t.service({ simClock: clock.now });
    const { wallet_address: user } = await withPolymarket(svc);
    expect(await pm(svc, 'positions', user)).toEqual([]);
    let positions: any[] = [];
    // a step at a time (one act a step at most): the first position seen is the first bet
    for (let i = 0; i < 400 && positions.length === 0; i++) {
      clock.advance(1);
      positions = await pm(svc, 'positions', user);
    }
    expect(positions.length).toBeGreaterThan(0);
    const [p] = positions;
    expect(p).toMatchObject({ proxyWallet: user.toLowerCase(), redeemable: false, negativeRisk: false });
    expect(['Yes', 'No']).toContain(p.outcome);
    expect(p.oppositeOutcome).not.toBe(p.outcome);
    expect(p.asset).toMatch(/^\d{50,78}$/);
    expect(p.conditionId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(p.initialValue).toBeGreaterThan(0);
    expect(p.initialValue).toBeLessThanOrEqual(25);
    expect(p.currentValue).toBeCloseTo(p.size * p.curPrice, 6);
    // the first bet is a buy: what it cost left the 1000 USDC.e deposit, to the cent
    const spent = positions.reduce((s, q) => s + Math.round(q.initialValue * 1e6), 0);
    expect(await usdcE(svc, user)).toBe(1_000_000_000n - BigInt(spent));
    const [value] = await pm(svc, 'value', user);
    expect(value.user).toBe(user.toLowerCase());
    expect(value.value).toBeCloseTo(
      positions.reduce((s, q) => s + q.currentValue, 0),
      6,
    );
    // prices move with the clock: some outcome held is seen at two prices
    const prices = new Map<string, Set<number>>();
    let moved = false;
    for (let i = 0; i < 100 && !moved; i++) {
      clock.advance(15);
      for (const q of await pm(svc, 'positions', user)) {
        const seen = prices.get(q.asset) ?? new Set<number>();
        prices.set(q.asset, seen.add(q.curPrice));
        moved ||= seen.size > 1;
      }
    }
    expect(moved).toBe(true);
  });

  it('an agent without the polymarket skill holds no position and no USDC.e', async () => {
    const clock = fakeClock();
    const svc = await t.service({ simClock: clock.now });
    const { wallet_address: user } = await launchAgent(svc, { name: 'Abstainer' });
    clock.advance(2_000);
    expect(await pm(svc, 'positions', user)).toEqual([]);
    expect(await pm(svc, 'value', user)).toEqual([{ user: user.toLowerCase(), value: 0 }]);
    expect(await usdcE(svc, user)).toBe(0n);
  });

  it('an address has no positions and a value of 0; no user is 400', async () => {
    const svc = await t.service({ simClock: fakeClock().now });
    const user = '0x' + 'ab'.repeat(20);
    const positions = await svc.call('GET', `/sim/polymarket/positions?user=${user}`, { key: null });
    expect([positions.status, positions.json]).toEqual([200, []]);
    const value = await svc.call('GET', `/sim/polymarket/value?user=${user}`, { key: null });
    expect([value.status, value.json]).toEqual([200, [{ user, value: 0 }]]);
    expect((await svc.call('GET', '/sim/polymarket/value', { key: null })).status).toBe(400);
  });
});
