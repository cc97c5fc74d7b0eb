// Credentials in a base URL never appear in --debug, error lines,
// whoami or config output; a key that cannot be an HTTP header value (a line break, a character
// outside ASCII) is refused before any request, exit 3, saying what is wrong, without printing it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryConfig, runLine } from '../helpers/context.js';
import { startHostedMock } from '../helpers/hosted-mock.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { stopService } from '../helpers/service-support.js';

const PASSWORD = 'hunter2-secret';
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await stopService(service);
});

function withCredentials(url: string): string {
  return url.replace('://', `://admin:${PASSWORD}@`);
}

describe('a base URL with a user and password', () => {
  it('--debug shows the URL with its credentials masked', async () => {
    const r = await runLine({ url: withCredentials(service.url), key: service.key }, 'list --debug');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('://…@127.0.0.1');
    expect(r.stdout + r.stderr).not.toContain(PASSWORD);
    expect(r.stdout + r.stderr).not.toContain('admin:');
  });

  it('an error line names the URL without them', async () => {
    const r = await runLine({ url: withCredentials('http://127.0.0.1:9'), key: service.key }, 'list', {
      world: { clock: { now: Date.now, sleep: async () => undefined } },
    });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('cannot reach http://…@127.0.0.1:9/v1/superagents');
    expect(r.stderr).not.toContain(PASSWORD);
  });

  it('whoami and config list/get show it masked', async () => {
    const config = new MemoryConfig({
      active_profile: 'p',
      profiles: { p: { base_url: withCredentials(service.url), api_key: service.key } },
    });
    for (const argv of ['whoami', 'whoami --json', 'config list', 'config list --json', 'config get base_url']) {
      const r = await runLine(undefined, argv, { config });
      expect([argv, r.code]).toEqual([argv, 0]);
      expect(r.stdout + r.stderr).not.toContain(PASSWORD);
    }
  });
});

describe('a service that echoes the key back', () => {
  const KEY = 'sa_sk_' + 'Ee9'.repeat(10) + 'Zz';
  const OTHER_FORM = 'mykey-' + 'q'.repeat(30); // a deployment's own key format

  it.each([
    ['a 401 naming the key', KEY, 'list', 401, (k: string) => ({ statusCode: 401, message: `Invalid API key: ${k}` })],
    [
      'a 400 quoting the header',
      KEY,
      'list',
      400,
      (k: string) => ({ statusCode: 400, message: `bad header Authorization: Bearer ${k}` }),
    ],
    [
      'a 500 with the key in it',
      OTHER_FORM,
      'list',
      500,
      (k: string) => ({ statusCode: 500, message: `failed for key=${k}` }),
    ],
  ])('%s: the error line and the --json error show it masked', async (_, key, argv, status, body) => {
    const mock = await startHostedMock(() => ({ status, json: body(key) }));
    try {
      for (const line of [argv, `${argv} --json`]) {
        const r = await runLine({ url: mock.url, key }, line, {
          world: { clock: { now: Date.now, sleep: async () => undefined } },
        });
        expect(r.code, r.stderr).not.toBe(0);
        expect(r.stderr).toContain('…');
        expect(r.stdout + r.stderr).not.toContain(key);
      }
    } finally {
      await mock.close();
    }
  });

  it('a redirect whose URL carries the key names it masked (and is not followed)', async () => {
    const mock = await startHostedMock(() => ({
      status: 302,
      headers: { location: `http://evil.example/steal?k=${KEY}` },
      json: {},
    }));
    try {
      const r = await runLine({ url: mock.url, key: KEY }, 'list');
      expect(r.code).toBe(7);
      expect(r.stderr).toContain('evil.example/steal?k=sa_sk_…');
      expect(r.stderr).not.toContain(KEY);
    } finally {
      await mock.close();
    }
  });

  it('a base URL that is not a URL, with a password in it, is named masked', async () => {
    const r = await runLine(undefined, ['list'], {
      env: { SUPERAGENT_BASE_URL: `http://alice:S3c#ret${PASSWORD}@127.0.0.1:x`, SUPERAGENT_API_KEY: KEY },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('http://…@127.0.0.1:x');
    expect(r.stderr).not.toContain(PASSWORD);
  });

  it.each([
    ['--base-url', ['list', '--base-url', `http://alice:${PASSWORD}@127.0.0.1/?x=1`], {}],
    ['SUPERAGENT_BASE_URL', ['list'], { SUPERAGENT_BASE_URL: `http://alice:${PASSWORD}@127.0.0.1/#frag` }],
  ])('a base URL with a query or a fragment (%s): refused in one line, password masked', async (_what, argv, env) => {
    const r = await runLine(undefined, argv, { env: { SUPERAGENT_API_KEY: KEY, ...env } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^Error: 'http:\/\/…@127\.0\.0\.1\/[?#]\w+=?\d*' has a query or a fragment .*\)\n$/);
    expect(r.stderr).not.toContain(PASSWORD);
  });

  // WHATWG ends the host at the first `/`: `alice:<password>` is then a host and a port, and no
  // parse finds the credentials; the error line masks them all the same
  it.each([
    [
      'SUPERAGENT_BASE_URL on list',
      ['list'],
      { SUPERAGENT_BASE_URL: `http://alice:${PASSWORD}/x@127.0.0.1`, SUPERAGENT_API_KEY: KEY },
    ],
    ['config set base_url', ['config', 'set', 'base_url', `http://alice:${PASSWORD}/x@127.0.0.1`], {}],
    ['login --base-url', ['login', '--with-token', '--base-url', `http://alice:${PASSWORD}/x@127.0.0.1`], {}],
    [
      '--json',
      ['list', '--json'],
      { SUPERAGENT_BASE_URL: `https://alice:${PASSWORD}?x@127.0.0.1`, SUPERAGENT_API_KEY: KEY },
    ],
  ])(
    'a password with a slash or a question mark in a URL that does not parse (%s) is masked',
    async (_what, argv, env) => {
      const r = await runLine(undefined, argv, { env, input: `${KEY}\n` });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('://…@127.0.0.1');
      expect(r.stderr).not.toContain(PASSWORD);
      expect(r.stderr).not.toContain('alice');
    },
  );
});

describe('a key that cannot be sent', () => {
  it.each([
    ['a line break', 'sa_sk_0123456789abcdef\n0123456789abcdef', 'contains a line break'],
    [
      'a character outside Latin-1',
      'sa_sk_0123456789abcdef\u20130123456789abcdef',
      'contains a character outside ASCII (a quote or dash pasted from a document?)',
    ],
    ['a control character', 'sa_sk_0123456789abcdef\u00010123456789abcdef', 'contains a control character'],
  ])('%s: exit 3 before any request, saying so, the key not shown', async (_what, key, problem) => {
    service.cliRequests();
    const r = await runLine(undefined, 'list', { env: { SUPERAGENT_BASE_URL: service.url, SUPERAGENT_API_KEY: key } });
    expect(r.code).toBe(3);
    expect(r.stderr).toBe(
      `Error: the API key from SUPERAGENT_API_KEY ${problem} (a key is one word ` +
        `of printable ASCII: copy it again from where it was issued)\n`,
    );
    expect(r.stderr).not.toContain('0123456789abcdef');
    expect(service.cliRequests()).toEqual([]);
  });

  it('login refuses it too, before checking it', async () => {
    const r = await runLine(undefined, ['login', '--with-token', '--base-url', service.url], {
      input: 'sa_sk_0123456789abcdef\u2013xyz\n',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the API key contains a character outside ASCII');
  });
});
