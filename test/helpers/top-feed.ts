// A fleet feed (src/cli/top/feed.ts) on a Context pointed at a test service, with a fake clock that
// the budget, the service's rate limiter and the test share.
import { KillSwitchPacer } from '../../src/api/rate-budget.js';
import { openApi } from '../../src/cli/commands/shared/connect.js';
import { Feed } from '../../src/cli/top/feed.js';
import { bareContext, Capture, FakeClock, testEnv } from './context.js';
import type { TestService } from './service.js';

export const TOP_RETRY = { rateLimitRetries: 0, retries: 0 };

export async function feedOn(
  svc: TestService,
  o: { budget?: number; intervalMs?: number; env?: Record<string, string>; clock?: FakeClock } = {},
) {
  const clock = o.clock ?? new FakeClock();
  const ctx = bareContext({
    stdout: new Capture(),
    stderr: new Capture(),
    env: testEnv(svc, o.env),
    clock,
    openApi,
  });
  const pacer = new KillSwitchPacer(o.budget ?? 30, clock);
  const budget = pacer.reads;
  const api = await ctx.api({ pacer, retry: TOP_RETRY, quiet: true });
  const feed = new Feed(ctx, api, { budget, intervalMs: o.intervalMs ?? 5_000 });
  return { feed, clock, budget, pacer, ctx };
}
