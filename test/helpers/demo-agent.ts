// A service per test with one live agent named demo, the requests of its launch already read off, so a
// test counts only the requests its own command sends.
import { beforeEach } from 'vitest';
import type { perTest } from './service-support.js';
import { launchAgent, type TestService, UNFUNDED } from './service.js';

/** Before each test: a service from `scratch` with demo launched, handed to `set` with demo's id. */
export function eachWithDemo(
  scratch: ReturnType<typeof perTest>,
  set: (service: TestService, demo: string) => void,
): void {
  beforeEach(async () => {
    const service = await scratch.service(UNFUNDED); // for tests not about money: demo holds nothing
    const demo = (await launchAgent(service, { name: 'demo' })).agent_id;
    service.cliRequests();
    set(service, demo);
  });
}
