// The public surface of CLI.md that every command shares: exit codes, the embedded default,
// colour and quiet, closed pipes, help and version.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli as runCliIn, type RunOptions } from '../helpers/cli.js';
import { launchAgent, startTestService, type TestService } from '../helpers/service.js';
import { perTest, stopService } from '../helpers/service-support.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await stopService(service);
});

const scratch = perTest();
/** Config and data dirs of the test's own, removed after it. */
const dirs = () => ({ configDir: scratch.scratch('superagent-config-'), dataDir: scratch.scratch('superagent-data-') });
const runCli = (args: string[], opts: RunOptions = {}) => runCliIn(args, { ...dirs(), ...opts });

async function launch(name: string): Promise<string> {
  return (await launchAgent(service, { name })).agent_id;
}

/** A service that always answers with one status and body, to meet codes the embedded one gives rarely. */
async function fixedService(status: number, body: unknown, headers: Record<string, string> = {}) {
  const server = http.createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe('exit codes (CLI.md)', () => {
  it('0: success', async () => {
    const r = await runCli(['list'], { target: service });
    expect(r.exitCode).toBe(0);
  });

  // exit 1 (a bug) has no honest trigger from outside; test/unit/exit-codes.test.ts covers its mapping and message

  it('7, not 1: a service answering 200 with something that is not an agent record', async () => {
    const weird = await fixedService(200, 'not a record');
    try {
      const key = 'k'.repeat(20);
      const one = await runCli(['get', '00000000-0000-4000-8000-000000000000'], { target: { url: weird.url, key } });
      expect(one.exitCode).toBe(7);
      expect(one.stderr).toContain('not an agent record');
      expect((await runCli(['list'], { target: { url: weird.url, key } })).exitCode).toBe(7);
    } finally {
      await weird.close();
    }
  });

  it('2: usage, before any request', async () => {
    const r = await runCli(['get'], { target: service });
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect((await runCli(['frobnicate'], { target: service })).exitCode).toBe(2);
    expect((await runCli(['list', '--timeout', 'soon'], { target: service })).exitCode).toBe(2);
  });

  it('3: authentication (a wrong key; no key for a configured URL)', async () => {
    const wrong = await runCli(['list'], { target: { url: service.url, key: 'sa_sk_' + 'x'.repeat(32) } });
    expect(wrong.exitCode).toBe(3);
    expect(wrong.stderr).toContain('Invalid or revoked API key');
    const none = await runCli(['list'], { env: { SUPERAGENT_BASE_URL: service.url } });
    expect(none.exitCode).toBe(3);
    expect(none.stderr).toMatch(/login|SUPERAGENT_API_KEY/);
  });

  it('4: not found (unknown uuid, reference matching none)', async () => {
    expect((await runCli(['get', '00000000-0000-4000-8000-000000000000'], { target: service })).exitCode).toBe(4);
    expect((await runCli(['get', 'no-such-agent'], { target: service })).exitCode).toBe(4);
  });

  it('5: rate limited after the allowed retries', async () => {
    const limited = await fixedService(429, { statusCode: 429, message: 'Rate limit exceeded', retryAfter: 61 }, { 'retry-after': '61' });
    try {
      const r = await runCli(['list'], { target: { url: limited.url, key: 'k'.repeat(20) } });
      expect(r.exitCode).toBe(5);
      expect(r.stderr).toContain('Rate limit exceeded');
    } finally {
      await limited.close();
    }
  });

  it('6: conflict (pausing an agent that is not running)', async () => {
    const id = await launch('conflicted');
    expect((await runCli(['pause', id], { target: service })).exitCode).toBe(0);
    const again = await runCli(['pause', id], { target: service });
    expect(again.exitCode).toBe(6);
    expect(again.stderr).toContain('Agent is not running');
  });

  it('7: service or network (connection refused; 5xx)', async () => {
    const refused = await runCli(['list'], { target: { url: 'http://127.0.0.1:9', key: 'k'.repeat(20) } });
    expect(refused.exitCode).toBe(7);
    const failing = await startTestService({ faults: { errorRate: 1 } });
    try {
      expect((await runCli(['list'], { target: failing })).exitCode).toBe(7);
    } finally {
      await stopService(failing);
    }
  });

  it('8: unhealthy', async () => {
    const sick = await startTestService({ faults: { unhealthy: true } });
    try {
      const { agent_id } = await launchAgent(sick, { name: 'sick' });
      expect((await runCli(['health', agent_id], { target: sick })).exitCode).toBe(8);
    } finally {
      await stopService(sick);
    }
  });

  it('130: interrupted by Ctrl-C', async () => {
    const id = await launch('watched');
    const child = execa(process.execPath, [BIN, 'health', id, '--watch', '1'], {
      env: cleanEnv({ target: service, ...dirs() }),
      extendEnv: false,
      reject: false,
    });
    await new Promise((r) => setTimeout(r, 1200));
    child.kill('SIGINT');
    expect((await child).exitCode).toBe(130);
  });
});

describe('with nothing configured: the embedded local service', () => {
  it('launches and lists in the data dir, and several processes at once lose nothing', async () => {
    const { dataDir, configDir } = dirs();
    const names = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
    const runs = await Promise.all(names.map((n) => runCli(['launch', '--name', n], { dataDir, configDir })));
    for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
    const list = await runCli(['list', '--json'], { dataDir, configDir });
    expect(list.exitCode).toBe(0);
    const { agents } = JSON.parse(list.stdout) as { agents: Array<{ name: string }> };
    expect(agents.map((a) => a.name).sort()).toEqual([...names].sort());
  });
});

describe('output conventions', () => {
  it('a closed pipe ends quietly (superagent list | head -1)', async () => {
    for (let i = 0; i < 3; i++) await launch(`piped-${i}`);
    const r = await execa('bash', ['-o', 'pipefail', '-c', `"${process.execPath}" "${BIN}" list | head -c 1`], {
      env: cleanEnv({ target: service, ...dirs() }),
      extendEnv: false,
      reject: false,
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toHaveLength(1);
  });

  it('NO_COLOR and --no-color turn colour off even when forced; FORCE_COLOR shows it', async () => {
    const id = await launch('colourful');
    const env = { FORCE_COLOR: '1', TERM: 'xterm-256color' };
    const forced = await runCli(['get', id], { target: service, env });
    expect(forced.stdout).toContain('\u001b[');
    const noColor = await runCli(['get', id], { target: service, env: { ...env, NO_COLOR: '1' } });
    expect(noColor.stdout).not.toContain('\u001b[');
    const flag = await runCli(['get', id, '--no-color'], { target: service, env });
    expect(flag.stdout).not.toContain('\u001b[');
  });

  it('--json prints only JSON on stdout, and an error as JSON on stderr too', async () => {
    const ok = await runCli(['list', '--json'], { target: service });
    expect(() => JSON.parse(ok.stdout)).not.toThrow();
    const bad = await runCli(['get', 'nobody-here', '--json'], { target: service });
    expect(bad.stdout).toBe('');
    const lines = bad.stderr.trim().split('\n');
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ error: { exit_code: 4 } });
  });

  it('--version, --help and no arguments', async () => {
    const v = await runCli(['--version']);
    expect(v.stdout).toMatch(/^superagent \d+\.\d+\.\d+\n$/);
    const h = await runCli(['--help']);
    expect(h.stdout).toContain('Usage: superagent <command>');
    const bare = await runCli([]);
    expect(bare.stdout).toBe(h.stdout);
    const cmd = await runCli(['launch', '--help']);
    expect(cmd.exitCode).toBe(0);
    expect(cmd.stdout).toContain('Examples:');
  });
});
