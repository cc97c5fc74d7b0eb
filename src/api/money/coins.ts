// The chains' own coins, which Hyperliquid's allMids prices though it does not hold them (ETH on the
// EVM chains, BNB, POL, SOL, and their wrapped tokens): one source sets the dollar value of balances read
// from others, so its price is never trusted alone before money is let go (destroy, apply --prune).

/**
 * How much of each coin counts as funds whatever its price read: about $1 at a high price (ETH at
 * $5,000, BNB at $1,000, POL at $2, SOL at $250). Below it a holding is dust when priced under $1.
 */
export const COIN_DUST: Readonly<Record<string, string>> = {
  ETH: '0.0002',
  BNB: '0.001',
  POL: '0.5',
  SOL: '0.004',
};

/** The least price believed for one of these coins: below it the price source is wrong, and fails. */
export const COIN_PRICE_FLOOR = '0.01';

/** Whether `priceKey` is one of these coins (a price for it is expected, and checked). */
export const isChainCoin = (priceKey: string | null): priceKey is string =>
  priceKey !== null && Object.hasOwn(COIN_DUST, priceKey);
