// Edge cases of the service found in review: each test pins one behaviour that once was wrong.
// (The CLI's edge cases: test/commands/edge-cases.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { stopService } from '../helpers/service-support.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await stopService(service);
});

async function launch(name: string): Promise<string> {
  const r = await service.call('POST', '/v1/superagents', {
    body: { name, model: 'gpt-4o', model_provider: 'openai' },
  });
  expect(r.status, r.text).toBe(200);
  return r.json.agent_id as string;
}

describe('the service', () => {
  it('answers 400 to a body that is not JSON on a route that ignores its body, and changes nothing', async () => {
    const id = await launch('strict');
    const r = await service.call('POST', `/v1/superagents/${id}/pause`, {
      rawBody: '{bad',
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(400);
    expect((await service.call('GET', `/v1/superagents/${id}`)).json.status).toBe('running');
  });

  it('gives an injected failure the rate-limit headers', async () => {
    const failing = await startTestService({ rateLimit: 60, faults: { errorRate: 1 } });
    try {
      const r = await failing.call('GET', '/v1/superagents');
      expect([500, 503]).toContain(r.status);
      expect(r.headers.get('x-ratelimit-limit-minute')).toBe('60');
    } finally {
      await stopService(failing);
    }
  });

  it('trims model ids', async () => {
    const r = await service.call('POST', '/v1/superagents', {
      body: { name: 'trim', model: ' gpt-4o ', model_provider: 'openai' },
    });
    expect((await service.call('GET', `/v1/superagents/${r.json.agent_id}`)).json.model).toBe('gpt-4o');
  });

  it('keeps at most 200 sessions per account, dropping the oldest', async () => {
    const own = await startTestService();
    try {
      const first = (await own.call('POST', '/v1/chat', { body: { message: 'hi' } })).json.session_id;
      for (let i = 0; i < 200; i++) await own.call('POST', '/v1/chat', { body: { message: `q${i}` } });
      const again = await own.call('POST', '/v1/chat', { body: { message: 'and?', session_id: first } });
      expect(again.status).toBe(404);
    } finally {
      await stopService(own);
    }
  }, 60_000);
});
