// What an agent holds, read from public keyless sources with its addresses alone (docs/api.md, "Money"):
// six EVM chains, Solana, Hyperliquid and Polymarket. Shared by the readers, the totals and the commands.

export const EVM_CHAINS = ['ethereum', 'arbitrum', 'base', 'polygon', 'bsc', 'optimism'] as const;
export type EvmChain = (typeof EVM_CHAINS)[number];

export type SourceName = EvmChain | 'solana' | 'hyperliquid' | 'polymarket';
export const SOURCES: readonly SourceName[] = [...EVM_CHAINS, 'solana', 'hyperliquid', 'polymarket'];

/** Where each source is read: a JSON-RPC URL (chains) or a base URL; null when it is switched off. */
export type Endpoints = Record<SourceName, string | null>;

/** One asset on one chain, as read. `amount` is an exact decimal string ("1.5", never 1.4999999). */
export interface Holding {
  chain: SourceName;
  /** its symbol as people know it: ETH, USDC, USDC.e, SOL, … */
  asset: string;
  amount: string;
  /** how it is priced: 'USD' for a stablecoin (1), a Hyperliquid allMids coin ('ETH'), or null (no price) */
  priceKey: string | null;
}

/** A source that could not be read: named, never counted as zero. */
export interface SourceFailure {
  source: SourceName;
  message: string;
}

/** One JSON request over the project's HTTP layer (source-http.ts): proxies, a time-out, a size limit. */
export interface JsonRequest {
  (req: { url: string; method: 'GET' | 'POST'; body?: unknown; signal?: AbortSignal }): Promise<unknown>;
}
