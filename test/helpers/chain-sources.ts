// The public money sources on loopback, answering from test/fixtures/chains/ (the documented shapes):
//   POST /solana (JSON-RPC), POST /hyperliquid/info, GET /polymarket/positions|value?user=…
// A test may replace any answer (by fixture name) with other JSON, a raw body or an HTTP status.
// Everything is closed after each test; the readers reach it through createSourceHttp.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { createSourceHttp, type SourceHttp } from '../../src/api/money/source-http.js';

const FIXTURES = new URL('../fixtures/chains/', import.meta.url);

/** The two token programs' documented ids, written out here so a wrong id in the reader is caught. */
const TOKEN_PROGRAMS: Record<string, string> = {
  TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA: '',
  TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb: '-token2022',
};

export const SOLANA_OWNER = 'vines1vzrYbzLMRdu58ou5XTby4qAqVRLmqo36NKPTg';
export const EVM_OWNER = '0x56687bf447db6ffa42ffe2204a05edaa20f55839';

/** A fixture's parsed content (a fresh copy each time, so a test may change it). */
export function fixture(name: string): any {
  return JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8'));
}

export type Override = unknown | { status: number; raw?: string };

export interface ChainSources {
  /** base URLs: solana is the RPC URL itself */
  solana: string;
  hyperliquid: string;
  polymarket: string;
  http: SourceHttp;
  /** fixture name → what to answer instead */
  overrides: Map<string, Override>;
  /** the fixture names asked for, in order */
  asked: string[];
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
  return null;
}

/** Call once at the top of a test file; each call of the returned function starts one server. */
export function chainSourcesHarness(): () => Promise<ChainSources> {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (cleanups.length) await cleanups.pop()!();
  });
  return async () => {
    const overrides = new Map<string, Override>();
    const asked: string[] = [];
    const server = http.createServer((req, res) => {
      let text = '';
      req.on('data', (c: Buffer) => (text += c.toString('utf8')));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://x');
        const body = text ? JSON.parse(text) : undefined;
        const name = fixtureFor(req.method ?? 'GET', url, body);
        if (!name) return void res.writeHead(404).end();
        asked.push(name);
        const override = overrides.get(name);
        if (override && typeof override === 'object' && 'status' in override) {
          res.writeHead((override as { status: number }).status, { 'content-type': 'application/json' });
          return void res.end((override as { raw?: string }).raw ?? '');
        }
        const answer = overrides.has(name) ? override : fixture(name);
        if (body?.jsonrpc === '2.0' && answer && typeof answer === 'object') (answer as any).id = body.id;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const sourceHttp = createSourceHttp({ timeoutMs: 5_000 });
    cleanups.push(async () => {
      sourceHttp.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    return {
      solana: `${base}/solana`,
      hyperliquid: `${base}/hyperliquid`,
      polymarket: `${base}/polymarket`,
      http: sourceHttp,
      overrides,
      asked,
    };
  };
}
