// The EVM reader against a hostile JSON-RPC stand-in on loopback: every odd answer (a bad hex, one
// too long, a number, an error object, too big, too slow, a Multicall3 answer that lies) makes the
// read fail with one line naming the chain and the host. None hangs, none gives a zero row.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeFunctionResult, multicall3Abi, type Hex } from 'viem';
import { readEvm } from '../../src/api/money/evm.js';
import { createSourceHttp, type SourceHttp } from '../../src/api/money/source-http.js';
import { EVM_TOKENS } from '../../src/api/money/tokens.js';
import { failure, httpHarness } from '../helpers/http-scripted.js';

const HOLDER = '0x7e57000000000000000000000000000000000001';
const WORD = `0x${'0'.repeat(63)}1`;
const harness = httpHarness();
let http: SourceHttp;

beforeEach(() => {
  http = createSourceHttp({ timeoutMs: 1_000, maxBytes: 64 * 1024 });
});
afterEach(() => http.close());

type Reply = Record<string, unknown> | string | null;

/**
 * A polygon node answering eth_chainId right (unless `chainId` says otherwise), and `reply` (its
 * JSON-RPC fields, or a raw body; null: no answer at all) to the first request it is given.
 */
async function standIn(method: string, reply: Reply, chainId: Reply = { result: '0x89' }) {
  return harness.scripted((_req, res, seen) => {
    const asked = JSON.parse(seen.body) as { id: number; method: string };
    const answer = asked.method === 'eth_chainId' ? chainId : asked.method === method ? reply : { result: WORD };
    if (answer === null) return; // left hanging
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(typeof answer === 'string' ? answer : JSON.stringify({ jsonrpc: '2.0', id: asked.id, ...answer }));
  });
}

async function readFails(url: string, multicall = false): Promise<string> {
  const err = await failure(readEvm('polygon', url, HOLDER, http.json, undefined, { multicall }));
  const message = String(err.message);
  expect(message).not.toContain('\n');
  expect(message.length).toBeLessThan(240);
  expect(message).toContain(`polygon: ${new URL(url).host}`);
  return message;
}

const aggregate = (results: Array<{ success: boolean; returnData: Hex }>) =>
  encodeFunctionResult({ abi: multicall3Abi, functionName: 'aggregate3', result: results });

describe('readEvm refuses odd answers', () => {
  it.each([
    ['a hex with letters past f', { result: '0xZZ' }],
    ['10 KB of hex', { result: `0x${'f'.repeat(10_240)}` }],
    ['more than 256 bits', { result: `0x1${'0'.repeat(64)}` }],
    ['a JSON number', { result: 12345 }],
    ['null', { result: null }],
    ['neither a result nor an error', {}],
    ['an error object', { error: { code: -32000, message: 'header not found\nretry later' } }],
  ])('a balance that is %s', async (_name, reply) => {
    const { url } = await standIn('eth_getBalance', reply);
    expect(await readFails(url)).toMatch(/balance|error|answer/);
  });

  it('an error object, its message on one line', async () => {
    const { url } = await standIn('eth_getBalance', { error: { code: -32000, message: 'header not found\nretry' } });
    expect(await readFails(url)).toContain('-32000 header not found retry');
  });

  it.each([
    ['empty', { result: '0x' }],
    ['two words', { result: WORD + WORD.slice(2) }],
    ['an odd number of digits', { result: '0x123' }],
  ])('a token balance that is %s', async (_name, reply) => {
    const { url } = await standIn('eth_call', reply);
    await readFails(url);
  });

  it.each([
    ['not JSON', 'not json'],
    ['a batch array', '[{"jsonrpc":"2.0","id":1,"result":"0x1"}]'],
    ['larger than the limit', JSON.stringify({ jsonrpc: '2.0', id: 2, result: `0x${'1'.repeat(100_000)}` })],
  ])('an answer that is %s', async (_name, body) => {
    const { url } = await standIn('eth_getBalance', body);
    await readFails(url);
  });

  it('an answer that never comes', async () => {
    const { url } = await standIn('eth_getBalance', null);
    expect(await readFails(url)).toMatch(/did not answer/);
  });

  it.each([
    ['not hex', { result: 'banana' }],
    ['empty', { result: '0x' }],
  ])('a chain id that is %s', async (_name, chainId) => {
    const { url } = await standIn('eth_getBalance', { result: WORD }, chainId);
    await readFails(url);
  });

  it.each([
    ['an aggregate3 answer that is not ABI', { result: `0x${'ab'.repeat(40)}` }],
    ['a failed balanceOf', { result: aggregate(fill({ success: false, returnData: '0x' })) }],
    ['a balanceOf of 2 bytes', { result: aggregate(fill({ success: true, returnData: '0x1234' })) }],
    ['fewer results than calls', { result: aggregate([{ success: true, returnData: WORD as Hex }]) }],
  ])('with Multicall3, %s', async (_name, reply) => {
    const { url } = await standIn('eth_call', reply);
    await readFails(url, true);
  });
});

/** one result per call (the native balance, then each token), the last one `last` */
function fill(last: { success: boolean; returnData: Hex }) {
  const n = EVM_TOKENS.polygon.length;
  return [...Array.from({ length: n }, () => ({ success: true, returnData: WORD as Hex })), last];
}

describe('readEvm refuses an address', () => {
  it('that is not an EVM address, asking nothing', async () => {
    const { url, requests } = await standIn('eth_getBalance', { result: WORD });
    const err = await failure(readEvm('polygon', url, '0x7E57000000000000000000000000000000000001', http.json));
    expect(err.message).toBe('polygon: 0x7E57000000000000000000000000000000000001 is not an EVM address');
    expect(requests).toEqual([]);
  });
});

describe('readEvm leaves nothing behind', () => {
  it('stops when the caller aborts', async () => {
    const { url } = await standIn('eth_getBalance', null);
    const stop = new AbortController();
    const read = readEvm('polygon', url, HOLDER, http.json, stop.signal, { multicall: false });
    setTimeout(() => stop.abort(), 20);
    const err = await failure(read);
    expect(err.name).toBe('AbortError');
  });

  it('ends its other requests once one has failed', async () => {
    const open = new Set<unknown>();
    const { url } = await harness.scripted((req, res, seen) => {
      const asked = JSON.parse(seen.body) as { id: number; method: string; params: Array<{ to?: string }> };
      const reply = (body: unknown) => res.end(JSON.stringify({ jsonrpc: '2.0', id: asked.id, ...(body as object) }));
      if (asked.method === 'eth_chainId') return reply({ result: '0x89' });
      if (asked.method === 'eth_getBalance') return reply({ result: '0xZZ' });
      open.add(res); // the token calls hang until their client gives up
      res.on('close', () => open.delete(res));
    });
    await failure(readEvm('polygon', url, HOLDER, http.json, undefined, { multicall: false }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(open.size).toBe(0);
  });
});
