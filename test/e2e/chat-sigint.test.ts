// Ctrl-C as a real SIGINT to the built binary mid-reply. Everything else of `chat` is tested in
// process (test/commands/chat*.test.ts), where Ctrl-C is FakeSignals; only a real process shows
// that the signal reaches the command's handler (instead of Node's default exit), that the exit code
// is 130, and that the text printed so far is flushed before the process exits.
import { execa } from 'execa';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { perTest, stopService } from '../helpers/service-support.js';
import { launchAgent, startTestService, type TestService } from '../helpers/service.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

let svc: TestService;
let id: string;
const temp = perTest();

beforeAll(async () => {
  // a slow stream: the reply is still coming when the signal is sent
  svc = await startTestService({ tokenDelayMs: 25 });
  id = (await launchAgent(svc, { name: 'slowpoke' })).agent_id;
});
afterAll(async () => {
  await stopService(svc);
});

it('SIGINT mid-reply: exit 130, the text so far kept with a final newline, the stream abandoned', async () => {
  const message = 'give me a long market overview';
  const whole = (await svc.call('POST', `/v1/superagents/${id}/chat`, { body: { message } })).json.content as string;
  svc.exchanges.splice(0);
  const child = execa(process.execPath, [BIN, 'chat', 'slowpoke', message], {
    env: cleanEnv({
      target: svc,
      configDir: temp.scratch('superagent-config-'),
      dataDir: temp.scratch('superagent-data-'),
    }),
    extendEnv: false,
    reject: false,
    input: '',
    stripFinalNewline: false,
    timeout: 30_000,
  });
  // the signal goes once the first piece of the reply is on stdout
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', () => reject(new Error('exited before printing anything')));
  });
  child.kill('SIGINT');
  const r = await child;
  expect(r.exitCode, r.stderr).toBe(130);
  expect(r.stdout.endsWith('\n')).toBe(true);
  const printed = r.stdout.slice(0, -1);
  expect(printed.length).toBeGreaterThan(0);
  expect(printed.length).toBeLessThan(whole.length);
  expect(whole.startsWith(printed)).toBe(true);
  expect(r.stderr).toMatch(new RegExp(`^Session: ${UUID}\\n$`));
  // the connection was dropped mid-stream: the service never got to send its end
  const chats = () => svc.exchanges.filter((e) => e.method === 'POST' && e.path === `/v1/superagents/${id}/chat`);
  await vi.waitFor(() => expect(chats()).toHaveLength(1));
  expect(chats()[0]!.responseBody).not.toContain('[DONE]');
});
