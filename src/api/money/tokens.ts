// The assets read on each EVM chain: its native coin and a short list of ERC-20 tokens (the dollar
// stablecoins, the wrapped native coin, and Polymarket's collateral USDC.e on polygon). A short list on
// purpose: an agent's money is almost all in these, and each token is one more call to a public RPC.
// Addresses are checksummed (a test checks them); decimals are the contracts' own (BSC's USDC and USDT
// have 18). priceKey says how an amount is priced: 'USD' for a stablecoin, else a Hyperliquid allMids coin.
import type { Address, Chain } from 'viem';
import { arbitrum, base, bsc, mainnet, optimism, polygon } from 'viem/chains';
import { COIN_DUST, isChainCoin } from './coins.js';
import { EVM_CHAINS, type EvmChain, type SourceName } from './types.js';

export interface EvmToken {
  symbol: string;
  address: Address;
  decimals: number;
  priceKey: string;
}

export interface NativeAsset {
  symbol: string;
  decimals: number;
  priceKey: string;
}

/** viem's definition of each chain: its id, its default public RPC, and where Multicall3 is deployed. */
export const VIEM_CHAINS: Readonly<Record<EvmChain, Chain>> = {
  ethereum: mainnet,
  arbitrum,
  base,
  polygon,
  bsc,
  optimism,
};

export const NATIVE_ASSETS: Readonly<Record<EvmChain, NativeAsset>> = {
  ethereum: { symbol: 'ETH', decimals: 18, priceKey: 'ETH' },
  arbitrum: { symbol: 'ETH', decimals: 18, priceKey: 'ETH' },
  base: { symbol: 'ETH', decimals: 18, priceKey: 'ETH' },
  optimism: { symbol: 'ETH', decimals: 18, priceKey: 'ETH' },
  polygon: { symbol: 'POL', decimals: 18, priceKey: 'POL' },
  bsc: { symbol: 'BNB', decimals: 18, priceKey: 'BNB' },
};

const usd = (symbol: string, address: Address, decimals = 6): EvmToken => ({
  symbol,
  address,
  decimals,
  priceKey: 'USD',
});
const wrapped = (symbol: string, address: Address, priceKey: string): EvmToken => ({
  symbol,
  address,
  decimals: 18,
  priceKey,
});

export const EVM_TOKENS: Readonly<Record<EvmChain, readonly EvmToken[]>> = {
  ethereum: [
    usd('USDC', '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'),
    usd('USDT', '0xdAC17F958D2ee523a2206206994597C13D831ec7'),
    wrapped('WETH', '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', 'ETH'),
  ],
  arbitrum: [
    usd('USDC', '0xaf88d065e77c8cC2239327C5EDb3A432268e5831'),
    usd('USDT', '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9'),
    wrapped('WETH', '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1', 'ETH'),
  ],
  base: [
    usd('USDC', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'),
    usd('USDT', '0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2'),
    wrapped('WETH', '0x4200000000000000000000000000000000000006', 'ETH'),
  ],
  polygon: [
    usd('USDC', '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359'),
    // bridged USDC: Polymarket's collateral
    usd('USDC.e', '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174'),
    usd('USDT', '0xc2132D05D31c914a87C6611C10748AEb04B58e8F'),
    wrapped('WPOL', '0x0d500B1d8E8eF31E21C99d1Db9A6444d3ADf1270', 'POL'),
  ],
  bsc: [
    usd('USDC', '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', 18),
    usd('USDT', '0x55d398326f99059fF775485246999027B3197955', 18),
    wrapped('WBNB', '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c', 'BNB'),
  ],
  optimism: [
    usd('USDC', '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85'),
    usd('USDT', '0x94b008aA00579c1307B0EF2c499aD98a8ce58e58'),
    wrapped('WETH', '0x4200000000000000000000000000000000000006', 'ETH'),
  ],
};

const isEvmChain = (chain: SourceName): chain is EvmChain => (EVM_CHAINS as readonly string[]).includes(chain);

/** How an asset read on `chain` is priced, by its symbol; null when it is none of ours. */
function priceKeyOf(chain: SourceName, asset: string): string | null {
  if (chain === 'solana') return asset === 'SOL' ? 'SOL' : null;
  if (!isEvmChain(chain)) return null;
  return [NATIVE_ASSETS[chain], ...EVM_TOKENS[chain]].find((a) => a.symbol === asset)?.priceKey ?? null;
}

/**
 * The amount of `asset` on `chain` that counts as funds whatever its price (coins.ts), or null: a
 * stablecoin, an unlisted token, or a Hyperliquid spot balance (priced by the source that holds it).
 */
export function dustOf(chain: SourceName, asset: string): string | null {
  const key = priceKeyOf(chain, asset);
  return isChainCoin(key) ? COIN_DUST[key]! : null;
}
