// The Solana reader (src/api/money/solana.ts) against recorded answers on loopback, through createSourceHttp.
import { describe, expect, it } from 'vitest';
import { BadAnswerError } from '../../src/core/errors.js';
import { readSolana } from '../../src/api/money/solana.js';
import { chainSourcesHarness, fixture, SOLANA_OWNER } from '../helpers/chain-sources.js';

const start = chainSourcesHarness();

/** The recorded token accounts with the first one's amount and decimals replaced. */
function withFirstAmount(amount: unknown, decimals: unknown) {
  const answer = fixture('solana-getTokenAccountsByOwner');
  Object.assign(answer.result.value[0].account.data.parsed.info.tokenAmount, { amount, decimals });
  return answer;
}

describe('readSolana', () => {
  it('reads SOL, the known stablecoins by name and other mints shortened, skipping empty accounts', async () => {
    const s = await start();
    const holdings = await readSolana(s.solana, SOLANA_OWNER, s.http.json);
    expect(holdings).toEqual([
      { chain: 'solana', asset: 'SOL', amount: '2.5', priceKey: 'SOL' },
      { chain: 'solana', asset: 'USDC', amount: '125', priceKey: 'USD' },
      { chain: 'solana', asset: 'DezX…B263', amount: '42', priceKey: null },
    ]);
    expect(s.asked.sort()).toEqual([
      'solana-getBalance',
      'solana-getTokenAccountsByOwner',
      'solana-getTokenAccountsByOwner-token2022',
    ]);
  });

  it('reads an SPL account claiming 255 decimals exactly', async () => {
    const s = await start();
    s.overrides.set('solana-getTokenAccountsByOwner', withFirstAmount(`1${'0'.repeat(77)}`, 255));
    const holdings = await readSolana(s.solana, SOLANA_OWNER, s.http.json);
    expect(holdings[1]).toEqual({ chain: 'solana', asset: 'USDC', amount: `0.${'0'.repeat(177)}1`, priceKey: 'USD' });
  });

  it.each([
    ['an amount that is not a number', '12abc', 6, /amount is not a decimal number/],
    ['a fractional amount of base units', '1.5', 6, /amount is not a whole count of units/],
    ['decimals past 255', '1', 256, /decimals must be a whole number from 0 to 255/],
  ])('fails on %s, in one line', async (_name, amount, decimals, message) => {
    const s = await start();
    s.overrides.set('solana-getTokenAccountsByOwner', withFirstAmount(amount, decimals));
    const err = await readSolana(s.solana, SOLANA_OWNER, s.http.json).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadAnswerError);
    expect((err as Error).message).toMatch(message);
    expect((err as Error).message).not.toContain('\n');
  });

  it('fails naming the host when the node answers a JSON-RPC error or a 429', async () => {
    const s = await start();
    s.overrides.set('solana-getBalance', { jsonrpc: '2.0', id: 1, error: { code: -32005, message: 'Node is behind' } });
    const err = await readSolana(s.solana, SOLANA_OWNER, s.http.json).catch((e: unknown) => e);
    expect((err as Error).message).toBe(`${new URL(s.solana).host} answered with error -32005: Node is behind`);
    s.overrides.set('solana-getBalance', { jsonrpc: '2.0', id: 1, error: { code: -32099, message: 'custom\nwords' } });
    const custom = await readSolana(s.solana, SOLANA_OWNER, s.http.json).catch((e: unknown) => e);
    expect((custom as Error).message).toMatch(/answered with error -32099: custom words$/);
    s.overrides.set('solana-getBalance', { status: 429 });
    const limited = await readSolana(s.solana, SOLANA_OWNER, s.http.json).catch((e: unknown) => e);
    expect((limited as Error).message).toMatch(/answered 429 \(rate limited\)$/);
  });

  it('refuses an address that is not a Solana address, asking nothing', async () => {
    const s = await start();
    await expect(readSolana(s.solana, 'not-an-address', s.http.json)).rejects.toThrow(/Solana address is not valid/);
    expect(s.asked).toEqual([]);
  });
});
