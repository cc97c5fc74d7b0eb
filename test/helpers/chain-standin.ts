// The public money sources on one loopback server, answering from test/fixtures/chains/ (the documented
// shapes), for the readers' tests (chain-sources.ts closes it after each test) and the wallet bench:
//   POST /solana (JSON-RPC), POST /hyperliquid/info, GET /polymarket/positions|value?user=…
//   POST /evm/<chain> (JSON-RPC: eth_chainId, eth_getBalance, eth_call balanceOf and Multicall3 aggregate3)
// Any answer may be replaced (by fixture name, "evm-<method>" for EVM) with other JSON, a raw body and a
// status, or none at all; every answer may come after a delay; every request is counted.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeFunctionData, encodeFunctionResult, erc20Abi, multicall3Abi, numberToHex, type Hex } from 'viem';
import { EVM_TOKENS } from '../../src/api/money/tokens.js';
import { EVM_CHAINS, type EvmChain } from '../../src/api/money/types.js';

const FIXTURES = new URL('../fixtures/chains/', import.meta.url);
export const MULTICALL3 = '0xca11bde05977b3631167028862be2a173976ca11';

/** The two token programs' documented ids, written out here so a wrong id in the reader is caught. */
const TOKEN_PROGRAMS: Record<string, string> = {
  TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA: '',
  TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb: '-token2022',
};

/** The chains' ids, written out here too. */
const CHAIN_IDS: Record<EvmChain, number> = {
  ethereum: 1,
  arbitrum: 42161,
  base: 8453,
  polygon: 137,
  bsc: 56,
  optimism: 10,
};

/** What the EVM stand-in holds on every chain: 0.5 of the native coin and 2.5 of the first token. */
export const EVM_NATIVE_WEI = 5n * 10n ** 17n;
const firstTokenUnits = (chain: EvmChain) => 25n * 10n ** BigInt(EVM_TOKENS[chain][0]!.decimals - 1);

/** A fixture's parsed content (a fresh copy each time, so a test may change it). */
export function fixture(name: string): any {
  return JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8'));
}

/**
 * Other JSON; or a status and a raw body; or `hang`: no answer until the client gives up; or a function of
 * the request's body giving any of those (an answer per user).
 */
export type Override = unknown | { status: number; raw?: string } | { hang: true } | ((body: any) => unknown);

export interface ChainStandIn {
  /** solana is the RPC URL itself; evm(chain) the chain's */
  solana: string;
  hyperliquid: string;
  polymarket: string;
  evm(chain: EvmChain): string;
  /** fixture name → what to answer instead */
  overrides: Map<string, Override>;
  /** the fixture names asked for, in order */
  asked: string[];
  /** requests per source ("solana", "hyperliquid", "polymarket", "evm/base") */
  counts: Map<string, number>;
  /** for each hanging answer the client gave up on: how many requests had arrived by then */
  abandonedAt: number[];
  close(): Promise<void>;
}

function fixtureFor(method: string, url: URL, body: any): string | null {
  if (method === 'POST' && url.pathname === '/solana') {
    if (body?.method === 'getBalance') return 'solana-getBalance';
    if (body?.method === 'getTokenAccountsByOwner') {
      const suffix = TOKEN_PROGRAMS[body.params?.[1]?.programId];
      return suffix === undefined ? null : `solana-getTokenAccountsByOwner${suffix}`;
    }
  }
  if (method === 'POST' && url.pathname === '/hyperliquid/info' && typeof body?.type === 'string') {
    return `hyperliquid-${body.type}`;
  }
  if (method === 'GET' && url.pathname.startsWith('/polymarket/') && url.searchParams.get('user')) {
    return `polymarket-${url.pathname.slice('/polymarket/'.length)}`;
  }
  if (method === 'POST' && url.pathname.startsWith('/evm/') && typeof body?.method === 'string') {
    return `evm-${body.method}`;
  }
  return null;
}

/** One call's answer: balanceOf the first token, or Multicall3's getEthBalance. */
function callResult(chain: EvmChain, to: string, data: Hex): Hex {
  if (to === MULTICALL3) {
    const { functionName, args } = decodeFunctionData({ abi: multicall3Abi, data });
    if (functionName === 'getEthBalance')
      return encodeFunctionResult({ abi: multicall3Abi, functionName, result: EVM_NATIVE_WEI });
    if (functionName !== 'aggregate3') throw new Error(`no ${functionName} here`);
    const results = (args[0] as readonly { target: string; callData: Hex }[]).map((c) => ({
      success: true,
      returnData: callResult(chain, c.target.toLowerCase(), c.callData),
    }));
    return encodeFunctionResult({ abi: multicall3Abi, functionName, result: results });
  }
  decodeFunctionData({ abi: erc20Abi, data }); // a call that is not an ERC-20 one fails here
  const first = EVM_TOKENS[chain][0]!.address.toLowerCase() === to;
  return encodeFunctionResult({
    abi: erc20Abi,
    functionName: 'balanceOf',
    result: first ? firstTokenUnits(chain) : 0n,
  });
}

function evmAnswer(chain: EvmChain, body: any): unknown {
  const { method, params } = body;
  if (method === 'eth_chainId') return { result: numberToHex(CHAIN_IDS[chain]) };
  if (method === 'eth_getBalance') return { result: numberToHex(EVM_NATIVE_WEI) };
  if (method === 'eth_call') return { result: callResult(chain, String(params[0].to).toLowerCase(), params[0].data) };
  return { error: { code: -32601, message: 'method not found' } };
}

function answerOf(name: string, url: URL, body: any): unknown {
  if (!name.startsWith('evm-')) return fixture(name);
  const chain = url.pathname.slice('/evm/'.length) as EvmChain;
  if (!EVM_CHAINS.includes(chain)) return { error: { code: -32601, message: 'no such chain' } };
  return { jsonrpc: '2.0', ...(evmAnswer(chain, body) as object) };
}

export async function startChainStandIn(options: { delayMs?: number } = {}): Promise<ChainStandIn> {
  const overrides = new Map<string, Override>();
  const asked: string[] = [];
  const counts = new Map<string, number>();
  const abandonedAt: number[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const body = text ? JSON.parse(text) : undefined;
      const name = fixtureFor(req.method ?? 'GET', url, body);
      if (!name) return void res.writeHead(404).end();
      asked.push(name);
      const source = url.pathname
        .split('/')
        .slice(1, name.startsWith('evm-') ? 3 : 2)
        .join('/');
      counts.set(source, (counts.get(source) ?? 0) + 1);
      const given = overrides.get(name);
      const override = typeof given === 'function' ? given(body) : given;
      if (override && typeof override === 'object' && 'hang' in override) {
        res.on('close', () => abandonedAt.push(asked.length));
        return;
      }
      const send = () => {
        if (override && typeof override === 'object' && 'status' in override) {
          res.writeHead((override as { status: number }).status, { 'content-type': 'application/json' });
          return void res.end((override as { raw?: string }).raw ?? '');
        }
        const answer = overrides.has(name) && override !== undefined ? override : answerOf(name, url, body);
        if (body?.jsonrpc === '2.0' && answer && typeof answer === 'object') (answer as any).id = body.id;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer));
      };
      if (options.delayMs) setTimeout(send, options.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    solana: `${base}/solana`,
    hyperliquid: `${base}/hyperliquid`,
    polymarket: `${base}/polymarket`,
    evm: (chain) => `${base}/evm/${chain}`,
    overrides,
    asked,
    counts,
    abandonedAt,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
