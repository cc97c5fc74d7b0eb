// Simulated Solana JSON-RPC: getBalance, getTokenAccountsByOwner (jsonParsed) and getHealth, in the
// public node's shapes ({context, value}); token accounts get stable made-up addresses.
import { createHash } from 'node:crypto';
import { base58 } from '@scure/base';
import { invalidParams, type RpcMethod } from './jsonrpc.js';
import { fromUnits } from './prices.js';
import type { Simulation } from './simulation.js';
import { TOKEN_PROGRAM } from './tokens.js';

const TOKEN_ACCOUNT_RENT = 2_039_280;

function pubkey(value: unknown, index: number): string {
  let ok = false;
  try {
    ok = typeof value === 'string' && value.length <= 44 && base58.decode(value).length === 32;
  } catch {
    ok = false;
  }
  if (!ok) throw invalidParams(`Invalid param: Invalid${index === 0 ? '' : ` argument ${index}`}`);
  return value as string;
}

/** A token account's address: stable for an owner and a mint. */
function tokenAccount(owner: string, mint: string): string {
  return base58.encode(createHash('sha256').update(`sim-token-account\0${owner}\0${mint}`).digest());
}

export function solanaMethods(sim: Simulation): Record<string, RpcMethod> {
  const context = () => ({ apiVersion: '2.2.7', slot: Math.floor(sim.now() / 400) });
  return {
    getHealth: () => 'ok',
    getBalance: (params) => {
      const owner = pubkey(params[0], 0);
      const sol = sim.holdings(owner, 'solana').find((h) => h.token.address === null);
      return { context: context(), value: Number(sol?.units ?? 0n) };
    },
    getTokenAccountsByOwner: (params) => {
      const owner = pubkey(params[0], 0);
      const filter = params[1] as { mint?: unknown; programId?: unknown } | undefined;
      if (!filter || typeof filter !== 'object' || (filter.mint === undefined && filter.programId === undefined)) {
        throw invalidParams('Invalid params: missing mint or programId filter');
      }
      const mint = filter.mint === undefined ? undefined : pubkey(filter.mint, 1);
      const otherProgram = filter.programId !== undefined && pubkey(filter.programId, 1) !== TOKEN_PROGRAM;
      if (otherProgram) return { context: context(), value: [] };
      const value = sim
        .holdings(owner, 'solana')
        .filter((h) => h.token.address !== null && (mint === undefined || h.token.address === mint))
        .map(({ token, units }) => {
          const amount = fromUnits(units, token.decimals);
          return {
            pubkey: tokenAccount(owner, token.address!),
            account: {
              data: {
                parsed: {
                  info: {
                    isNative: false,
                    mint: token.address!,
                    owner,
                    state: 'initialized',
                    tokenAmount: {
                      amount: units.toString(),
                      decimals: token.decimals,
                      uiAmount: Number(amount),
                      uiAmountString: amount,
                    },
                  },
                  type: 'account',
                },
                program: 'spl-token',
                space: 165,
              },
              executable: false,
              lamports: TOKEN_ACCOUNT_RENT,
              owner: TOKEN_PROGRAM,
              rentEpoch: 0,
              space: 165,
            },
          };
        });
      return { context: context(), value };
    },
  };
}
