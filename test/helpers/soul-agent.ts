// What the soul tests share: one service with an agent `demo` whose soul.md is put back to `start`
// before each test (and the exchanges cleared), so no test depends on what another one uploaded.
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { stopService } from './service-support.js';
import { launchAgent, startTestService, type TestService } from './service.js';

export interface SoulAgent {
  service: TestService;
  demo: string;
  setSoul(soul: string): Promise<void>;
}

export function useSoulAgent(start: string): SoulAgent {
  const agent = {
    service: undefined as unknown as TestService,
    demo: '',
    async setSoul(soul: string): Promise<void> {
      const r = await agent.service.call('PUT', `/v1/superagents/${agent.demo}/soul`, { body: { soul_md: soul } });
      expect(r.status, r.text).toBe(200);
    },
  };
  beforeAll(async () => {
    agent.service = await startTestService();
    agent.demo = (await launchAgent(agent.service, { name: 'demo', soul_md: start })).agent_id;
  });
  afterAll(async () => {
    await stopService(agent.service);
  });
  beforeEach(async () => {
    await agent.setSoul(start);
    agent.service.exchanges.splice(0);
  });
  return agent;
}
