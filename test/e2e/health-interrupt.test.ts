// Ctrl-C on a real process: the one `health --watch` case the commands layer cannot show. There
// FakeSignals stands in for SIGINT; only a separate process shows that the real SIGINT reaches the
// watch's handler (exit 130 from our code, not death by the signal) and that nothing is printed
// on the way out. Everything else about health is in test/commands/health.test.ts.
import { execa } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN, cleanEnv, stdoutShows } from '../helpers/cli.js';
import { perTest, stopService } from '../helpers/service-support.js';
import { launchAgent, startTestService, type TestService } from '../helpers/service.js';

let service: TestService;
const scratch = perTest();

beforeAll(async () => {
  service = await startTestService();
  await launchAgent(service, { name: 'demo' });
});
afterAll(async () => {
  await stopService(service);
});

it('SIGINT ends --watch with exit 130, the checks so far printed', async () => {
  const child = execa(process.execPath, [BIN, 'health', 'demo', '--watch', '1'], {
    env: cleanEnv({
      target: service,
      configDir: scratch.scratch('superagent-config-'),
      dataDir: scratch.scratch('superagent-data-'),
    }),
    extendEnv: false,
    reject: false,
    timeout: 20_000,
    stripFinalNewline: false,
  });
  // press Ctrl-C once the first check is printed (the handler is in place by then)
  await stdoutShows(child, '\thealthy\n');
  child.kill('SIGINT');
  const r = await child;
  expect(r.isTerminated).toBe(false); // ended by our handler, not killed by the signal
  expect(r.exitCode).toBe(130);
  expect(String(r.stdout)).toMatch(/^(\S+\thealthy\n)+$/);
  expect(String(r.stderr)).toBe('');
});
