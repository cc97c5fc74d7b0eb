// guard as a process: --once's exit 10 as a scheduled job sees it, and the watchdog ended by a real
// SIGTERM (exit 0 from its own handler, as systemd stops it). The rest is in test/commands/guard*.test.ts.
import { execa } from 'execa';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli, SOURCES_ON } from '../helpers/cli.js';
import { perTest, stopService } from '../helpers/service-support.js';
import { launchAgent, startTestService, type TestService } from '../helpers/service.js';
import { agentPath } from '../helpers/superagent-fixtures.js';

let service: TestService;
let agentId: string;
const scratch = perTest();

beforeAll(async () => {
  service = await startTestService();
  agentId = (await launchAgent(service, { name: 'demo' })).agent_id;
});
afterAll(async () => {
  await stopService(service);
});

const status = async () => (await service.call('GET', agentPath(agentId))).json.status;

it('--once: an agent below --min-value is paused, one JSON line per event, exit 10', async () => {
  const r = await runCli(['guard', 'demo', '--min-value', '20000', '--once', '--json'], {
    target: service,
    env: SOURCES_ON,
    dataDir: scratch.scratch('superagent-data-'),
  });
  expect([r.exitCode, r.stderr]).toEqual([10, '']);
  const events = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).event);
  expect(events).toEqual(['start', 'breach', 'paused']);
  expect(await status()).toBe('paused');
  await service.call('POST', agentPath(agentId, '/resume'));
});

it('the watchdog ends on SIGTERM with exit 0, by its own handler', async () => {
  const child = execa(process.execPath, [BIN, 'guard', '--all', '--min-value', '1', '--interval', '1'], {
    env: cleanEnv({ target: service, env: SOURCES_ON, dataDir: scratch.scratch('superagent-data-') }),
    extendEnv: false,
    reject: false,
    timeout: 20_000,
    stripFinalNewline: false,
  });
  await new Promise<void>((resolve) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('demo: guarded (running)')) resolve();
    });
  });
  child.kill('SIGTERM');
  const r = await child;
  expect(r.isTerminated).toBe(false);
  expect([r.exitCode, String(r.stderr)]).toEqual([0, 'Stopped\n']);
  expect(await status()).toBe('running');
});
