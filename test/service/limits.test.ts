// The embedded service's rate limit (docs/api.md, Rate limits), the programmatic entry and the built
// `superagent server` command (docs/cli.md) over real HTTP. Faults and keep-alive are in server-faults.test.ts.
// The CLI part runs bin/superagent.js → dist/: `npm test` builds first; alone, `npm run build` first.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/index.js';
import { callService } from '../helpers/service.js';
import { expectAssistantStream, perTest } from '../helpers/service-support.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = path.join(ROOT, 'bin', 'superagent.js');
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const KEY_A = 'sa_sk_limitsAlimitsAlimitsAlimitsAlim';
const KEY_B = 'sa_sk_limitsBlimitsBlimitsBlimitsBlim';
const RATE_HEADERS = [
  'x-ratelimit-limit-minute',
  'x-ratelimit-remaining-minute',
  'x-ratelimit-reset-minute',
  'retry-after',
];

const { service, scratch, closeAfter } = perTest();

describe('rate limit', () => {
  it('60 requests per minute per key, then 429 with retryAfter, resetAt and Retry-After', async () => {
    const svc = await service({ rateLimit: 60, keys: [KEY_A, KEY_B] });
    const startedAt = Date.now();
    let firstReset = '';
    for (let i = 1; i <= 60; i++) {
      const r = await svc.call('GET', '/v1/agents');
      expect(r.status, `request ${i}`).toBe(200);
      expect(r.headers.get('x-ratelimit-limit-minute')).toBe('60');
      expect(r.headers.get('x-ratelimit-remaining-minute'), `request ${i}`).toBe(String(60 - i));
      const reset = r.headers.get('x-ratelimit-reset-minute')!;
      expect(reset).toMatch(ISO);
      if (i === 1) {
        firstReset = reset;
        const ahead = Date.parse(reset) - startedAt;
        expect(ahead).toBeGreaterThan(55_000);
        expect(ahead).toBeLessThanOrEqual(61_000);
      }
      // a fixed window: the reset time does not move
      expect(reset).toBe(firstReset);
      expect(r.headers.get('retry-after')).toBeNull();
    }

    const limited = await svc.call('GET', '/v1/agents');
    expect(limited.status).toBe(429);
    // exactly the hosted `RateLimited` body: no `error` field
    expect(limited.json).toEqual({
      statusCode: 429,
      message: 'Rate limit exceeded',
      retryAfter: expect.any(Number),
      resetAt: firstReset,
    });
    const { retryAfter } = limited.json;
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('retry-after')).toBe(String(retryAfter));
    expect(limited.headers.get('x-ratelimit-limit-minute')).toBe('60');
    expect(limited.headers.get('x-ratelimit-remaining-minute')).toBe('0');
    expect(limited.headers.get('x-ratelimit-reset-minute')).toBe(firstReset);
    // retryAfter points at the end of the window
    expect(Math.abs(Date.now() + retryAfter * 1000 - Date.parse(firstReset))).toBeLessThan(2_000);

    // every route is limited, not just the one used above
    const other = await svc.call('POST', '/v1/chat', { body: { message: 'hi' } });
    expect(other.status).toBe(429);

    // another key has a budget of its own
    const b = await svc.call('GET', '/v1/agents', { key: KEY_B });
    expect(b.status).toBe(200);
    expect(b.headers.get('x-ratelimit-limit-minute')).toBe('60');
    expect(b.headers.get('x-ratelimit-remaining-minute')).toBe('59');

    // and the X-API-Key header is the same key, so the same (exhausted) budget
    const viaHeader = await svc.call('GET', '/v1/agents', { key: null, headers: { 'x-api-key': KEY_A } });
    expect(viaHeader.status).toBe(429);
  });

  it('requests without a valid key are limited per address: 60 × 401, then 429', async () => {
    const svc = await service({ rateLimit: 60, keys: [KEY_A] });
    for (let i = 1; i <= 60; i++) {
      // no key and a wrong key share the address bucket
      const r = await svc.call('GET', '/v1/superagents', {
        key: i % 2 ? null : 'sa_sk_wrongwrongwrongwrongwrongwrong',
      });
      expect(r.status, `request ${i}`).toBe(401);
      expect(r.json).toEqual({ statusCode: 401, message: 'Invalid or revoked API key', error: 'Unauthorized' });
      expect(r.headers.get('x-ratelimit-limit-minute')).toBe('60');
      expect(r.headers.get('x-ratelimit-remaining-minute')).toBe(String(60 - i));
    }
    const limited = await svc.call('GET', '/v1/superagents', { key: null });
    expect(limited.status).toBe(429);
    expect(limited.json.message).toBe('Rate limit exceeded');
    expect(limited.headers.get('retry-after')).toBe(String(limited.json.retryAfter));

    // a valid key from the same address is not held back by the anonymous bucket
    const ok = await svc.call('GET', '/v1/superagents', { key: KEY_A });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-remaining-minute')).toBe('59');
  });

  it('rateLimit 0 turns the limit off: no rate-limit headers, no 429 after 70 requests', async () => {
    const svc = await service({ rateLimit: 0 });
    for (let i = 1; i <= 70; i++) {
      const r = await svc.call('GET', '/v1/agents');
      expect(r.status, `request ${i}`).toBe(200);
      for (const h of RATE_HEADERS) expect(r.headers.get(h), h).toBeNull();
    }
  });
});

// each server is closed after its test, before perTest removes its scratch data dir
describe('programmatic entry: startServer', () => {
  it(
    'port 0 listens on 127.0.0.1 at a free port; without keys it ' +
      'creates and then reuses the data dir key; close() stops it',
    async () => {
      const dataDir = scratch('superagent-entry-');
      const first = await startServer({ dataDir, port: 0, log: () => undefined });
      closeAfter(first);
      expect(first.host).toBe('127.0.0.1');
      const m = /^http:\/\/127\.0\.0\.1:(\d+)$/.exec(first.url);
      expect(m).not.toBeNull();
      expect(Number(m![1])).toBe(first.port);
      expect(first.port).toBeGreaterThan(0);
      expect(first.dataDir).toBe(dataDir);

      expect(first.keyCreated).toBe(true);
      expect(first.key).toMatch(/^sa_sk_[A-Za-z0-9]{32}$/);
      const keyFile = path.join(dataDir, 'api-key');
      const stat = fs.statSync(keyFile);
      expect(stat.mode & 0o777).toBe(0o600);
      expect(fs.readFileSync(keyFile, 'utf8').trim()).toBe(first.key);
      expect(fs.readFileSync(keyFile, 'utf8').trim()).toMatch(/^sa_sk_[A-Za-z0-9]{32}$/);

      // the key works, a different one does not
      const ok = await callService(first.url, 'POST', '/v1/agents', {
        key: first.key,
        body: { name: 'Persisted', goal: 'g', instructions: 'i' },
      });
      expect(ok.status).toBe(201);
      const wrong = await callService(first.url, 'GET', '/v1/agents', { key: 'sa_sk_' + 'x'.repeat(32) });
      expect(wrong.status).toBe(401);

      await first.close();
      await expect(
        fetch(`${first.url}/v1/agents`, { headers: { authorization: `Bearer ${first.key}` } }),
      ).rejects.toThrow();
      const refused = await fetch(`${first.url}/v1/agents`).then(
        () => null,
        (err: Error & { cause?: { code?: string } }) => err.cause?.code,
      );
      expect(refused).toBe('ECONNREFUSED');

      const second = await startServer({ dataDir, port: 0, log: () => undefined });
      closeAfter(second);
      expect(second.keyCreated).toBe(false);
      expect(second.key).toBe(first.key);
      expect(fs.readFileSync(keyFile, 'utf8').trim()).toBe(first.key);
      // state survived the restart
      const list = await callService(second.url, 'GET', '/v1/agents', { key: second.key });
      expect(list.status).toBe(200);
      expect(list.json.map((a: any) => a.name)).toEqual(['Persisted']);
    },
  );

  it('explicit keys: no key file is created and keyCreated is false', async () => {
    const dataDir = scratch('superagent-entry-');
    const s = await startServer({ dataDir, port: 0, keys: [KEY_A, KEY_B], log: () => undefined });
    closeAfter(s);
    expect(s.key).toBe(KEY_A);
    expect(s.keyCreated).toBe(false);
    expect(fs.existsSync(path.join(dataDir, 'api-key'))).toBe(false);
    for (const key of [KEY_A, KEY_B]) {
      expect((await callService(s.url, 'GET', '/v1/agents', { key })).status).toBe(200);
    }
  });
});

describe('the built CLI: superagent server', () => {
  type Child = ResultPromise<{ reject: false; buffer: false; cleanup: true; timeout: number }>;

  function spawnServer(args: string[]) {
    const child = execa('node', [BIN, 'server', ...args], {
      cwd: ROOT,
      reject: false,
      buffer: false,
      cleanup: true,
      timeout: 25_000,
      env: { SUPERAGENT_CONFIG_DIR: scratch('superagent-cli-config-') },
    }) as Child;
    // a server left running by a failed test is killed, and waited for, before its dirs go
    closeAfter({
      close: async () => {
        if (child.exitCode === null) child.kill('SIGKILL');
        await child;
      },
    });
    let out = '';
    let err = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c));
    // the first n whole lines of a stream once written; bounded by the child's own timeout
    const firstLines = (stream: 'stdout' | 'stderr', n: number) =>
      new Promise<string[]>((resolve, reject) => {
        const check = () => {
          const all = (stream === 'stdout' ? out : err).split('\n');
          if (all.length > n) {
            clearInterval(poll);
            resolve(all.slice(0, n));
          }
        };
        const poll = setInterval(check, 10);
        void child.then((r) => {
          clearInterval(poll);
          reject(new Error(`exited ${r.exitCode} before ${n} ${stream} lines; stdout: ${out} stderr: ${err}`));
        });
        check();
      });
    const lines = (n: number) => firstLines('stdout', n);
    return { child, lines, logged: (n: number) => firstLines('stderr', n), out: () => out, err: () => err };
  }

  it('prints Listening on http://127.0.0.1:<port> then the key; serves with it; SIGTERM exits 0', async () => {
    const dataDir = scratch('superagent-cli-');
    const p = spawnServer(['--port', '0', '--data-dir', dataDir, '--token-delay', '0']);
    const [first, second] = await p.lines(2);
    const m = /^Listening on (http:\/\/127\.0\.0\.1:(\d+))$/.exec(first!);
    expect(m, first).not.toBeNull();
    expect(Number(m![2])).toBeGreaterThan(0);
    const url = m![1]!;
    const k = /(sa_sk_[A-Za-z0-9]{32})/.exec(second!);
    expect(k, second).not.toBeNull();
    const key = k![1]!;
    expect(fs.readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim()).toBe(key);

    const r = await callService(url, 'POST', '/v1/chat', { key, body: { message: 'hi', stream: true } });
    expect(r.status).toBe(200);
    expectAssistantStream(r.text);
    const unauthorized = await callService(url, 'GET', '/v1/agents', { key: 'sa_sk_' + 'y'.repeat(32) });
    expect(unauthorized.status).toBe(401);

    p.child.kill('SIGTERM');
    const result = await p.child;
    expect(result.exitCode).toBe(0);
    expect(result.signal).toBeUndefined();
    await expect(fetch(`${url}/v1/agents`)).rejects.toThrow();
  });

  it('logs each request on stderr (no query, no key), a refused key said so, and Stopped on Ctrl-C (130)', async () => {
    const p = spawnServer(['--port', '0', '--data-dir', scratch('superagent-cli-'), '--key', KEY_A]);
    const [first, second] = await p.lines(2);
    const url = /^Listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(first!)![1]!;
    expect(second).toBe(`API keys: ${KEY_A.slice(0, 6)}…${KEY_A.slice(-4)}`);
    const wrong = 'sa_sk_' + 'y'.repeat(32);
    expect((await callService(url, 'GET', '/v1/superagents?name=secret-query', { key: KEY_A })).status).toBe(200);
    expect((await callService(url, 'GET', '/v1/superagents', { key: wrong })).status).toBe(401);
    expect((await callService(url, 'POST', '/v1/superagents', { body: { name: 'x' } })).status).toBe(401);
    // the banner's last lines (on stderr when piped), then one line per request
    const logged = await p.logged(5);
    expect(logged).toEqual([
      expect.stringMatching(/^Data dir: /),
      expect.stringMatching(/^Try: SUPERAGENT_BASE_URL=http:\/\/127\.0\.0\.1:\d+ SUPERAGENT_API_KEY=… superagent list/),
      expect.stringMatching(/^GET \/v1\/superagents 200 \d+ ms$/),
      expect.stringMatching(
        /^! GET \/v1\/superagents 401 \d+ ms: refused, the key sent is not one this service accepts$/,
      ),
      expect.stringMatching(/^! POST \/v1\/superagents 401 \d+ ms: refused, no key was sent$/),
    ]);
    p.child.kill('SIGINT');
    const result = await p.child;
    expect(result.exitCode).toBe(130);
    expect(p.err()).toBe(`${logged.join('\n')}\nStopped\n`);
    for (const secret of [KEY_A, wrong.slice(6), 'secret-query']) expect(p.out() + p.err()).not.toContain(secret);
  });

  it('--quiet: no request lines, stdout as without it; SIGTERM still exits 0', async () => {
    const p = spawnServer(['--port', '0', '--data-dir', scratch('superagent-cli-'), '--key', KEY_A, '--quiet']);
    const [first, second] = await p.lines(2);
    const url = /^Listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(first!)![1]!;
    expect(second).toBe(`API keys: ${KEY_A.slice(0, 6)}…${KEY_A.slice(-4)}`);
    expect((await callService(url, 'GET', '/v1/superagents', { key: KEY_A })).status).toBe(200);
    expect((await callService(url, 'GET', '/v1/superagents', { key: KEY_B })).status).toBe(401);
    p.child.kill('SIGTERM');
    expect((await p.child).exitCode).toBe(0);
    expect(p.err()).toBe('');
  });

  it('--port abc exits 2 with a one-line error on stderr', async () => {
    const result = await execa('node', [BIN, 'server', '--port', 'abc', '--data-dir', scratch('superagent-cli-')], {
      cwd: ROOT,
      reject: false,
      timeout: 15_000,
    });
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('--port');
  });

  it('--fault-error-rate 2 exits 2 with a one-line error on stderr', async () => {
    const result = await execa(
      'node',
      [BIN, 'server', '--port', '0', '--fault-error-rate', '2', '--data-dir', scratch('superagent-cli-')],
      { cwd: ROOT, reject: false, timeout: 15_000 },
    );
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('--fault-error-rate');
  });
});
