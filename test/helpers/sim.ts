// Test helpers for the simulated chains (src/server/sim): a clock the test moves, and callers for
// the /sim routes, which need no key.
import { expect } from 'vitest';
import type { TestService } from './service.js';

/** One simulated step (a market minute) of the service clock. */
export const STEP = 60_000;

/** A service clock that moves only when the test says: `clock.now` for the service, `advance(steps)`. */
export function fakeClock(start = Date.UTC(2026, 0, 5, 12)) {
  let t = start;
  return {
    now: () => t,
    advance(steps: number) {
      t += steps * STEP;
    },
  };
}

export async function hlInfo(svc: TestService, type: string, user?: string): Promise<any> {
  const body = user === undefined ? { type } : { type, user };
  const res = await svc.call('POST', '/sim/hyperliquid/info', { body, key: null });
  expect(res.status, res.text).toBe(200);
  return res.json;
}

/** One JSON-RPC call to a simulated chain (`/sim/evm/base`, `/sim/solana`): the whole answer. */
export async function rpc(svc: TestService, path: string, method: string, params: unknown[] = []): Promise<any> {
  const res = await svc.call('POST', path, { body: { jsonrpc: '2.0', id: 7, method, params }, key: null });
  expect(res.status, res.text).toBe(200);
  expect(res.json.jsonrpc).toBe('2.0');
  expect(res.json.id).toBe(7);
  return res.json;
}
