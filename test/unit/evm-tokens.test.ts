// The token list of the EVM reader: checksummed addresses, the decimals and prices money-design fixes.
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { EVM_TOKENS, NATIVE_ASSETS, VIEM_CHAINS } from '../../src/api/money/tokens.js';
import { EVM_CHAINS } from '../../src/api/money/types.js';

describe('EVM token list', () => {
  it.each(EVM_CHAINS)('%s: checksummed addresses, one of each symbol, USDC and USDT priced in dollars', (chain) => {
    const tokens = EVM_TOKENS[chain];
    for (const t of tokens) expect(t.address).toBe(getAddress(t.address));
    expect(new Set(tokens.map((t) => t.symbol)).size).toBe(tokens.length);
    for (const symbol of ['USDC', 'USDT']) expect(tokens.find((t) => t.symbol === symbol)?.priceKey).toBe('USD');
    const wrapped = tokens.find((t) => t.symbol === `W${NATIVE_ASSETS[chain].symbol}`);
    expect(wrapped).toMatchObject({ decimals: 18, priceKey: NATIVE_ASSETS[chain].priceKey });
  });

  it('knows each chain by its id', () => {
    expect(EVM_CHAINS.map((c) => VIEM_CHAINS[c].id)).toEqual([1, 42161, 8453, 137, 56, 10]);
  });

  it('has Polymarket collateral on polygon, BSC stablecoins with 18 decimals, the native coins named', () => {
    const collateral = EVM_TOKENS.polygon.find((t) => t.symbol === 'USDC.e');
    expect(collateral?.address).toBe('0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174');
    expect(EVM_TOKENS.bsc.filter((t) => t.priceKey === 'USD').map((t) => t.decimals)).toEqual([18, 18]);
    expect(EVM_CHAINS.map((c) => NATIVE_ASSETS[c].symbol)).toEqual(['ETH', 'ETH', 'ETH', 'POL', 'BNB', 'ETH']);
  });
});
