// Edge cases found in review: each test pins one behaviour that once was wrong.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli as runCliIn, type RunOptions } from '../helpers/cli.js';
import { launchAgent, startTestService, type TestService } from '../helpers/service.js';
import { perTest, stopService } from '../helpers/service-support.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await stopService(service);
});

async function launch(name: string): Promise<string> {
  const r = await service.call('POST', '/v1/superagents', { body: { name, model: 'gpt-4o', model_provider: 'openai' } });
  expect(r.status, r.text).toBe(200);
  return r.json.agent_id as string;
}

describe('the service', () => {
  it('answers 400 to a body that is not JSON on a route that ignores its body, and changes nothing', async () => {
    const id = await launch('strict');
    const r = await service.call('POST', `/v1/superagents/${id}/pause`, { rawBody: '{bad', headers: { 'content-type': 'application/json' } });
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
    const r = await service.call('POST', '/v1/superagents', { body: { name: 'trim', model: ' gpt-4o ', model_provider: 'openai' } });
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

describe('the CLI', () => {
  const scratch = perTest();
  /** runCli with config and data dirs of the test's own (unless given), removed after it */
  const runCli = (args: string[], opts: RunOptions = {}) =>
    runCliIn(args, { configDir: scratch.scratch('superagent-config-'), dataDir: scratch.scratch('superagent-data-'), ...opts });

  it('a redirecting base URL is a service error naming where it points', async () => {
    const redirect = http.createServer((_req, res) => {
      res.writeHead(301, { location: 'https://elsewhere.example/' });
      res.end();
    });
    await new Promise<void>((r) => redirect.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(redirect.address() as AddressInfo).port}`;
      const r = await runCli(['list'], { target: { url, key: 'k'.repeat(20) } });
      expect(r.exitCode).toBe(7);
      expect(r.stderr).toContain('redirects to https://elsewhere.example/');
    } finally {
      await new Promise<void>((r) => redirect.close(() => r()));
    }
  });

  it('a cut stream under --json still prints what arrived, with the error', async () => {
    const cut = await startTestService({ faults: { cutStreamAfter: 3 } });
    try {
      const id = (await launchAgent(cut, { name: 'cut' })).agent_id;
      const r = await runCli(['chat', id, 'hello there', '--json'], { target: cut });
      expect(r.exitCode).toBe(7);
      const out = JSON.parse(r.stdout);
      expect(out.content.length).toBeGreaterThan(0);
      expect(out.error).toEqual({ message: 'Stream interrupted by an injected fault', exit_code: 7 });
      expect(out.tool_calls).toEqual(expect.any(Array));
      expect(out.session_id).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await stopService(cut);
    }
  });

  it('an alias works with --help, and an unknown subcommand is a usage error', async () => {
    const help = await runCli(['ls', '--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('Usage: superagent list');
    const bogus = await runCli(['soul', 'bogus'], { target: service });
    expect(bogus.exitCode).toBe(2);
    expect(bogus.stderr).toContain("unknown command 'soul bogus'");
    expect(bogus.stdout).toBe('');
  });

  it('a profile with output json reports errors as JSON too', async () => {
    const configDir = scratch.scratch('superagent-config-');
    expect((await runCli(['config', 'set', 'output', 'json'], { configDir })).exitCode).toBe(0);
    const r = await runCli(['get', 'nobody-by-that-name'], { target: service, configDir });
    expect(r.exitCode).toBe(4);
    expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!)).toMatchObject({ error: { exit_code: 4 } });
  });
});
