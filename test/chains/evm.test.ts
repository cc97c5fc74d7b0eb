// The EVM reader against a real node (hardhat, on loopback, as polygon): the native coin and the
// listed tokens, read with Multicall3 in one call or one call each, and a node serving another chain.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Address } from 'viem';
import { readEvm } from '../../src/api/money/evm.js';
import { createSourceHttp, type SourceHttp } from '../../src/api/money/source-http.js';
import { EVM_TOKENS } from '../../src/api/money/tokens.js';
import type { JsonRequest } from '../../src/api/money/types.js';
import { type EvmNode, MULTICALL3, startEvmNode } from '../helpers/evm-node.js';

const HOLDER: Address = '0x7e57000000000000000000000000000000000001';
const token = (symbol: string) => EVM_TOKENS.polygon.find((t) => t.symbol === symbol)!.address;
const MAX_UINT256 = 2n ** 256n - 1n;

let node: EvmNode;
let http: SourceHttp;
let snapshot: unknown;
/** the JSON-RPC methods (and eth_call targets) each read asked for */
let asked: string[];
let json: JsonRequest;

beforeAll(async () => {
  node = await startEvmNode(137);
  await node.installTokens(EVM_TOKENS.polygon.map((t) => t.address));
});
afterAll(async () => {
  await node?.stop();
});
beforeEach(async () => {
  snapshot = await node.rpc('evm_snapshot');
  http = createSourceHttp({ timeoutMs: 5_000 });
  asked = [];
  json = (req) => {
    const body = req.body as { method: string; params: Array<{ to?: string }> };
    asked.push(body.method === 'eth_call' ? `eth_call ${body.params[0]?.to?.toLowerCase()}` : body.method);
    return http.json(req);
  };
  await node.setNative(HOLDER, 1_500_000_000_000_000_000n);
  await node.setTokenBalance(token('USDC'), HOLDER, 12_345_678n);
  await node.setTokenBalance(token('USDC.e'), HOLDER, 1n);
  await node.setTokenBalance(token('WPOL'), HOLDER, MAX_UINT256);
});
afterEach(async () => {
  http.close();
  await node.rpc('evm_revert', [snapshot]);
});

// USDT is 0: no row for it
const EXPECTED = [
  { chain: 'polygon', asset: 'POL', amount: '1.5', priceKey: 'POL' },
  { chain: 'polygon', asset: 'USDC', amount: '12.345678', priceKey: 'USD' },
  { chain: 'polygon', asset: 'USDC.e', amount: '0.000001', priceKey: 'USD' },
  {
    chain: 'polygon',
    asset: 'WPOL',
    amount: '115792089237316195423570985008687907853269984665640564039457.584007913129639935',
    priceKey: 'POL',
  },
];

describe('readEvm on a local node', () => {
  it('reads the native coin and each listed token with one call each when Multicall3 is off', async () => {
    expect(await readEvm('polygon', node.url, HOLDER, json, undefined, { multicall: false })).toEqual(EXPECTED);
    expect(asked.filter((m) => m.startsWith('eth_call'))).toHaveLength(EVM_TOKENS.polygon.length);
    expect(asked).toContain('eth_getBalance');
  });

  it('reads them all in one Multicall3 call where it is deployed', async () => {
    await node.installMulticall3();
    expect(await readEvm('polygon', node.url, HOLDER, json)).toEqual(EXPECTED);
    expect(asked).toEqual(['eth_chainId', `eth_call ${MULTICALL3.toLowerCase()}`]);
  });

  it('reads one by one when the chain has no code at the Multicall3 address', async () => {
    await node.rpc('hardhat_setCode', [MULTICALL3, '0x']);
    expect(await readEvm('polygon', node.url, HOLDER, json)).toEqual(EXPECTED);
  });

  it('gives no rows for an address holding nothing', async () => {
    expect(await readEvm('polygon', node.url, '0x7e57000000000000000000000000000000000002', json)).toEqual([]);
  });

  it('fails, naming both chains, when the endpoint serves another chain', async () => {
    const err = await readEvm('ethereum', node.url, HOLDER, json).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/^ethereum: 127\.0\.0\.1:\d+ serves chain 137 \(polygon\), not ethereum \(1\)/);
    expect(asked).toEqual(['eth_chainId']);
  });
});
