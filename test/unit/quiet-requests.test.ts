// Requests made on Tab, while the line is being typed, show no waiting spinner: its line would be
// drawn over the prompt and erased with it (attack review: `/enable hy` then Tab left `perliquid`).
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { superagents } from '../../src/api/superagents.js';

const ID = '6f1c2d3e-4a5b-4c6d-8e7f-001122334455';

function recordingClient(seen: Array<Record<string, unknown>>): ApiClient {
  return {
    json: async (opts: Record<string, unknown>) => {
      seen.push(opts);
      return { agent_id: ID, skills: [{ name: 'hyperliquid', enabled: false }] };
    },
  } as unknown as ApiClient;
}

describe('the skills of an agent', () => {
  it('quiet (a Tab completion): asked without the waiting spinner; otherwise with it', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const client = recordingClient(seen);
    await superagents.skills(client, ID, { quiet: true });
    await superagents.skills(client, ID);
    expect(seen.map((o) => o.showWaiting)).toEqual([false, undefined]);
    expect(seen.every((o) => o.method === 'GET' && o.path === `/v1/superagents/${ID}/skills`)).toBe(true);
  });
});
