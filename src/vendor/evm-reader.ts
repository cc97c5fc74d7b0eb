// Loaded on first use, from its own bundle (scripts/build.mjs): the EVM chains' reader and viem's chain
// definitions (the default public RPCs), so that only a command reading balances loads viem.
import { VIEM_CHAINS } from '../api/money/tokens.js';
import type { EvmChain } from '../api/money/types.js';

export { readEvm } from '../api/money/evm.js';

/** viem's default public JSON-RPC endpoint of a chain. */
export function defaultRpc(chain: EvmChain): string {
  const url = VIEM_CHAINS[chain].rpcUrls.default.http[0];
  if (!url) throw new Error(`viem names no public RPC for ${chain}`);
  return url;
}
