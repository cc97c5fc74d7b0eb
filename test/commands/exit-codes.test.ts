// The exit codes of docs/cli.md as a user meets them, and the output conventions every command shares,
// through the commands layer. (1, a bug, has no honest outside trigger: test/unit/exit-codes.test.ts.)
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, cliFor, runLine } from '../helpers/context.js';
import { launchAgent, startTestService, type TestService } from '../helpers/service.js';
import { perTest, stopService } from '../helpers/service-support.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await stopService(service);
});
const cli = cliFor(() => service);
const scratch = perTest();
const KEY = 'sa_sk_' + 'k'.repeat(32);
const NOBODY = '00000000-0000-4000-8000-000000000000';

/** A service that always answers with one status and body, for codes the embedded one gives rarely. */
async function fixedService(status: number, body: unknown, headers: Record<string, string> = {}) {
  const server = http.createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  scratch.closeAfter({ close: () => new Promise<void>((r) => server.close(() => r())) });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('exit codes', () => {
  it('0: success', async () => {
    expect((await cli('list')).code).toBe(0);
  });

  it('2: usage, before any request, in one line', async () => {
    service.cliRequests();
    for (const line of ['get', 'frobnicate', 'list --timeout soon', 'get x y', 'list --frob']) {
      const r = await cli(line);
      expect([line, r.code]).toEqual([line, 2]);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    expect(service.cliRequests()).toEqual([]);
  });

  it('2: a 431 (request header fields too large), said in words: the key or a header is too large', async () => {
    // as Node's own server answers headers over its limit: no body at all
    const url = await fixedService(431, undefined);
    const r = await runLine({ url, key: KEY }, 'list');
    expect(r).toMatchObject({ code: 2, stdout: '' });
    const hint = 'the API key or another header sent is far too long: copy the key again from where it was issued';
    expect(r.stderr).toBe(`Error: the service answered 431: the request header fields are too large (${hint})\n`);
  });

  it('3: authentication (a wrong key; no key for a configured URL)', async () => {
    const wrong = await runLine({ url: service.url, key: 'sa_sk_' + 'x'.repeat(32) }, 'list');
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toContain('Invalid or revoked API key');
    const none = await runLine(undefined, 'list', { env: { SUPERAGENT_BASE_URL: service.url } });
    expect(none.code).toBe(3);
    expect(none.stderr).toBe(
      `Error: no API key for ${service.url} (run 'superagent login', or set SUPERAGENT_API_KEY)\n`,
    );
  });

  it('4: not found (unknown uuid, reference matching none)', async () => {
    expect((await cli(['get', NOBODY])).code).toBe(4);
    expect((await cli('get no-such-agent')).code).toBe(4);
  });

  it('5: rate limited after the allowed retries (the waits announced, not waited)', async () => {
    const url = await fixedService(
      429,
      { statusCode: 429, message: 'Rate limit exceeded', retryAfter: 20 },
      { 'retry-after': '20' },
    );
    const clock = new FakeClock();
    // piped stderr: each wait is a line (on a terminal a countdown says it: first-minutes-waits)
    const r = await runLine({ url, key: KEY }, 'list', { clock });
    expect(r.code).toBe(5);
    expect(clock.slept).toEqual([20_000, 20_000, 20_000]);
    expect(r.stderr).toContain('Rate limit exceeded');
    expect(r.stderr).toContain(
      'Rate limited by the service; waiting 20 s (its Retry-After) before ' +
        'retrying (1 of 3; this command waits at most 60 s in all)',
    );
    expect(r.stderr).toContain('Error: Rate limit exceeded (the service asks to wait 20 s before trying again)');
  });

  it('6: conflict (pausing an agent that is not running)', async () => {
    const { agent_id } = await launchAgent(service, { name: 'conflicted' });
    expect((await cli(['pause', agent_id])).code).toBe(0);
    const again = await cli(['pause', agent_id]);
    expect(again.code).toBe(6);
    expect(again.stderr).toBe(`✗ ${agent_id}: already paused ('superagent resume ${agent_id}' runs it again)\n`);
  });

  it('7: service or network (connection refused; 5xx; an answer that is not a record)', async () => {
    const clock = new FakeClock();
    expect((await runLine({ url: 'http://127.0.0.1:9', key: KEY }, 'list', { clock })).code).toBe(7);
    const failing = await scratch.service({ faults: { errorRate: 1 } });
    expect((await runLine(failing, 'list', { clock })).code).toBe(7);
    const weird = await fixedService(200, 'not a record');
    const one = await runLine({ url: weird, key: KEY }, ['get', NOBODY]);
    expect(one.code).toBe(7);
    expect(one.stderr).toContain(
      "the service's answer is not what the API describes: the answer is a string, not an object",
    );
    expect((await runLine({ url: weird, key: KEY }, 'list')).code).toBe(7);
  });

  it('8: unhealthy', async () => {
    const sick = await scratch.service({ faults: { unhealthy: true } });
    const { agent_id } = await launchAgent(sick, { name: 'sick' });
    expect((await runLine(sick, ['health', agent_id])).code).toBe(8);
  });
});

describe('output conventions', () => {
  it('NO_COLOR and --no-color turn colour off even when forced; FORCE_COLOR shows it', async () => {
    const { agent_id } = await launchAgent(service, { name: 'colourful' });
    const env = { FORCE_COLOR: '1', TERM: 'xterm-256color' };
    expect((await cli(['get', agent_id], { env })).stdout).toContain('\u001b[');
    expect((await cli(['get', agent_id], { env: { ...env, NO_COLOR: '1' } })).stdout).not.toContain('\u001b[');
    expect((await cli(['get', agent_id, '--no-color'], { env })).stdout).not.toContain('\u001b[');
  });

  it('--json prints only JSON on stdout, and an error as JSON on stderr too', async () => {
    const ok = await cli('list --json');
    expect(() => JSON.parse(ok.stdout)).not.toThrow();
    const bad = await cli('get nobody-here --json');
    expect(bad.stdout).toBe('');
    const lines = bad.stderr.trim().split('\n');
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ error: { exit_code: 4 } });
  });

  it('--help of a command, and help for a group word', async () => {
    const cmd = await cli('launch --help');
    expect(cmd.code).toBe(0);
    expect(cmd.stdout).toContain('Usage: superagent launch [options]');
    expect(cmd.stdout).toContain('Examples:');
    const group = await cli('soul');
    const head = ['Usage: superagent soul <command> [options]', '', "Commands of 'soul': show, edit, set"];
    expect([group.code, ...group.stdout.split('\n').slice(0, 3)]).toEqual([0, ...head]);
    expect((await cli('help skills enable')).stdout).toContain(
      'Usage: superagent skills enable <agent> <skill...> [options]',
    );
  });
});
