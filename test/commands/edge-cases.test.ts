// Edge cases of the CLI found in review: each test pins one behaviour that once was wrong. (The
// service's: test/service/edge-cases.test.ts; a cut stream under --json: chat-stream.test.ts.)
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryConfig, cliFor, runLine } from '../helpers/context.js';
import { perTest, stopService } from '../helpers/service-support.js';
import { startTestService, type TestService } from '../helpers/service.js';

let service: TestService;
const temp = perTest();
const cli = cliFor(() => service);

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await stopService(service);
});
beforeEach(() => {
  service.exchanges.splice(0);
});

describe('the CLI', () => {
  it('a redirecting base URL is a service error naming where it points, and the redirect is not followed', async () => {
    const seen: string[] = [];
    const redirect = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(301, { location: 'https://elsewhere.example/' });
      res.end();
    });
    await new Promise<void>((r) => redirect.listen(0, '127.0.0.1', r));
    temp.closeAfter({
      close: () => new Promise<void>((r) => (redirect.closeAllConnections(), redirect.close(() => r()))),
    });
    const url = `http://127.0.0.1:${(redirect.address() as AddressInfo).port}`;
    const r = await runLine({ url, key: 'k'.repeat(20) }, ['list']);
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `Error: ${url}/v1/superagents redirects to https://elsewhere.example/ ` +
        `(301) (check the base URL: the service's address, without /v1)\n`,
    );
    expect(seen).toEqual(['GET /v1/superagents']);
  });

  it('an alias works with --help, and an unknown subcommand is a usage error', async () => {
    const help = await cli(['ls', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: superagent list \[options\]\n/);
    expect(help.stderr).toBe('');
    const bogus = await cli(['soul', 'bogus']);
    expect(bogus).toMatchObject({
      code: 2,
      stdout: '',
      stderr: "Error: unknown command 'soul bogus' (see 'superagent soul --help')\n",
    });
    expect(service.cliRequests()).toEqual([]);
  });

  it('a profile with output json reports errors as JSON too', async () => {
    const config = new MemoryConfig();
    const set = await cli(['config', 'set', 'output', 'json'], { config });
    expect(set.code, set.stderr).toBe(0);
    const r = await cli(['get', 'nobody-by-that-name'], { config });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    const [line, json, ...rest] = r.stderr.split('\n');
    expect(line).toMatch(/^Error: no agent matches 'nobody-by-that-name'/);
    expect(JSON.parse(json!)).toEqual({ error: { message: line!.slice('Error: '.length), exit_code: 4 } });
    expect(rest).toEqual(['']);
  });
});
