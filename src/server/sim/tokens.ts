// What the simulated chains hold and answer for: each EVM chain's id and token contracts, Solana's
// mints. The same short list the money view reads (USDC, USDT, the wrapped native; USDC.e on
// polygon), kept here because the service does not import the client's code.

export const SIM_EVM_CHAINS = ['ethereum', 'arbitrum', 'base', 'polygon', 'bsc', 'optimism'] as const;
export type SimEvmChain = (typeof SIM_EVM_CHAINS)[number];
export type SimChain = SimEvmChain | 'solana' | 'hyperliquid';

export interface SimToken {
  symbol: string;
  /** contract (EVM, checksummed) or mint (Solana); null for the native asset */
  address: string | null;
  decimals: number;
}

export const CHAIN_IDS: Record<SimEvmChain, number> = {
  ethereum: 1,
  arbitrum: 42161,
  base: 8453,
  polygon: 137,
  bsc: 56,
  optimism: 10,
};

/** Seconds between blocks, for a block number that moves with the clock. */
export const BLOCK_SECONDS: Record<SimEvmChain, number> = {
  ethereum: 12,
  arbitrum: 0.25,
  base: 2,
  polygon: 2,
  bsc: 3,
  optimism: 2,
};

const WETH_OP = '0x4200000000000000000000000000000000000006';

export const EVM_TOKENS: Record<SimEvmChain, readonly SimToken[]> = {
  ethereum: [
    { symbol: 'ETH', address: null, decimals: 18 },
    { symbol: 'USDC', address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', decimals: 6 },
    { symbol: 'USDT', address: '0xdAC17F958D2ee523a2206206994597C13D831ec7', decimals: 6 },
    { symbol: 'WETH', address: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2', decimals: 18 },
  ],
  arbitrum: [
    { symbol: 'ETH', address: null, decimals: 18 },
    { symbol: 'USDC', address: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', decimals: 6 },
    { symbol: 'USDT', address: '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9', decimals: 6 },
    { symbol: 'WETH', address: '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1', decimals: 18 },
  ],
  base: [
    { symbol: 'ETH', address: null, decimals: 18 },
    { symbol: 'USDC', address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', decimals: 6 },
    { symbol: 'USDT', address: '0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2', decimals: 6 },
    { symbol: 'WETH', address: WETH_OP, decimals: 18 },
  ],
  polygon: [
    { symbol: 'POL', address: null, decimals: 18 },
    { symbol: 'USDC', address: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', decimals: 6 },
    { symbol: 'USDC.e', address: '0x2791Bca1f2de4661ED88A30C99A7a9449Aa84174', decimals: 6 },
    { symbol: 'USDT', address: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', decimals: 6 },
    { symbol: 'WPOL', address: '0x0d500B1d8E8eF31E21C99d1Db9A6444d3ADf1270', decimals: 18 },
  ],
  bsc: [
    { symbol: 'BNB', address: null, decimals: 18 },
    { symbol: 'USDC', address: '0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d', decimals: 18 },
    { symbol: 'USDT', address: '0x55d398326f99059fF775485246999027B3197955', decimals: 18 },
    { symbol: 'WBNB', address: '0xbb4CdB9CBd36B01bD1cBaEBF2De08d9173bc095c', decimals: 18 },
  ],
  optimism: [
    { symbol: 'ETH', address: null, decimals: 18 },
    { symbol: 'USDC', address: '0x0b2C639c533813f4Aa9D7837cAf62653d097Ff85', decimals: 6 },
    { symbol: 'USDT', address: '0x94b008aA00579c1307B0EF2c499aD98a8ce58e58', decimals: 6 },
    { symbol: 'WETH', address: WETH_OP, decimals: 18 },
  ],
};

export const SOLANA_TOKENS: readonly SimToken[] = [
  { symbol: 'SOL', address: null, decimals: 9 },
  { symbol: 'USDC', address: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', decimals: 6 },
  { symbol: 'USDT', address: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB', decimals: 6 },
];

/** Hyperliquid spot balances a seed may give (USDC is the perp account's collateral too). */
export const HYPERLIQUID_TOKENS: readonly SimToken[] = [
  { symbol: 'USDC', address: null, decimals: 8 },
  { symbol: 'HYPE', address: null, decimals: 8 },
];

export const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11';
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';

export function isEvmChain(chain: string): chain is SimEvmChain {
  return (SIM_EVM_CHAINS as readonly string[]).includes(chain);
}

export function tokensOf(chain: SimChain): readonly SimToken[] {
  if (chain === 'solana') return SOLANA_TOKENS;
  if (chain === 'hyperliquid') return HYPERLIQUID_TOKENS;
  return EVM_TOKENS[chain];
}

/** The token a seed names, by symbol or by address (EVM addresses in any case). */
export function findToken(chain: SimChain, asset: string): SimToken | undefined {
  const lower = asset.toLowerCase();
  return tokensOf(chain).find((t) => t.symbol.toLowerCase() === lower || t.address?.toLowerCase() === lower);
}

/** The key an address is kept under: EVM addresses are case-insensitive, Solana's are not. */
export function addressKey(address: string): string {
  return /^0x[0-9a-fA-F]{40}$/.test(address) ? address.toLowerCase() : address;
}
