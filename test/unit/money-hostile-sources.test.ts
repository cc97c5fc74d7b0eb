// Hostile money sources, read the way the commands read them: readHoldings with the real readers and
// createSourceHttp, from loopback stand-ins (test/helpers/chain-standin.ts). A huge answer, a slow one,
// a wrong chain, malformed or negative numbers, 255 decimals, duplicate rows: the source at fault fails,
// named, never counted as zero, and every other source is still read.
import { describe, expect, it } from 'vitest';
import { readEvm } from '../../src/api/money/evm.js';
import { readHoldings, type HoldingsResult } from '../../src/api/money/holdings.js';
import type { Endpoints, SourceName } from '../../src/api/money/types.js';
import { chainSourcesHarness, EVM_OWNER, fixture, SOLANA_OWNER, type ChainSources } from '../helpers/chain-sources.js';

const start = chainSourcesHarness();
const addresses = { evm: EVM_OWNER, solana: SOLANA_OWNER };

function endpointsOf(s: ChainSources): Endpoints {
  return {
    ethereum: s.evm('ethereum'),
    arbitrum: null,
    base: s.evm('base'),
    polygon: null,
    bsc: null,
    optimism: null,
    solana: s.solana,
    hyperliquid: s.hyperliquid,
    polymarket: s.polymarket,
  };
}

const read = (s: ChainSources, timeoutMs?: number) =>
  readHoldings(addresses, endpointsOf(s), { json: s.http.json, readEvm, timeoutMs });

/** The sources that were read: a chain with a row, Hyperliquid and Polymarket with their view. */
function readSources(result: HoldingsResult): SourceName[] {
  const chains = new Set<SourceName>(result.balances.map((b) => b.chain));
  if (result.hyperliquid) chains.add('hyperliquid');
  if (result.polymarket) chains.add('polymarket');
  return [...chains].sort();
}

const ALL: SourceName[] = ['base', 'ethereum', 'hyperliquid', 'polymarket', 'solana'];
const others = (...failing: SourceName[]) => ALL.filter((s) => !failing.includes(s));

/** `source` alone failed, in one line matching `message`; the others were read. */
function failedAlone(result: HoldingsResult, source: SourceName, message: RegExp) {
  expect(result.errors.map((e) => e.source)).toEqual([source]);
  expect(result.errors[0]!.message).toMatch(message);
  expect(result.errors[0]!.message).not.toContain('\n');
  expect(result.partial).toBe(true);
  expect(readSources(result)).toEqual(others(source));
}

describe('the stand-ins as they are', () => {
  it('every source read, the EVM chains through Multicall3', async () => {
    const s = await start();
    const result = await read(s);
    expect(result.errors).toEqual([]);
    expect(readSources(result)).toEqual(ALL);
    expect(result.balances.filter((b) => b.chain === 'base').map((b) => [b.asset, b.amount])).toEqual([
      ['ETH', '0.5'],
      ['USDC', '2.5'],
    ]);
    expect(s.counts.get('evm/base')).toBe(2);
  });
});

describe('a hostile source fails alone', () => {
  it('a 50 MB answer is cut at the limit, the source named', async () => {
    const s = await start();
    s.overrides.set('solana-getBalance', { status: 200, raw: `{"x":"${'9'.repeat(50 * 1024 * 1024)}"}` });
    failedAlone(await read(s), 'solana', new RegExp(`^${new URL(s.solana).host} sent more than 4194304 bytes$`));
  });

  it('slow sources time out each on its own limit, side by side, and the others are read', async () => {
    const s = await start();
    s.overrides.set('solana-getBalance', { hang: true });
    s.overrides.set('polymarket-value', { hang: true });
    // each source's limit is long enough for a loaded machine; the slow ones never answer
    const result = await read(s, 3_000);
    expect(result.errors).toEqual([
      { source: 'solana', message: `${new URL(s.solana).host} did not answer within 3 s` },
      { source: 'polymarket', message: `${new URL(s.polymarket).host} did not answer within 3 s` },
    ]);
    expect(readSources(result)).toEqual(others('solana', 'polymarket'));
    // side by side: both slow requests had been sent before the first was given up
    await expect.poll(() => s.abandonedAt.length).toBe(2);
    const sent = Math.max(s.asked.indexOf('solana-getBalance'), s.asked.indexOf('polymarket-value'));
    expect(Math.min(...s.abandonedAt)).toBeGreaterThan(sent);
  });

  it('an EVM endpoint serving another chain, the chain named once', async () => {
    const s = await start();
    s.overrides.set('evm-eth_chainId', { jsonrpc: '2.0', result: '0x38' });
    const result = await read(s);
    expect(result.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^127\.0\.0\.1:\d+ serves chain 56 \(bsc\), not ethereum \(1\)/),
      expect.stringMatching(/^127\.0\.0\.1:\d+ serves chain 56 \(bsc\), not base \(8453\)/),
    ]);
    // the source is named once, beside the message (as `ethereum: <message>`), not again inside it
    expect(readSources(result)).toEqual(['hyperliquid', 'polymarket', 'solana']);
  });

  const MALFORMED = ['1e5', 'NaN', '0x', '1'.repeat(300), '', ' 1', 'Infinity', '-0x1'];

  it.each(MALFORMED)('Hyperliquid sending %j as the account value', async (bad) => {
    const s = await start();
    const state = fixture('hyperliquid-clearinghouseState');
    state.marginSummary.accountValue = bad;
    s.overrides.set('hyperliquid-clearinghouseState', state);
    failedAlone(await read(s), 'hyperliquid', /accountValue is not a decimal number/);
  });

  it.each(MALFORMED)('Solana sending %j as a token amount', async (bad) => {
    const s = await start();
    const accounts = fixture('solana-getTokenAccountsByOwner');
    accounts.result.value[0].account.data.parsed.info.tokenAmount.amount = bad;
    s.overrides.set('solana-getTokenAccountsByOwner', accounts);
    failedAlone(await read(s), 'solana', /amount is not a decimal number/);
  });

  it.each([
    ['1e5', /value is not a decimal number/],
    ['NaN', /not JSON/],
    [`1${'0'.repeat(300)}`, /value is not a decimal number/],
  ])('Polymarket sending the JSON number %s as the value', async (bad, message) => {
    const s = await start();
    s.overrides.set('polymarket-value', { status: 200, raw: `[{"user":"${EVM_OWNER}","value":${bad}}]` });
    if (bad === '1e5') {
      // a JSON number in exponent form is still that number: 100000
      const result = await read(s);
      expect(result.errors).toEqual([]);
      return void expect(result.polymarket?.value).toBe(100000);
    }
    failedAlone(await read(s), 'polymarket', message);
  });

  it.each(['0x', `0x${'f'.repeat(300)}`, '1e5', 'NaN'])('an EVM node sending %j as a balance', async (bad) => {
    const s = await start();
    s.overrides.set('evm-eth_call', { jsonrpc: '2.0', result: bad });
    const result = await read(s);
    expect(result.errors.map((e) => e.source)).toEqual(['ethereum', 'base']);
    expect(readSources(result)).toEqual(['hyperliquid', 'polymarket', 'solana']);
  });

  it('an SPL token claiming 255 decimals is read exactly, its tiny amount valued', async () => {
    const s = await start();
    const accounts = fixture('solana-getTokenAccountsByOwner');
    Object.assign(accounts.result.value[0].account.data.parsed.info.tokenAmount, {
      amount: '9'.repeat(78),
      decimals: 255,
    });
    s.overrides.set('solana-getTokenAccountsByOwner', accounts);
    const result = await read(s);
    expect(result.errors).toEqual([]);
    const usdc = result.balances.find((b) => b.chain === 'solana' && b.asset === 'USDC')!;
    expect(usdc).toEqual({ chain: 'solana', asset: 'USDC', amount: `0.${'0'.repeat(177)}${'9'.repeat(78)}`, usd: 0 });
  });

  it.each([
    ['a Hyperliquid spot balance', 'hyperliquid', (s: ChainSources) => spot(s, (b) => (b[1].total = '-2.5'))],
    ['a Polymarket position size', 'polymarket', (s: ChainSources) => pmPosition(s, (p) => (p.size = -120.5))],
    ['a Polymarket value', 'polymarket', (s: ChainSources) => pmValue(s, -66.275)],
    ['a Solana token amount', 'solana', (s: ChainSources) => splAmount(s, '-1')],
  ] as const)('a negative balance: %s', async (_name, source, make) => {
    const s = await start();
    make(s);
    failedAlone(await read(s), source, /negative|not a whole count/);
  });

  it.each([
    ['the same Hyperliquid spot coin twice', 'hyperliquid', (s: ChainSources) => spot(s, (b) => b.push(b[1]))],
    ['the same Hyperliquid perp coin twice', 'hyperliquid', duplicatePosition],
    ['the same Solana token account twice', 'solana', duplicateSplAccount],
  ] as const)('duplicate rows: %s', async (_name, source, make) => {
    const s = await start();
    make(s);
    failedAlone(await read(s), source, /twice/);
  });

  it('two Solana token accounts of one mint are summed (a wallet may have several)', async () => {
    const s = await start();
    const accounts = fixture('solana-getTokenAccountsByOwner');
    const again = structuredClone(accounts.result.value[0]);
    again.pubkey = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
    accounts.result.value.push(again);
    s.overrides.set('solana-getTokenAccountsByOwner', accounts);
    const result = await read(s);
    expect(result.errors).toEqual([]);
    expect(result.balances.find((b) => b.chain === 'solana' && b.asset === 'USDC')?.amount).toBe('250');
  });
});

function spot(s: ChainSources, change: (balances: any[]) => void) {
  const state = fixture('hyperliquid-spotClearinghouseState');
  change(state.balances);
  s.overrides.set('hyperliquid-spotClearinghouseState', state);
}

function pmPosition(s: ChainSources, change: (position: any) => void) {
  const positions = fixture('polymarket-positions');
  change(positions[0]);
  s.overrides.set('polymarket-positions', positions);
}

function pmValue(s: ChainSources, value: number) {
  s.overrides.set('polymarket-value', [{ user: EVM_OWNER, value }]);
}

function splAmount(s: ChainSources, amount: string) {
  const accounts = fixture('solana-getTokenAccountsByOwner');
  accounts.result.value[0].account.data.parsed.info.tokenAmount.amount = amount;
  s.overrides.set('solana-getTokenAccountsByOwner', accounts);
}

function duplicatePosition(s: ChainSources) {
  const state = fixture('hyperliquid-clearinghouseState');
  state.assetPositions.push(state.assetPositions[0]);
  s.overrides.set('hyperliquid-clearinghouseState', state);
}

function duplicateSplAccount(s: ChainSources) {
  const accounts = fixture('solana-getTokenAccountsByOwner');
  accounts.result.value.push(accounts.result.value[0]);
  s.overrides.set('solana-getTokenAccountsByOwner', accounts);
}
