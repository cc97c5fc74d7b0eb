// Loaded on first use, from its own bundle (scripts/build.mjs): the Solana RPC client the money view's
// Solana reader uses, so a command that reads no Solana balance never loads it.
export { address, createSolanaRpcFromTransport } from '@solana/kit';
export type { RpcTransport } from '@solana/kit';
