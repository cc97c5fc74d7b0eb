// Fixtures of the SuperAgent service tests (test/service: superagents, agent-config, agent-chat,
// access): keys, a service per test (or per describe), launch and read helpers, and independent
// checks of what the service sends (docs/api.md, Endpoints and Errors).
import { STATUS_CODES } from 'node:http';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { ServerOptions } from '../../src/server/index.js';
import { startTestService, type CallResult, type TestService } from './service.js';
import { stopService } from './service-support.js';

export const KEY_A = 'sa_sk_' + 'Aa1Bb2Cc3Dd4Ee5Ff6Gg7Hh8Ii9Jj0Kk'.slice(0, 32);
export const KEY_B = 'sa_sk_' + 'Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp'.slice(0, 32);
export const UNKNOWN_KEY = 'sa_sk_' + 'M'.repeat(32);

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,3})?Z$/;
export const PROVIDER_MESSAGE = 'model_provider must be one of: openai, anthropic, xai, openrouter, venice';
export const VALID_BOT_TOKEN = '7123456789:AAHk3_x-ZyQw9vLmN0pRsTuVwXyZaBcDeFg';
export const SOUL_LIMIT = 256 * 1024;
/** the hosted `SuperAgentSummary`, in its order */
export const RECORD_KEYS = ['agent_id', 'name', 'description', 'status', 'model', 'created_at'];
/** what every launch here sends besides its name: both are required (hosted-openapi.json) */
export const MODEL = { model: 'gpt-4o', model_provider: 'openai' };
export const SKILL_CATALOGUE = [
  'hyperliquid',
  'polymarket',
  'polymarket-deep-research',
  'evm-wallet',
  'solana-wallet',
  'solana-swap',
  'portfolio-tracker',
  'chain-registry',
  'market-intel',
];

export interface Launched {
  agent_id: string;
  name: string;
  bot_username: string | null;
  wallet_address: string;
  status: string;
}

/**
 * Starts a service (keys A and B) for the enclosing describe and closes it, data dir and all,
 * afterwards. Only for describes whose tests share nothing but the service: tests that count
 * agents, or rely on an agent's state, take `useServicePerTest`.
 */
export function useService(options: Partial<ServerOptions> = {}): () => TestService {
  let service: TestService | undefined;
  beforeAll(async () => {
    service = await startTestService({ keys: [KEY_A, KEY_B], ...options });
  });
  afterAll(() => stopService(service));
  return () => service!;
}

/**
 * A fresh service (keys A and B, an empty data dir) before every test of the enclosing describe,
 * closed and removed after it, so no test sees another's agents, sessions or agent limit. Its
 * beforeEach runs before the describe's own (registered later), so those can launch on it.
 */
export function useServicePerTest(options: Partial<ServerOptions> = {}): () => TestService {
  let service: TestService | undefined;
  beforeEach(async () => {
    service = await startTestService({ keys: [KEY_A, KEY_B], ...options });
  });
  afterEach(async () => {
    const done = service;
    service = undefined;
    await stopService(done);
  });
  return () => {
    if (!service) throw new Error('useServicePerTest: no service outside a test (a beforeAll cannot use it)');
    return service;
  };
}

export async function launch(
  svc: TestService,
  body: Record<string, unknown> = {},
  key: string = KEY_A,
): Promise<Launched> {
  const res = await svc.call('POST', '/v1/superagents', { body: { name: 'Test Agent', ...MODEL, ...body }, key });
  expect(res.status, res.text).toBe(200);
  return res.json as Launched;
}

/** The list, which must be exactly `{ agents: [...] }`. */
export async function listAgents(svc: TestService, key: string = KEY_A): Promise<any[]> {
  const res = await svc.call('GET', '/v1/superagents', { key });
  expect(res.status, res.text).toBe(200);
  expect(Object.keys(res.json)).toEqual(['agents']);
  expect(Array.isArray(res.json.agents)).toBe(true);
  return res.json.agents as any[];
}

export async function getJson(svc: TestService, path: string, key: string = KEY_A): Promise<any> {
  const res = await svc.call('GET', path, { key });
  expect(res.status, `GET ${path}: ${res.text}`).toBe(200);
  return res.json;
}

export const agentPath = (id: string, suffix = '') => `/v1/superagents/${id}${suffix}`;
export const files = (svc: TestService, id: string, key?: string) => getJson(svc, agentPath(id, '/files'), key);

export async function chat(
  svc: TestService,
  id: string,
  body: Record<string, unknown>,
  key: string = KEY_A,
): Promise<CallResult> {
  return svc.call('POST', agentPath(id, '/chat'), { body, key });
}

/** An error answer exactly as docs/api.md (Errors) describes it: `{ statusCode, message, error }`, nothing else. */
export function expectError(res: CallResult, status: number, message: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json\b/);
  expect(res.json).toEqual({ statusCode: status, message, error: STATUS_CODES[status] });
}

/** EIP-55, computed here rather than trusted from the service. */
function eip55(address: string): string {
  const lower = address.slice(2).toLowerCase();
  const hash = Buffer.from(keccak_256(new TextEncoder().encode(lower))).toString('hex');
  return '0x' + [...lower].map((c, i) => (parseInt(hash[i]!, 16) >= 8 ? c.toUpperCase() : c)).join('');
}

export function expectEvmAddress(address: unknown): void {
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  expect(address).toBe(eip55(address as string));
}

/** Base58 (Bitcoin alphabet) decoder, independent of the service's library. */
export function base58Decode(text: string): Uint8Array {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let n = 0n;
  for (const c of text) {
    const digit = alphabet.indexOf(c);
    if (digit < 0) throw new Error(`not base58: ${c}`);
    n = n * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (n > 0n) {
    bytes.unshift(Number(n % 256n));
    n /= 256n;
  }
  for (const c of text) {
    if (c !== '1') break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

export const memoryLines = (memory: string) => memory.split('\n').filter((l) => l.startsWith('- '));
export const utcDay = () => new Date().toISOString().slice(0, 10);

/**
 * Every route that acts on one agent, with a body that would be accepted on a live running agent
 * of the caller's own. In this order they all succeed on such an agent (pause before resume,
 * DELETE last).
 */
export const AGENT_ROUTES: Array<{ method: string; suffix: string; body?: Record<string, unknown> }> = [
  { method: 'GET', suffix: '' },
  { method: 'POST', suffix: '/pause' },
  { method: 'POST', suffix: '/resume' },
  { method: 'POST', suffix: '/restart' },
  { method: 'POST', suffix: '/chat', body: { message: 'How is the SOL market today?' } },
  { method: 'POST', suffix: '/chat', body: { message: 'Stream me a BTC update', stream: true } },
  { method: 'PUT', suffix: '/profile', body: { name: 'Renamed Agent', description: 'changed' } },
  { method: 'PUT', suffix: '/soul', body: { soul_md: '# Intruder\n\nYou are someone else.\n' } },
  { method: 'PUT', suffix: '/model', body: { model: 'gpt-4o', model_provider: 'openai' } },
  { method: 'GET', suffix: '/skills' },
  { method: 'PUT', suffix: '/skills', body: { disabled: ['polymarket'] } },
  { method: 'GET', suffix: '/files' },
  { method: 'GET', suffix: '/wallet' },
  { method: 'GET', suffix: '/health' },
  { method: 'DELETE', suffix: '' },
];
