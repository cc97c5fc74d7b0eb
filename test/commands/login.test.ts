// `superagent login` and `logout` through the commands layer (docs/cli.md, superagent login), on an
// in-memory config file against a real embedded service on loopback. The key reaches the command
// only through stdin (--with-token), the masked prompt or the environment, never through arguments;
// and a key is saved only after the service accepted it. The file's modes on disk: config-file.test.ts.
import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/core/errors.js';
import { FakeClock, MemoryConfig, runLine, type CliRun, type RunOptions } from '../helpers/context.js';
import { stopService } from '../helpers/service-support.js';
import { startTestService, type TestService } from '../helpers/service.js';

const KEY = 'sa_sk_' + 'Kk1Ll2Mm3Nn4Oo5Pp6Qq7Rr8Ss9Tt0Uv';
const OTHER_KEY = 'sa_sk_' + 'Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pw';
const WRONG_KEY = 'sa_sk_' + 'W'.repeat(32);
const MASKED = 'sa_sk_…t0Uv';
/** a hosted-looking key; the test service accepts it too, standing in for the hosted one (SUPERAGENT_HOSTED_URL) */
const HOSTED_KEY = 'gb_sk_' + 'Hh1Oo2Ss3Tt4Ee5Dd6Kk7Ee8Yy9Zz0Ab';
const MASKED_HOSTED = 'gb_sk_…z0Ab';

let svc: TestService;
let unreachable: string;

beforeAll(async () => {
  svc = await startTestService({ keys: [KEY, OTHER_KEY, HOSTED_KEY] });
  unreachable = await closedPortUrl();
});
afterAll(async () => {
  await stopService(svc);
});
beforeEach(() => {
  svc.exchanges.splice(0);
});

/** A loopback URL where nothing listens. */
async function closedPortUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

const cli = (argv: string[], config: MemoryConfig, o: RunOptions = {}) => runLine(undefined, argv, { config, ...o });

/** `login --with-token` with the key on stdin. */
const login = (
  config: MemoryConfig,
  key: string,
  args: string[] = ['--base-url', svc.url],
  env: Record<string, string> = {},
) => cli(['login', '--with-token', ...args], config, { input: `${key}\n`, env });

/** The key the keychain holds for profile `name` of this config file (login keeps it there). */
const inKeychain = (config: MemoryConfig, name = 'default') => config.keychain.entries.get(`${name}@${config.path}`);
const KEPT = { api_key_store: 'keychain' } as const;

function expectNoWholeKey(r: CliRun, ...keys: string[]): void {
  for (const k of keys) expect(r.stdout + r.stderr).not.toContain(k);
}

/** The one request that checks a key. */
const KEY_CHECK = [{ method: 'GET', path: '/v1/superagents', body: undefined }];

describe('login --with-token', () => {
  it(
    'checks the key with one request, then saves it (in the keychain) and ' +
      'the base URL (without /v1); the first profile becomes the active one',
    async () => {
      const config = new MemoryConfig();
      const said = `Logged in to ${svc.url} as profile default (key ${MASKED}, kept in the OS keychain)\n`;
      expect(await login(config, KEY, ['--base-url', `${svc.url}/v1/`])).toEqual({
        code: 0,
        stdout: '',
        stderr: said,
        asked: [],
      });
      expect(svc.cliRequests()).toEqual(KEY_CHECK);
      expect(config.data).toEqual({ active_profile: 'default', profiles: { default: { base_url: svc.url, ...KEPT } } });
      expect(inKeychain(config)).toBe(KEY);
      expect(config.writes).toBe(1);
    },
  );

  it('with stderr on a terminal it says what it did, the key masked', async () => {
    const shown = await cli(['login', '--with-token', '--base-url', svc.url], new MemoryConfig(), {
      input: KEY,
      tty: { stderr: true },
    });
    expect(shown).toEqual({
      code: 0,
      stdout: '',
      stderr:
        `Checking the key against ${svc.url}…\n✓ Logged in to ${svc.url} as ` +
        `profile default (key ${MASKED}, kept in the OS keychain)\n`,
      asked: [],
    });
  });

  it(
    'takes the base URL from SUPERAGENT_BASE_URL and the profile ' +
      'from --profile, creating it without switching to it',
    async () => {
      const config = new MemoryConfig();
      expect((await login(config, KEY)).code).toBe(0);
      expect((await login(config, OTHER_KEY, ['--profile', 'staging'], { SUPERAGENT_BASE_URL: svc.url })).code).toBe(0);
      expect(config.data).toEqual({
        active_profile: 'default',
        profiles: { default: { base_url: svc.url, ...KEPT }, staging: { base_url: svc.url, ...KEPT } },
      });
      expect([inKeychain(config), inKeychain(config, 'staging')]).toEqual([KEY, OTHER_KEY]);
    },
  );

  it('reuses the base URL of the profile when none is given', async () => {
    const config = new MemoryConfig();
    expect((await login(config, KEY)).code).toBe(0);
    expect((await login(config, OTHER_KEY, [])).code).toBe(0);
    expect(config.data.profiles!.default).toEqual({ base_url: svc.url, ...KEPT });
    expect(inKeychain(config)).toBe(OTHER_KEY);
  });

  it('warns when SUPERAGENT_API_KEY is set, as it wins over the stored key', async () => {
    const r = await login(new MemoryConfig(), KEY, ['--base-url', svc.url], { SUPERAGENT_API_KEY: OTHER_KEY });
    const said = `Logged in to ${svc.url} as profile default (key ${MASKED}, kept in the OS keychain)\n`;
    expect(r).toMatchObject({
      code: 0,
      stdout: '',
      stderr: said + '! SUPERAGENT_API_KEY is set and wins over the stored key\n',
    });
    expectNoWholeKey(r, KEY, OTHER_KEY);
  });

  it('with no base URL anywhere and a hosted key (gb_sk_) logs in to the hosted service, saving its URL', async () => {
    // SUPERAGENT_HOSTED_URL points the hosted URL at the loopback test service: no test reaches the real one
    const hosted = { SUPERAGENT_HOSTED_URL: svc.url };
    const config = new MemoryConfig();
    const r = await login(config, HOSTED_KEY, [], hosted);
    const said = `Logged in to ${svc.url} as profile default (key ${MASKED_HOSTED}, kept in the OS keychain)\n`;
    expect(r).toEqual({ code: 0, stdout: '', stderr: said, asked: [] });
    expect(config.data).toEqual({ active_profile: 'default', profiles: { default: { base_url: svc.url, ...KEPT } } });
    expect(inKeychain(config)).toBe(HOSTED_KEY);
    const who = await cli(['whoami', '--json'], config, { env: hosted });
    expect(who.code).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({
      base_url: svc.url,
      key: MASKED_HOSTED,
      key_source: 'profile',
      key_store: 'keychain',
      service: 'hosted',
      authenticated: true,
    });
    expectNoWholeKey(who, HOSTED_KEY);
  });
});

describe('login on a terminal asks', () => {
  it('for the base URL, then for the key with the masked prompt', async () => {
    const config = new MemoryConfig();
    const r = await cli(['login'], config, { tty: true, answers: [`${svc.url}/v1`, KEY] });
    expect(r).toEqual({
      code: 0,
      stdout: '',
      stderr:
        `Which service? (the embedded local service needs no login)\nChecking the key against ` +
        `${svc.url}…\n✓ Logged in to ${svc.url} as profile default (key ${MASKED}, kept in the OS keychain)\n`,
      asked: ['Base URL', `API key for ${svc.url}`],
    });
    expect(config.data).toEqual({ active_profile: 'default', profiles: { default: { base_url: svc.url, ...KEPT } } });
    expect(inKeychain(config)).toBe(KEY);
  });

  it('an empty answer takes the hosted service; --base-url or the profile’s URL skips the question', async () => {
    const config = new MemoryConfig();
    const hosted = await cli(['login'], config, {
      tty: true,
      answers: ['', HOSTED_KEY],
      env: { SUPERAGENT_HOSTED_URL: svc.url },
    });
    expect(hosted.code, hosted.stderr).toBe(0);
    expect(config.data.profiles!.default).toEqual({ base_url: svc.url, ...KEPT });
    expect(inKeychain(config)).toBe(HOSTED_KEY);
    const given = await cli(['login', '--base-url', svc.url, '--profile', 'two'], config, {
      tty: true,
      answers: [OTHER_KEY],
    });
    expect(given.asked).toEqual([`API key for ${svc.url}`]);
    const stored = await cli(['login', '--profile', 'two'], config, { tty: true, answers: [KEY] });
    expect(stored.asked).toEqual([`API key for ${svc.url}`]);
    expect(config.data.profiles!.two).toEqual({ base_url: svc.url, ...KEPT });
    expect(inKeychain(config, 'two')).toBe(KEY);
  });

  it('Ctrl-C at the key prompt: exit 130, nothing sent or saved', async () => {
    const config = new MemoryConfig();
    const r = await cli(['login', '--base-url', svc.url], config, { tty: true, answers: [new InterruptedError()] });
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
    expect(svc.cliRequests()).toEqual([]);
    expect(config.writes).toBe(0);
  });
});

describe('login refuses, saving nothing', () => {
  /** A refusal: the exit code, nothing on stdout, nothing written, no key shown whole. */
  async function expectNothingSaved(
    r: Promise<CliRun>,
    code: number,
    config: MemoryConfig,
    key = KEY,
  ): Promise<CliRun> {
    const done = await r;
    expect(done.code).toBe(code);
    expect(done.stdout).toBe('');
    expect(config.writes).toBe(0);
    expectNoWholeKey(done, key);
    return done;
  }

  it('a rejected key: exit 3 naming it masked', async () => {
    const config = new MemoryConfig();
    const r = await expectNothingSaved(login(config, WRONG_KEY), 3, config, WRONG_KEY);
    expect(r.stderr).toBe(
      `Error: ${svc.url} rejected the key sa_sk_…WWWW: Invalid or revoked API key (401) ` +
        `(check the key and the base URL, then run 'superagent login' again)\n`,
    );
  });

  it('a rejected key leaves the stored profile as it was', async () => {
    const config = new MemoryConfig({
      active_profile: 'default',
      profiles: { default: { base_url: svc.url, api_key: KEY } },
    });
    const before = structuredClone(config.data);
    await expectNothingSaved(login(config, WRONG_KEY), 3, config, WRONG_KEY);
    expect(config.data).toEqual(before);
  });

  it('an unreachable service: exit 7 after the retries (waited on the clock)', async () => {
    const config = new MemoryConfig();
    const clock = new FakeClock();
    const r = await expectNothingSaved(
      cli(['login', '--with-token', '--base-url', unreachable], config, { input: KEY, clock }),
      7,
      config,
    );
    expect(r.stderr).toBe(
      `Error: cannot reach ${unreachable}/v1/superagents: connection ` +
        `refused (check the base URL and that the service is running)\n`,
    );
    expect(clock.slept).toHaveLength(2);
  });

  it('without a terminal and without --with-token: exit 2 naming --with-token, before any request', async () => {
    const config = new MemoryConfig();
    const r = await expectNothingSaved(cli(['login', '--base-url', svc.url], config, { input: `${KEY}\n` }), 2, config);
    expect(r.stderr).toBe(
      'Error: no terminal to ask for the API key on (pipe it in with ' +
        "--with-token, e.g. 'superagent login --with-token < key.txt')\n",
    );
    expect(svc.cliRequests()).toEqual([]);
  });

  it('an empty key, or one with spaces, on stdin: exit 2', async () => {
    const config = new MemoryConfig();
    const empty = await expectNothingSaved(login(config, '  '), 2, config);
    expect(empty.stderr).toBe(
      "Error: the API key is empty (pipe the key in, e.g. 'superagent login --with-token < key.txt')\n",
    );
    const spaced = await expectNothingSaved(login(config, `${KEY.slice(0, 10)} ${KEY.slice(10)}`), 2, config);
    expect(spaced.stderr).toBe('Error: the API key must be a single word without spaces or line breaks\n');
    expect(svc.cliRequests()).toEqual([]);
  });

  it('a key over 4 KiB on stdin: exit 2 saying it is too long, no request; endless input read no further', async () => {
    const config = new MemoryConfig();
    const long = await expectNothingSaved(login(config, KEY + 'k'.repeat(4096)), 2, config);
    const hint = "pipe in the key alone, e.g. 'superagent login --with-token < key.txt'";
    const tooLong = `Error: the API key on standard input is over 4 KiB (${hint})\n`;
    expect(long.stderr).toBe(tooLong);
    let pulled = 0;
    async function* endless(): AsyncGenerator<Buffer> {
      for (;;) {
        pulled++;
        yield Buffer.from('k'.repeat(1024));
      }
    }
    const argv = ['login', '--with-token', '--base-url', svc.url];
    const r = await expectNothingSaved(cli(argv, config, { input: endless() }), 2, config);
    expect(r.stderr).toBe(tooLong);
    expect(pulled).toBeLessThanOrEqual(6);
    expect(svc.cliRequests()).toEqual([]);
  });

  it(
    'no base URL anywhere and a key that is not hosted: exit 2 ' +
      'pointing at --base-url (the embedded service needs no login)',
    async () => {
      // an embedded key (sa_sk_) and a key of no known kind: neither implies a service to log in to
      for (const key of [KEY, 'xx_sk_' + 'K'.repeat(32)]) {
        const config = new MemoryConfig();
        const r = await expectNothingSaved(login(config, key, [], { SUPERAGENT_HOSTED_URL: svc.url }), 2, config, key);
        expect(r.stderr).toBe(
          "Error: no base URL to log in to for profile 'default' (pass --base-url URL: only a hosted " +
            'key (gb_sk_…) implies its service (the embedded local service needs no login))\n',
        );
      }
      expect(svc.cliRequests()).toEqual([]);
    },
  );

  it('a base URL that is not http(s): exit 2 before any request', async () => {
    const config = new MemoryConfig();
    const r = await expectNothingSaved(login(config, KEY, ['--base-url', 'ftp://example.com']), 2, config);
    expect(r.stderr).toBe("Error: 'ftp://example.com' must start with http:// or https://\n");
    expect(svc.cliRequests()).toEqual([]);
  });
});

describe('logout', () => {
  it(
    "removes the profile's key and keeps the rest, saying " + 'so in one stderr line a CI log keeps (as login)',
    async () => {
      const config = new MemoryConfig({
        active_profile: 'default',
        profiles: { default: { base_url: svc.url, api_key: KEY, output: 'json' } },
      });
      expect(await cli(['logout'], config)).toEqual({
        code: 0,
        stdout: '',
        stderr: `Removed the key ${MASKED} of profile default from the config file (${svc.url})\n`,
        asked: [],
      });
      expect((await cli(['logout', '--quiet'], config)).stderr).toBe('');
      expect(config.data).toEqual({
        active_profile: 'default',
        profiles: { default: { base_url: svc.url, output: 'json' } },
      });
      expect((await cli(['whoami'], config)).code).toBe(3);
    },
  );

  it('on a terminal says which key went, masked', async () => {
    const config = new MemoryConfig({ profiles: { default: { base_url: svc.url, api_key: KEY } } });
    const r = await cli(['logout'], config, { tty: true });
    expect(r).toMatchObject({
      code: 0,
      stdout: '',
      stderr:
        `✓ Removed the key ${MASKED} of profile default from the config file (${svc.url})\n` +
        "'superagent login' stores a new key; 'superagent config unset base_url' goes back to the embedded service.\n",
    });
  });

  it('with no key stored exits 0 and writes nothing', async () => {
    const config = new MemoryConfig({ profiles: { default: { base_url: svc.url } } });
    expect(await cli(['logout'], config)).toEqual({ code: 0, stdout: '', stderr: '', asked: [] });
    expect((await cli(['logout'], config, { tty: true })).stderr).toBe(
      "Profile 'default' has no stored key; nothing to do.\n",
    );
    expect(config.writes).toBe(0);
  });

  it('acts on the profile named by --profile only, which must exist', async () => {
    const config = new MemoryConfig({
      active_profile: 'default',
      profiles: { default: { base_url: svc.url, api_key: KEY }, staging: { base_url: svc.url, api_key: OTHER_KEY } },
    });
    expect((await cli(['logout', '--profile', 'staging'], config)).code).toBe(0);
    expect(config.data.profiles).toEqual({
      default: { base_url: svc.url, api_key: KEY },
      staging: { base_url: svc.url },
    });
    const none = await cli(['logout', '--profile', 'nope'], config);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("there is no profile 'nope'");
  });

  it('warns that SUPERAGENT_API_KEY still supplies a key', async () => {
    const r = await cli(['logout'], new MemoryConfig(), { env: { SUPERAGENT_API_KEY: KEY } });
    expect(r).toEqual({
      code: 0,
      stdout: '',
      stderr: '! SUPERAGENT_API_KEY is still set: commands keep using that key\n',
      asked: [],
    });
  });
});
