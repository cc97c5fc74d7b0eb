// Proves that a command sent no request: with the rate limit on, every request the service sees
// lowers `x-ratelimit-remaining-minute` by one, so two probes one request apart differ by exactly one.
import type { TestService } from './service.js';

/** The rate limit for services used with requestProbe: high enough never to bite. */
export const PROBE_RATE_LIMIT = 100_000;

export interface RequestProbe {
  /** Requests the service saw from this key since the last probe, the probe's own excluded; and the agent list. */
  since(): Promise<{ requests: number; agents: unknown[] }>;
}

export async function requestProbe(service: TestService): Promise<RequestProbe> {
  const look = async () => {
    const r = await service.call('GET', '/v1/superagents');
    const remaining = Number(r.headers.get('x-ratelimit-remaining-minute'));
    if (!Number.isFinite(remaining))
      throw new Error('start the service with rateLimit: PROBE_RATE_LIMIT to count requests');
    return { remaining, agents: (r.json as { agents: unknown[] }).agents };
  };
  let last = (await look()).remaining;
  return {
    async since() {
      const now = await look();
      const requests = last - now.remaining - 1;
      last = now.remaining;
      return { requests, agents: now.agents };
    },
  };
}
