// `superagent whoami` through the commands layer (docs/cli.md, superagent whoami): the profile, the
// service and what chose it, the base URL, the key masked and its source, and one request that says
// whether the key works. Exit 3 for a missing or rejected key, 7 for a service out of reach; the same
// codes any command gives for the same faults.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock, MemoryConfig, runLine, type CliRun, type RunOptions } from '../helpers/context.js';
import { KEYCHAIN_SAYS, MemoryKeychain } from '../helpers/keychain.js';
import { perTest, stopService } from '../helpers/service-support.js';
import { launchAgent, startTestService, type TestService } from '../helpers/service.js';

const KEY = 'sa_sk_' + 'Kk1Ll2Mm3Nn4Oo5Pp6Qq7Rr8Ss9Tt0Uv';
const OTHER_KEY = 'sa_sk_' + 'Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pw';
const WRONG_KEY = 'sa_sk_' + 'W'.repeat(32);
const MASKED = 'sa_sk_…t0Uv';
const MASKED_OTHER = 'sa_sk_…q0Pw';

let svc: TestService;
let unreachable: string;
const temp = perTest();

beforeAll(async () => {
  svc = await startTestService({ keys: [KEY, OTHER_KEY] });
  // KEY sees two agents, OTHER_KEY none: the count is the key's own
  for (const name of ['who-one', 'who-two']) await launchAgent(svc, { name });
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

/** A config file after `login` to the test service. */
const loggedIn = () =>
  new MemoryConfig({ active_profile: 'default', profiles: { default: { base_url: svc.url, api_key: KEY } } });
const cli = (argv: string[], config: MemoryConfig, o: RunOptions = {}) => runLine(undefined, argv, { config, ...o });

function expectNoWholeKey(r: CliRun, ...keys: string[]): void {
  for (const k of keys) expect(r.stdout + r.stderr).not.toContain(k);
}

describe('whoami with a stored key', () => {
  it(
    'piped: one field a line, the key masked, its source, that it ' + 'works and the agents it sees, after one request',
    async () => {
      const r = await cli(['whoami'], loggedIn());
      expect(r).toEqual({
        code: 0,
        stdout:
          `profile\tdefault\nservice\tthe service at ${svc.url}: the base URL comes from profile 'default'\n` +
          `base_url\t${svc.url}\nkey\t${MASKED}\nkey_source\tprofile\nkey_store\tfile\nauthenticated\tyes\nagents\t2\n`,
        stderr: '',
        asked: [],
      });
      expect(svc.cliRequests()).toEqual([{ method: 'GET', path: '/v1/superagents', body: undefined }]);
      expectNoWholeKey(r, KEY);
    },
  );

  it('on a terminal: labelled fields, the source beside the key', async () => {
    const r = await cli(['whoami'], loggedIn(), { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      'Profile:        default\n' +
        `Service:        the service at ${svc.url}: the base URL comes from profile 'default'\n` +
        `Base URL:       ${svc.url}\n` +
        `Key:            ${MASKED} (from profile, kept in the config file)\n` +
        'Authenticated:  yes\nAgents:         2\n',
    );
  });

  it('--json gives the same as an object', async () => {
    const r = await cli(['whoami', '--json'], loggedIn());
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      profile: 'default',
      base_url: svc.url,
      key: MASKED,
      key_source: 'profile',
      key_store: 'file',
      embedded: false,
      service: 'configured',
      reason: "the base URL comes from profile 'default'",
      proxy: null,
      data_dir: null,
      authenticated: true,
      agents: 2,
      problem: null,
    });
    expectNoWholeKey(r, KEY);
  });

  it(
    'names the environment as the source of a key from ' + 'SUPERAGENT_API_KEY (the base URL still from the profile)',
    async () => {
      const r = await cli(['whoami', '--json'], loggedIn(), { env: { SUPERAGENT_API_KEY: OTHER_KEY } });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({
        key: MASKED_OTHER,
        key_source: 'env',
        service: 'configured',
        reason: "the base URL comes from profile 'default'",
        authenticated: true,
        agents: 0,
      });
      expectNoWholeKey(r, KEY, OTHER_KEY);
      const text = await cli(['whoami'], loggedIn(), { env: { SUPERAGENT_API_KEY: OTHER_KEY }, tty: true });
      expect(text.stdout).toContain(`Key:            ${MASKED_OTHER} (from SUPERAGENT_API_KEY)\n`);
    },
  );

  it('--profile picks the profile; an output json profile answers in JSON', async () => {
    const config = new MemoryConfig({
      profiles: {
        default: { base_url: svc.url, api_key: KEY },
        ci: { base_url: svc.url, api_key: OTHER_KEY, output: 'json' },
      },
    });
    const r = await cli(['whoami', '--profile', 'ci'], config);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      profile: 'ci',
      key: MASKED_OTHER,
      reason: "the base URL comes from profile 'ci'",
      agents: 0,
    });
  });
});

describe('whoami with nothing configured', () => {
  it('shows the embedded local service and its data dir, writing no config', async () => {
    const dataDir = temp.scratch('superagent-data-');
    const config = new MemoryConfig();
    const r = await cli(['whoami', '--json'], config, { env: { SUPERAGENT_DATA_DIR: dataDir } });
    expect(r.code).toBe(0);
    const id = JSON.parse(r.stdout);
    expect(id).toEqual({
      profile: 'default',
      base_url: null,
      key: expect.stringMatching(/^sa_sk_…[A-Za-z0-9]{4}$/),
      key_source: 'embedded',
      key_store: null,
      embedded: true,
      service: 'embedded',
      reason: 'no base URL or key is configured',
      proxy: null,
      data_dir: dataDir,
      authenticated: true,
      agents: 0,
      problem: null,
    });
    const text = await cli(['whoami'], config, { env: { SUPERAGENT_DATA_DIR: dataDir } });
    expect(text.stdout).toContain('service\tthe embedded local service: no base URL or key is configured\n');
    expect(text.stdout).toContain(`base_url\tembedded local service (${dataDir})\n`);
    expect(text.stdout).toContain(`key\t${id.key}\nkey_source\tembedded\n`);
    // on a terminal, the data dir under the home is said with ~, as the banner says it
    const home = path.dirname(dataDir);
    const tty = await cli(['whoami'], config, { env: { SUPERAGENT_DATA_DIR: dataDir, HOME: home }, tty: true });
    expect(tty.stdout).toMatch(
      new RegExp(`^Base URL: +embedded local service \\(~/${path.basename(dataDir)}\\)$`, 'm'),
    );
    expect(config.writes).toBe(0);
    // the embedded service keeps its key whole in the data dir; whoami shows it masked only
    const stored = fs.readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim();
    expect(id.key).toBe(`${stored.slice(0, 6)}…${stored.slice(-4)}`);
    expectNoWholeKey(r, stored);
    expectNoWholeKey(text, stored);
  });

  it('a proxy variable set: one line says the embedded service does not use it (--json: proxy null)', async () => {
    const env = { SUPERAGENT_DATA_DIR: temp.scratch('superagent-data-'), https_proxy: 'http://u:pw@127.0.0.1:9' };
    const notUsed = 'not used by the embedded service (https_proxy is set)';
    const piped = await cli(['whoami'], new MemoryConfig(), { env });
    expect([piped.code, piped.stderr]).toEqual([0, '']);
    expect(piped.stdout.split('\n').filter((l) => l.startsWith('proxy'))).toEqual([`proxy\t${notUsed}`]);
    const tty = await cli(['whoami'], new MemoryConfig(), { env, tty: true });
    expect(tty.stdout).toMatch(new RegExp(`^Proxy: +${notUsed.replace(/[()]/g, '\\$&')}$`, 'm'));
    const json = await cli(['whoami', '--json'], new MemoryConfig(), { env });
    expect(JSON.parse(json.stdout).proxy).toBeNull();
  });
});

describe('whoami when the key does not work', () => {
  it('a rejected key exits 3 with authenticated false', async () => {
    const r = await cli(['whoami', '--json'], new MemoryConfig(), {
      env: { SUPERAGENT_BASE_URL: svc.url, SUPERAGENT_API_KEY: WRONG_KEY },
    });
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toEqual({
      profile: 'default',
      base_url: svc.url,
      key: 'sa_sk_…WWWW',
      key_source: 'env',
      key_store: null,
      embedded: false,
      service: 'configured',
      reason: 'the base URL comes from SUPERAGENT_BASE_URL',
      proxy: null,
      data_dir: null,
      authenticated: false,
      agents: null,
      problem: `${svc.url} rejected the key sa_sk_…WWWW: Invalid or revoked API key (401)`,
    });
    expect(r.stderr).toContain(`rejected the key sa_sk_…WWWW`);
    expectNoWholeKey(r, WRONG_KEY);
    const text = await cli(['whoami'], new MemoryConfig(), {
      env: { SUPERAGENT_BASE_URL: svc.url, SUPERAGENT_API_KEY: WRONG_KEY },
    });
    expect(text.code).toBe(3);
    expect(text.stdout).toContain(
      `authenticated\tno\nproblem\t${svc.url} rejected the key sa_sk_…WWWW: Invalid or revoked API key (401)\n`,
    );
    const tty = await cli(['whoami'], new MemoryConfig(), {
      env: { SUPERAGENT_BASE_URL: svc.url, SUPERAGENT_API_KEY: WRONG_KEY },
      tty: true,
    });
    expect(tty.stdout).toContain('Authenticated:  no (the service rejected the key)\n');
  });

  it('an unreachable service exits 7, the check unknown', async () => {
    const clock = new FakeClock();
    const r = await cli(['whoami'], new MemoryConfig(), {
      env: { SUPERAGENT_BASE_URL: unreachable, SUPERAGENT_API_KEY: KEY },
      clock,
    });
    expect(r.code).toBe(7);
    expect(r.stdout).toContain('authenticated\tunknown (the check failed)\n');
    expect(r.stdout).toContain(`problem\tcannot reach ${unreachable}/v1/superagents: connection refused\n`);
    expect(r.stdout).not.toMatch(/^agents\t/m);
    expect(r.stderr).toBe(
      `Error: cannot reach ${unreachable}/v1/superagents: connection ` +
        `refused (check the base URL and that the service is running)\n`,
    );
    expectNoWholeKey(r, KEY);
  });

  it('a base URL without a key exits 3, before any request', async () => {
    const r = await cli(['whoami'], new MemoryConfig(), { env: { SUPERAGENT_BASE_URL: svc.url } });
    expect(r).toEqual({
      code: 3,
      stdout:
        `profile\tdefault\nservice\tthe service at ${svc.url}: the base ` +
        `URL comes from SUPERAGENT_BASE_URL\nbase_url\t${svc.url}\n` +
        `key\tnone\nkey_source\tnone\nauthenticated\tno\nproblem\tno API key for ${svc.url}\n`,
      stderr: `Error: no API key for ${svc.url} (run 'superagent login', or set SUPERAGENT_API_KEY)\n`,
      asked: [],
    });
    expect(svc.cliRequests()).toEqual([]);
  });
});

// whoami is where one looks when the key does not work: it says what it knows, where the key is and
// why it cannot be used, then exits 3 as any command would.
describe('whoami when the key cannot be had or is not known', () => {
  const NO_BUS = 'no Secret Service in this session (DBUS_SESSION_BUS_ADDRESS is not set)';
  const unreadable = `the key of profile 'default' is in the OS keychain but it cannot be read here: ${NO_BUS}`;
  const inKeychain = (keychain: MemoryKeychain) =>
    new MemoryConfig(
      { active_profile: 'default', profiles: { default: { base_url: svc.url, api_key_store: 'keychain' } } },
      keychain,
    );

  it(
    'a keychain that cannot be read here: the profile, the ' + 'service, where the key is and why not, then exit 3',
    async () => {
      const config = inKeychain(new MemoryKeychain(KEYCHAIN_SAYS.noBusAddress));
      const error =
        `Error: ${unreadable} (run the command from a session with the keychain, ` +
        "or 'superagent login --profile default --insecure-storage' to keep a key in the config file)\n";
      expect(await cli(['whoami'], config)).toEqual({
        code: 3,
        stdout:
          `profile\tdefault\nservice\tthe service at ${svc.url}: the base ` +
          `URL comes from profile 'default'\nbase_url\t${svc.url}\n` +
          `key\tnone\nkey_source\tprofile\nkey_store\tkeychain\nauthenticated\tno\nproblem\t${unreadable}\n`,
        stderr: error,
        asked: [],
      });
      const tty = await cli(['whoami'], config, { tty: true });
      expect(tty.code).toBe(3);
      // a long value wraps under itself at 80 columns
      expect(tty.stdout.replace(/\n {16}/g, ' ')).toBe(
        'Profile:        default\n' +
          `Service:        the service at ${svc.url}: the base URL comes from profile 'default'\n` +
          `Base URL:       ${svc.url}\n` +
          `Key:            in the OS keychain (cannot be read here: ${NO_BUS})\n` +
          'Authenticated:  no (no key to check)\n',
      );
      const json = await cli(['whoami', '--json'], config);
      expect(json.code).toBe(3);
      expect(JSON.parse(json.stdout)).toEqual({
        profile: 'default',
        base_url: svc.url,
        key: null,
        key_source: 'profile',
        key_store: 'keychain',
        embedded: false,
        service: 'configured',
        reason: "the base URL comes from profile 'default'",
        proxy: null,
        data_dir: null,
        authenticated: false,
        agents: null,
        problem: unreadable,
      });
      expect(svc.cliRequests()).toEqual([]);
    },
  );

  it('an entry that is gone: said on the Key line', async () => {
    const r = await cli(['whoami'], inKeychain(new MemoryKeychain()), { tty: true });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('Key:            in the OS keychain (it is not there)\n');
  });

  it('reads the keychain once', async () => {
    const keychain = new MemoryKeychain();
    const config = inKeychain(keychain);
    keychain.entries.set(`default@${config.path}`, KEY);
    expect((await cli(['whoami'], config)).code).toBe(0);
    expect(keychain.calls).toHaveLength(1);
  });

  it(
    'a key the embedded service does not know (its base URL ' + 'unset): what is known, then exit 3 naming logout',
    async () => {
      const dataDir = temp.scratch('superagent-data-');
      const config = new MemoryConfig({ active_profile: 'default', profiles: { default: { api_key: KEY } } });
      const r = await cli(['whoami'], config, { env: { SUPERAGENT_DATA_DIR: dataDir } });
      expect(r.code).toBe(3);
      const own = fs.readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim();
      const problem =
        `the embedded service in ${dataDir} does not know the key ${MASKED} ` +
        `from profile 'default' (its own is sa_sk_…${own.slice(-4)})`;
      expect(r.stdout).toBe(
        `profile\tdefault\nservice\tthe embedded local service: an sa_sk_ ` +
          `key comes from profile 'default' and no base URL is set\n` +
          `base_url\tembedded local service (${dataDir})\nkey\t${MASKED}\nkey_source\tprofile\nkey_store\tfile\n` +
          `authenticated\tno\nproblem\t${problem}\n`,
      );
      expect(r.stderr).toContain("run 'superagent logout' (or 'superagent config unset api_key')");
      const tty = await cli(['whoami'], config, { env: { SUPERAGENT_DATA_DIR: dataDir }, tty: true });
      expect(tty.stdout).toContain('Authenticated:  no (the embedded service does not know the key)\n');
    },
  );
});

describe('any command: a missing or rejected key exits 3, a service out of reach 7', () => {
  it('a wrong key: exit 3 with the service’s message', async () => {
    const r = await cli(['list'], new MemoryConfig(), {
      env: { SUPERAGENT_BASE_URL: svc.url, SUPERAGENT_API_KEY: WRONG_KEY },
    });
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Invalid or revoked API key');
    expectNoWholeKey(r, WRONG_KEY);
  });

  it('no key for a configured URL: exit 3 pointing at login and SUPERAGENT_API_KEY, before any request', async () => {
    const r = await cli(['list'], new MemoryConfig({ profiles: { default: { base_url: svc.url } } }));
    expect(r).toEqual({
      code: 3,
      stdout: '',
      stderr: `Error: no API key for ${svc.url} (run 'superagent login', or set SUPERAGENT_API_KEY)\n`,
      asked: [],
    });
    expect(svc.cliRequests()).toEqual([]);
  });

  it('connection refused: exit 7', async () => {
    const r = await cli(['list'], new MemoryConfig(), {
      env: { SUPERAGENT_BASE_URL: unreachable, SUPERAGENT_API_KEY: KEY },
      clock: new FakeClock(),
    });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain(`cannot reach ${unreachable}/v1/superagents: connection refused`);
  });
});
