// Test helpers for the simulated chains (src/server/sim): a clock the test moves, and callers for
// the /sim routes, which need no key.
import net from 'node:net';
import { expect } from 'vitest';
import { launchAgent, type TestService } from './service.js';
import { agentPath } from './superagent-fixtures.js';

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

/**
 * An agent launched with every skill on, the hyperliquid one too (it trades as the clock moves), but
 * polymarket: its bets would move the agent's polygon USDC.e (withPolymarket turns that one on too).
 */
export function withHyperliquid(svc: TestService, name = 'Perp Trader') {
  return withSkills(svc, name, ['polymarket']);
}

/** An agent launched with every skill on: it trades perps and bets on the simulated Polymarket. */
export function withPolymarket(svc: TestService, name = 'Bettor') {
  return withSkills(svc, name, []);
}

async function withSkills(svc: TestService, name: string, disabled: string[]) {
  const agent = await launchAgent(svc, { name });
  const res = await svc.call('PUT', `${agentPath(agent.agent_id)}/skills`, { body: { disabled } });
  expect(res.status, res.text).toBe(200);
  return agent;
}

/** Moves the clock `every` steps at a time until the account holds a position (a bounded number of tries). */
export async function untilPositions(
  svc: TestService,
  clock: ReturnType<typeof fakeClock>,
  user: string,
  every = 120,
): Promise<any> {
  for (let i = 0; i < 50; i++) {
    clock.advance(every);
    const state = await hlInfo(svc, 'clearinghouseState', user);
    if (state.assetPositions.length > 0) return state;
  }
  throw new Error('no position opened in 100 simulated hours');
}

/** A loopback URL where nothing listens. */
export async function closedPortUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
