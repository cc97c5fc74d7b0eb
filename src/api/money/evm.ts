// What an address holds on one EVM chain: its native coin and each token of tokens.ts, read over the
// chain's public JSON-RPC. viem does the ABI work, through a transport that sends every request with
// the source's JsonRequest (proxies, time-out, size limit) and lets through only answers of the shape
// each method must have: an odd answer makes the whole read fail, never a balance of zero.
import {
  type Address,
  type Hex,
  createPublicClient,
  custom,
  decodeFunctionResult,
  encodeFunctionData,
  erc20Abi,
  formatUnits,
  hexToBigInt,
  isAddress,
  multicall3Abi,
} from 'viem';
import { BadAnswerError, UsageError } from '../../core/errors.js';
import { TimeoutError } from '../errors.js';
import { hostOf } from './source-http.js';
import { EVM_TOKENS, NATIVE_ASSETS, VIEM_CHAINS } from './tokens.js';
import type { EvmChain, Holding, JsonRequest } from './types.js';

export interface ReadEvmOptions {
  /** read through Multicall3 (default: where viem's definition of the chain says it is deployed) */
  multicall?: boolean;
}

/** a chain id: a hex quantity that fits a safe integer */
const CHAIN_ID = /^0x[0-9a-fA-F]{1,13}$/;
/** a balance: a hex quantity of at most 256 bits */
const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/;
/** call data: whole bytes, and no more than a Multicall3 answer for our few calls needs */
const DATA = /^0x(?:[0-9a-fA-F]{2})*$/;
const MAX_DATA_CHARS = 2 + 2 * 64 * 1024;
const WORD_CHARS = 2 + 64;

/** Text a node sent, made fit for a one-line message: no control characters, short. */
function oneLine(text: string, max = 100): string {
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\s]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

const chainNamed = (id: number) => (Object.keys(VIEM_CHAINS) as EvmChain[]).find((c) => VIEM_CHAINS[c].id === id);

export async function readEvm(
  chain: EvmChain,
  url: string,
  address: string,
  json: JsonRequest,
  signal?: AbortSignal,
  options: ReadEvmOptions = {},
): Promise<Holding[]> {
  if (!isAddress(address)) throw new UsageError(`${chain}: ${address} is not an EVM address`);
  const holder: Address = address;
  const host = hostOf(url);
  // once one request has failed, the others are ended with it (and all of them when the caller aborts)
  const failed = new AbortController();
  const ended = signal ? AbortSignal.any([signal, failed.signal]) : failed.signal;
  const refuse = (what: string) => new BadAnswerError(`${chain}: ${host} sent ${what}`);
  // viem wraps what the transport throws in messages of several lines: the first failure is kept to
  // be thrown as it is
  let first: Error | undefined;
  let id = 0;

  const request = async ({ method, params }: { method: string; params?: unknown }): Promise<unknown> => {
    let answer: unknown;
    try {
      answer = await send(method, params);
    } catch (err) {
      throw (first ??= named(err));
    }
    try {
      return checked(method, answer);
    } catch (err) {
      throw (first ??= named(err));
    }
  };

  const send = (method: string, params: unknown) =>
    json({ url, method: 'POST', body: { jsonrpc: '2.0', id: ++id, method, params: params ?? [] }, signal: ended });

  /** the answer's result when it has the shape `method` answers with */
  const checked = (method: string, answer: unknown): unknown => {
    if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) {
      throw refuse(`an answer to ${method} that is not a JSON-RPC object`);
    }
    const { result, error } = answer as { result?: unknown; error?: unknown };
    if (error !== undefined && error !== null) {
      const { code, message } = (typeof error === 'object' ? error : {}) as { code?: unknown; message?: unknown };
      const said = [typeof code === 'number' ? String(code) : '', typeof message === 'string' ? message : '']
        .join(' ')
        .trim();
      throw new BadAnswerError(`${chain}: ${host} answered ${method} with an error${said ? `: ${oneLine(said)}` : ''}`);
    }
    if (result === undefined) throw refuse(`an answer to ${method} with neither a result nor an error`);
    const shape = method === 'eth_chainId' ? CHAIN_ID : method === 'eth_getBalance' ? QUANTITY : DATA;
    if (method !== 'eth_chainId' && method !== 'eth_getBalance' && method !== 'eth_call') {
      throw new Error(`${method} is not asked for by the EVM reader`);
    }
    if (typeof result !== 'string' || result.length > MAX_DATA_CHARS || !shape.test(result)) {
      const what = method === 'eth_chainId' ? 'a chain id' : method === 'eth_getBalance' ? 'a balance' : 'call data';
      throw refuse(`${what} that is not ${method === 'eth_call' ? 'whole hex bytes' : 'a hex number in range'}`);
    }
    return result;
  };

  /** a failure in words naming the chain and host, its class kept for a time-out */
  const named = (err: unknown): Error => {
    if (signal?.aborted || (err instanceof Error && err.message.startsWith(`${chain}: `))) return err as Error;
    const said = oneLine(err instanceof Error ? err.message : String(err), 160);
    const message = said.startsWith(host) ? `${chain}: ${said}` : `${chain}: ${host}: ${said}`;
    return err instanceof TimeoutError ? new TimeoutError(message) : new BadAnswerError(message);
  };

  const balanceOf = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [holder] });
  const tokenCall = (symbol: string) => `${symbol}'s balanceOf`;
  const client = createPublicClient({
    chain: VIEM_CHAINS[chain],
    transport: custom({ request }, { retryCount: 0 }),
  });

  try {
    const served = await client.getChainId();
    if (served !== VIEM_CHAINS[chain].id) {
      const other = chainNamed(served);
      const serves = `${served}${other ? ` (${other})` : ''}`;
      throw new BadAnswerError(
        `${chain}: ${host} serves chain ${serves}, not ${chain} (${VIEM_CHAINS[chain].id});` +
          ` point the ${chain} endpoint at a node of chain ${VIEM_CHAINS[chain].id}`,
      );
    }
    const multicall3 = options.multicall === false ? undefined : VIEM_CHAINS[chain].contracts?.multicall3?.address;
    const units = (multicall3 && (await throughMulticall3(multicall3))) || (await oneByOne());
    return holdings(chain, units);
  } catch (err) {
    failed.abort();
    if (signal?.aborted) throw signal.reason;
    throw first ?? named(err);
  }

  /** one word of call data as a number, refused when it is anything else */
  function word(data: Hex | undefined, what: string): bigint {
    if (data === undefined || data === '0x') throw refuse(`an empty answer to ${what} (no contract there?)`);
    if (data.length !== WORD_CHARS || !DATA.test(data)) {
      throw refuse(`an answer to ${what} that is not one 32-byte word`);
    }
    return hexToBigInt(data);
  }

  /** the native balance, then each token's, one request each (in parallel) */
  async function oneByOne(): Promise<bigint[]> {
    return Promise.all([
      client.getBalance({ address: holder }),
      ...EVM_TOKENS[chain].map(async (t) => {
        const { data } = await client.call({ to: t.address, data: balanceOf });
        return word(data, tokenCall(t.symbol));
      }),
    ]);
  }

  /** the same in one aggregate3 call; undefined when there is no code at the address (then one by one) */
  async function throughMulticall3(at: Address): Promise<bigint[] | undefined> {
    const native = encodeFunctionData({ abi: multicall3Abi, functionName: 'getEthBalance', args: [holder] });
    const calls = [
      { target: at, allowFailure: true, callData: native },
      ...EVM_TOKENS[chain].map((t) => ({ target: t.address, allowFailure: true, callData: balanceOf })),
    ];
    const labels = [`Multicall3's getEthBalance`, ...EVM_TOKENS[chain].map((t) => tokenCall(t.symbol))];
    const aggregate3 = encodeFunctionData({ abi: multicall3Abi, functionName: 'aggregate3', args: [calls] });
    const { data } = await client.call({ to: at, data: aggregate3 });
    if (data === undefined) return undefined;
    let results: readonly { success: boolean; returnData: Hex }[];
    try {
      results = decodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', data });
    } catch {
      throw refuse('a Multicall3 answer that is not ABI-encoded results');
    }
    if (results.length !== calls.length) throw refuse(`${results.length} Multicall3 results for ${calls.length} calls`);
    return results.map((r, i) => {
      if (!r.success) throw refuse(`a failure of ${labels[i]} through Multicall3`);
      return word(r.returnData, labels[i]!);
    });
  }
}

/** The rows for what is held, the native coin first. A zero balance has no row: a wallet lists what it holds,
 * and a failed read fails as a whole before this (so a missing row always means a balance read as zero). */
function holdings(chain: EvmChain, units: bigint[]): Holding[] {
  const assets = [NATIVE_ASSETS[chain], ...EVM_TOKENS[chain]];
  return assets.flatMap((a, i) => {
    const held = units[i]!;
    return held === 0n ? [] : [{ chain, asset: a.symbol, amount: formatUnits(held, a.decimals), priceKey: a.priceKey }];
  });
}
