// A simulated EVM chain's JSON-RPC: eth_chainId, eth_blockNumber, eth_getBalance and eth_call for
// ERC-20 balanceOf/decimals on the listed tokens and Multicall3's aggregate3 (and getEthBalance),
// its ABI decoded and encoded by hand (head words, offsets, padded bytes).
import { invalidParams, RpcError, type RpcMethod } from './jsonrpc.js';
import type { Simulation } from './simulation.js';
import { BLOCK_SECONDS, CHAIN_IDS, EVM_TOKENS, MULTICALL3, type SimEvmChain } from './tokens.js';

const BALANCE_OF = '70a08231';
const DECIMALS = '313ce567';
const AGGREGATE3 = '82ad56cb';
const GET_ETH_BALANCE = '4d2301cc';
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** the most calls one aggregate3 may carry: a bound on the work one request can ask for */
const MAX_CALLS = 1_000;

const hex = (n: bigint | number) => `0x${n.toString(16)}`;
const word = (n: bigint) => n.toString(16).padStart(64, '0');

function revert(message = 'execution reverted'): RpcError {
  return new RpcError(3, message);
}

function addressParam(value: unknown, index: number): string {
  if (typeof value !== 'string' || !ADDRESS.test(value)) {
    throw invalidParams(`invalid argument ${index}: not a 20-byte hex address`);
  }
  return value;
}

/** What a call to `to` with `data` (hex, no 0x) returns (hex, no 0x); throws a revert. */
function call(sim: Simulation, chain: SimEvmChain, to: string, data: string): string {
  const target = to.toLowerCase();
  const selector = data.slice(0, 8);
  if (target === MULTICALL3.toLowerCase()) {
    if (selector === AGGREGATE3) return aggregate3(sim, chain, data.slice(8));
    if (selector === GET_ETH_BALANCE) return word(sim.evmBalance(argAddress(data), chain, null));
    throw revert();
  }
  const token = EVM_TOKENS[chain].find((t) => t.address?.toLowerCase() === target);
  if (!token) return ''; // no code at that address: a call answers empty, as on a real chain
  if (selector === BALANCE_OF) return word(sim.evmBalance(argAddress(data), chain, token.address));
  if (selector === DECIMALS && data.length === 8) return word(BigInt(token.decimals));
  throw revert();
}

/** The address argument of a one-address call (selector + one word). */
function argAddress(data: string): string {
  const arg = data.slice(8, 72);
  if (arg.length !== 64 || !/^0{24}[0-9a-fA-F]{40}$/.test(arg)) throw revert();
  return `0x${arg.slice(24)}`;
}

/** A word of `args` (hex) at byte `offset`, as a safe number (offsets, lengths, booleans). */
function readWord(args: string, offset: number): number {
  const w = args.slice(offset * 2, offset * 2 + 64);
  if (w.length !== 64) throw revert();
  const n = BigInt(`0x${w}`);
  if (n > BigInt(args.length)) throw revert(); // an offset or length past the data itself
  return Number(n);
}

/** aggregate3((address target, bool allowFailure, bytes callData)[]) → (bool success, bytes returnData)[] */
function aggregate3(sim: Simulation, chain: SimEvmChain, args: string): string {
  const arrayAt = readWord(args, 0);
  const n = readWord(args, arrayAt);
  if (n > MAX_CALLS) throw revert();
  const base = arrayAt + 32;
  const results: Array<{ ok: boolean; data: string }> = [];
  for (let i = 0; i < n; i++) {
    const at = base + readWord(args, base + 32 * i);
    const target = `0x${args.slice(at * 2 + 24, at * 2 + 64)}`;
    const allowFailure = readWord(args, at + 32) !== 0;
    const dataAt = at + readWord(args, at + 64);
    const len = readWord(args, dataAt);
    const data = args.slice((dataAt + 32) * 2, (dataAt + 32 + len) * 2);
    if (data.length !== len * 2) throw revert();
    try {
      results.push({ ok: true, data: call(sim, chain, target, data) });
    } catch (err) {
      if (!(err instanceof RpcError)) throw err;
      if (!allowFailure) throw revert('Multicall3: call failed');
      results.push({ ok: false, data: '' });
    }
  }
  return encodeResults(results);
}

function encodeResults(results: Array<{ ok: boolean; data: string }>): string {
  const tuples = results.map(({ ok, data }) => {
    const padded = data.padEnd(Math.ceil(data.length / 64) * 64, '0');
    return word(ok ? 1n : 0n) + word(64n) + word(BigInt(data.length / 2)) + padded;
  });
  let offset = 32 * results.length;
  const heads = tuples.map((t) => {
    const head = word(BigInt(offset));
    offset += t.length / 2;
    return head;
  });
  return word(32n) + word(BigInt(results.length)) + heads.join('') + tuples.join('');
}

export function evmMethods(sim: Simulation, chain: SimEvmChain): Record<string, RpcMethod> {
  return {
    eth_chainId: () => hex(CHAIN_IDS[chain]),
    net_version: () => String(CHAIN_IDS[chain]),
    eth_blockNumber: () => hex(Math.floor(sim.now() / 1000 / BLOCK_SECONDS[chain])),
    eth_getBalance: (params) => hex(sim.evmBalance(addressParam(params[0], 0), chain, null)),
    eth_call: (params) => {
      const tx = params[0] as { to?: unknown; data?: unknown; input?: unknown } | null;
      if (!tx || typeof tx !== 'object') throw invalidParams('invalid argument 0: a call object is required');
      const to = addressParam(tx.to, 0);
      const input = tx.data ?? tx.input ?? '0x';
      if (typeof input !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(input)) {
        throw invalidParams('invalid argument 0: data is not hex');
      }
      return `0x${call(sim, chain, to, input.slice(2).toLowerCase())}`;
    },
  };
}
