// The simulation's routes (/sim/…) are read many at a time (a `wallet` reads about fourteen): they are
// outside the API's per-key limit, under a bound of their own per address, so that a busy client can
// starve neither the API nor itself.
import { describe, expect, it } from 'vitest';
import { perTest } from '../helpers/service-support.js';

const t = perTest();
const mids = { body: { type: 'allMids' }, key: null };

describe('the simulation and the rate limit', () => {
  it('/sim/ requests neither count against the API limit nor are refused by it', async () => {
    const svc = await t.service({ rateLimit: 2 });
    for (let i = 1; i <= 5; i++) {
      const r = await svc.call('POST', '/sim/hyperliquid/info', mids);
      expect(r.status, `request ${i}`).toBe(200);
    }
    for (let i = 1; i <= 2; i++) expect((await svc.call('GET', '/v1/superagents')).status).toBe(200);
    expect((await svc.call('GET', '/v1/superagents')).status).toBe(429);
    expect((await svc.call('POST', '/sim/hyperliquid/info', mids)).status).toBe(200);
  });

  it('/sim/ requests have their own bound per address, then 429 with Retry-After', async () => {
    const svc = await t.service({ rateLimit: 0, simRateLimit: 3 });
    for (let i = 1; i <= 3; i++)
      expect((await svc.call('POST', '/sim/solana', { body: {}, key: null })).status).toBe(200);
    const limited = await svc.call('POST', '/sim/hyperliquid/info', mids);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await svc.call('GET', '/v1/superagents')).status).toBe(200);
  });
});
