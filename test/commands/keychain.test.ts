// Where a profile's key is kept, through the commands layer with a keychain in memory (a real Secret
// Service: test/e2e/keychain.test.ts): `login` puts it in the OS keychain and the config file says
// only that it is there; with no keychain it goes to the file, said in one line; --insecure-storage
// asks for the file; a key already in the file keeps working and `login` again moves it; `logout`
// removes it from both; whoami and config list say where it is; and the keychain is touched only
// for a profile whose key is there (never when SUPERAGENT_API_KEY or --api-key gives one).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { keychainWords } from '../../src/config/keychain.js';
import { FakeClock, MemoryConfig, runLine, type RunOptions } from '../helpers/context.js';
import { KEYCHAIN_SAYS, MemoryKeychain } from '../helpers/keychain.js';
import { stopService } from '../helpers/service-support.js';
import { startTestService, type TestService } from '../helpers/service.js';

const KEY = 'sa_sk_' + 'Kk1Ll2Mm3Nn4Oo5Pp6Qq7Rr8Ss9Tt0Uv';
const OTHER_KEY = 'sa_sk_' + 'Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pw';
const MASKED = 'sa_sk_…t0Uv';
/** no D-Bus session (a server, an ssh login), as the binding says it and as we do */
const NO_KEYCHAIN = KEYCHAIN_SAYS.noBusAddress;
const NO_KEYCHAIN_WORDS = 'no Secret Service in this session (DBUS_SESSION_BUS_ADDRESS is not set)';
const DISMISSED_WORDS = 'the keyring is locked (its unlock prompt was dismissed)';
/** the OS keychain, as messages name it on this platform */
const KEYCHAIN = keychainWords();
/** what login says once it kept the key, piped too */
const loggedIn = (where: 'the OS keychain' | 'the config file', masked = MASKED) =>
  `Logged in to ${svc.url} as profile default (key ${masked}, kept in ${where})\n`;

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService({ keys: [KEY, OTHER_KEY] });
});
afterAll(async () => {
  await stopService(svc);
});
beforeEach(() => {
  svc.exchanges.splice(0);
});

const cli = (argv: string[], config: MemoryConfig, o: RunOptions = {}) => runLine(undefined, argv, { config, ...o });
const login = (config: MemoryConfig, key: string, more: string[] = []) =>
  cli(['login', '--with-token', '--base-url', svc.url, ...more], config, { input: `${key}\n` });
const account = (config: MemoryConfig, name = 'default') => `${name}@${config.path}`;
/** A config file whose profile says its key is in the keychain, and a keychain that holds it. */
function keptInKeychain(key = KEY, keychain = new MemoryKeychain()): MemoryConfig {
  const config = new MemoryConfig(
    { active_profile: 'default', profiles: { default: { base_url: svc.url, api_key_store: 'keychain' } } },
    keychain,
  );
  keychain.entries.set(account(config), key);
  return config;
}

describe('login keeps the key in the OS keychain', () => {
  it('the file records only that it is there, and commands read it from there', async () => {
    const config = new MemoryConfig();
    expect(await login(config, KEY)).toEqual({ code: 0, stdout: '', stderr: loggedIn('the OS keychain'), asked: [] });
    expect(config.data).toEqual({
      active_profile: 'default',
      profiles: { default: { base_url: svc.url, api_key_store: 'keychain' } },
    });
    expect(JSON.stringify(config.data)).not.toContain(KEY);
    expect([...config.keychain.entries]).toEqual([[account(config), KEY]]);
    const list = await cli(['list'], config);
    expect([list.code, list.stderr]).toEqual([0, '']);
    expect(config.keychain.calls.at(-1)).toBe(`get ${account(config)}`);
  });

  it('where no keychain can be used: the file (0600), said in one line, in words', async () => {
    const config = new MemoryConfig({}, new MemoryKeychain(NO_KEYCHAIN));
    const r = await login(config, KEY);
    expect(r).toEqual({
      code: 0,
      stdout: '',
      stderr:
        '! No Secret Service in this session (DBUS_SESSION_BUS_ADDRESS is not set): ' +
        `the key is kept in ${config.path} (mode 0600) instead ` +
        `(--insecure-storage asks for that without this notice)\n` +
        loggedIn('the config file'),
      asked: [],
    });
    expect(config.data.profiles!.default).toEqual({ base_url: svc.url, api_key: KEY });
  });

  it('a locked keyring whose prompt was dismissed: the file, and the advice is to unlock it', async () => {
    const config = new MemoryConfig({}, new MemoryKeychain(KEYCHAIN_SAYS.dismissed));
    const r = await login(config, KEY);
    expect([r.code, r.stderr]).toEqual([
      0,
      `! The keyring is locked (its unlock prompt was dismissed): the ` +
        `key is kept in ${config.path} (mode 0600) instead ` +
        '(unlock the keyring and log in again to move it there)\n' +
        loggedIn('the config file'),
    ]);
  });

  it("--debug adds the binding's own words on a line of their own", async () => {
    const config = new MemoryConfig({}, new MemoryKeychain(NO_KEYCHAIN));
    const r = await login(config, KEY, ['--debug']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`superagent: ${KEYCHAIN} failed to keep the key: ${NO_KEYCHAIN}\n`);
    expect((await login(new MemoryConfig({}, new MemoryKeychain(NO_KEYCHAIN)), KEY)).stderr).not.toContain('X11');
  });

  it('--insecure-storage: the file, no notice, the keychain not touched', async () => {
    const config = new MemoryConfig();
    const r = await login(config, KEY, ['--insecure-storage']);
    expect(r).toEqual({ code: 0, stdout: '', stderr: loggedIn('the config file'), asked: [] });
    expect(config.data.profiles!.default).toEqual({ base_url: svc.url, api_key: KEY });
    expect(config.keychain.calls).toEqual([]);
  });

  it('a key already in the file keeps working without the keychain, and login again moves it there', async () => {
    const config = new MemoryConfig({
      active_profile: 'default',
      profiles: { default: { base_url: svc.url, api_key: KEY, output: 'json' } },
    });
    expect((await cli(['list'], config)).code).toBe(0);
    expect(config.keychain.calls).toEqual([]);
    expect((await login(config, KEY)).code).toBe(0);
    expect(config.data.profiles!.default).toEqual({ base_url: svc.url, api_key_store: 'keychain', output: 'json' });
    expect(config.keychain.entries.get(account(config))).toBe(KEY);
  });

  it(
    'login --insecure-storage of a profile whose key is in the ' +
      'keychain moves it to the file, and the keychain forgets it',
    async () => {
      const config = keptInKeychain();
      expect((await login(config, OTHER_KEY, ['--insecure-storage'])).code).toBe(0);
      expect(config.data.profiles!.default).toEqual({ base_url: svc.url, api_key: OTHER_KEY });
      expect(config.keychain.entries.size).toBe(0);
    },
  );

  it('two config files with a profile of the same name keep two keys', async () => {
    const keychain = new MemoryKeychain();
    const one = new MemoryConfig({}, keychain);
    const other = Object.assign(new MemoryConfig({}, keychain), { path: '/virtual/other/config.json' });
    expect((await login(one, KEY)).code).toBe(0);
    expect((await login(other, OTHER_KEY)).code).toBe(0);
    expect(keychain.entries).toEqual(
      new Map([
        [account(one), KEY],
        [account(other), OTHER_KEY],
      ]),
    );
  });
});

describe('a key kept in the keychain that cannot be had', () => {
  it('a keychain that cannot be read: exit 3, one line saying so and what to run, before any request', async () => {
    const config = keptInKeychain(KEY, new MemoryKeychain('Secret Service: the collection is broken'));
    for (const argv of [['list'], ['config', 'get', 'api_key']]) {
      const r = await cli(argv, config);
      expect(r).toEqual({
        code: 3,
        stdout: '',
        stderr:
          "Error: the key of profile 'default' is in the OS keychain but it " +
          'cannot be read: Secret Service: the collection is broken ' +
          "(run 'superagent login --profile default' again)\n",
        asked: [],
      });
    }
    expect(svc.cliRequests()).toEqual([]);
  });

  it('no keychain in this session: said in words, and to use it from a session that has one', async () => {
    const r = await cli(['list'], keptInKeychain(KEY, new MemoryKeychain(NO_KEYCHAIN)));
    expect([r.code, r.stderr]).toEqual([
      3,
      `Error: the key of profile 'default' is in the OS keychain but it cannot be read here: ${NO_KEYCHAIN_WORDS} ` +
        '(run the command from a session with the keychain, or ' +
        "'superagent login --profile default --insecure-storage' " +
        'to keep a key in the config file)\n',
    ]);
  });

  it('a locked keyring whose prompt was dismissed: unlock it (or --insecure-storage), not "login again"', async () => {
    const r = await cli(['list'], keptInKeychain(KEY, new MemoryKeychain(KEYCHAIN_SAYS.dismissed)));
    expect([r.code, r.stderr]).toEqual([
      3,
      `Error: the key of profile 'default' is in the OS keychain but it cannot be read: ${DISMISSED_WORDS} ` +
        "(unlock the keyring and run the command again, or 'superagent login --profile default --insecure-storage' " +
        'to keep a key in the config file)\n',
    ]);
  });

  it('an entry that is gone: exit 3, saying so', async () => {
    const config = keptInKeychain();
    config.keychain.entries.clear();
    const r = await cli(['list'], config);
    expect([r.code, r.stderr]).toEqual([
      3,
      "Error: the key of profile 'default' should be in the OS keychain, but it " +
        "is not there (run 'superagent login --profile default' again)\n",
    ]);
  });
});

describe('a keychain that never answers (a locked keyring whose unlock prompt nobody sees)', () => {
  const waiting = (seconds: number) =>
    `! Waiting for ${KEYCHAIN} to answer: a locked keyring may be asking to be unlocked ` +
    `(giving up after ${seconds} s)\n`;
  const unreadable = (seconds: number) =>
    `Error: ${KEYCHAIN} is locked: no answer within ${seconds} s when asked for the key of profile 'default' ` +
    '(unlock it and run the command again, or allow longer with --timeout)\n';
  const silent = () => keptInKeychain(KEY, new MemoryKeychain().silent());
  const loginSlowly = (config: MemoryConfig) =>
    cli(['login', '--with-token', '--base-url', svc.url], config, { input: `${KEY}\n`, clock: new FakeClock() });

  const readers = [[['list']], [['whoami']], [['config', 'get', 'api_key']]];
  it.each(readers)('%j: said after a moment, then exit 3 after 30 s, the call stopped, no request', async (argv) => {
    const config = silent();
    const clock = new FakeClock();
    const r = await cli(argv, config, { clock });
    // whoami still says what it knows (whoami.test.ts)
    const stdout =
      argv[0] === 'whoami' ? expect.stringContaining('key\tnone\nkey_source\tprofile\nkey_store\tkeychain\n') : '';
    expect(r).toEqual({ code: 3, stdout, stderr: waiting(30) + unreadable(30), asked: [] });
    expect(config.keychain.stopped).toEqual([`get ${account(config)}`]);
    expect(clock.slept).toContain(30_000);
    expect(svc.cliRequests()).toEqual([]);
  });

  it('--timeout bounds the wait instead; --quiet leaves only the error', async () => {
    const config = silent();
    const clock = new FakeClock();
    const r = await cli(['list', '--timeout', '5'], config, { clock });
    expect(r).toEqual({ code: 3, stdout: '', stderr: waiting(5) + unreadable(5), asked: [] });
    expect(clock.slept).toContain(5000);
    expect(clock.slept).not.toContain(30_000);
    expect((await cli(['list', '--quiet'], config, { clock: new FakeClock() })).stderr).toBe(unreadable(30));
  });

  it('login: exit 2 naming the keychain and what to do; nothing saved, a key the file held still there', async () => {
    const fileKey = { active_profile: 'default', profiles: { default: { base_url: svc.url, api_key: OTHER_KEY } } };
    const config = new MemoryConfig(fileKey, new MemoryKeychain().silent());
    const before = structuredClone(config.data);
    const r = await loginSlowly(config);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        waiting(30) +
        `Error: ${KEYCHAIN} is locked: no answer within 30 s, so the key was not saved ` +
        '(unlock it and log in again, or pass --insecure-storage to keep the key in the config file)\n',
      asked: [],
    });
    expect(config.data).toEqual(before);
    expect(config.keychain.stopped).toEqual([`set ${account(config)}`]);
    expect(config.keychain.entries.size).toBe(0);
  });

  it('login with a fresh config file: the file is never written', async () => {
    const config = new MemoryConfig({}, new MemoryKeychain().silent());
    const r = await loginSlowly(config);
    expect(r.code).toBe(2);
    expect(config.data).toEqual({});
  });

  it('a Tab (__complete) waits for it no longer than its budget, and says nothing', async () => {
    const config = silent();
    const clock = new FakeClock();
    const r = await cli(['__complete', 'agents'], config, { clock, env: { SUPERAGENT_COMPLETION_BUDGET_MS: '1000' } });
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect(config.keychain.stopped).toEqual([`get ${account(config)}`]);
    expect(clock.slept).toContain(1000);
    expect(clock.slept).not.toContain(30_000);
  });

  it('logout: exit 2 saying so, the profile left as it was to try again', async () => {
    const config = silent();
    const before = structuredClone(config.data);
    const r = await cli(['logout'], config, { clock: new FakeClock() });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        waiting(30) +
        "Error: the key of profile 'default' is in the OS keychain and cannot be removed from it: " +
        `${KEYCHAIN} is locked: no answer within 30 s (unlock the keyring, then run 'superagent logout' again)\n`,
      asked: [],
    });
    expect(config.data).toEqual(before);
    expect(config.keychain.entries.size).toBe(1);
  });
});

describe.skipIf(process.platform !== 'linux')('a D-Bus session bus that never answers (hung, or stopped)', () => {
  const BUS = 'unix:path=/run/user/1000/bus';
  const env = { DBUS_SESSION_BUS_ADDRESS: `${BUS},guid=0123456789abcdef0123456789abcdef` };
  const KEYCHAIN_AT = `the OS keychain (D-Bus session bus at ${BUS})`;
  const waiting = (seconds: number) => `! Waiting for ${KEYCHAIN_AT} to answer (giving up after ${seconds} s)\n`;
  const unreadable = (seconds: number) =>
    `Error: ${KEYCHAIN_AT} did not answer within ${seconds} s when asked for the key of profile 'default' ` +
    '(that bus, or the keyring daemon on it, may be stopped or hung: run the command from a session whose keychain ' +
    "answers, or 'superagent login --profile default --insecure-storage' to keep a key in the config file)\n";
  const frozen = () => keptInKeychain(KEY, new MemoryKeychain().frozen());

  const readers = [[['list']], [['whoami']], [['config', 'get', 'api_key']]];
  it.each(readers)('%j gives up after 10 s, not 30, naming the bus (no locked keyring): exit 3', async (argv) => {
    const config = frozen();
    const clock = new FakeClock();
    const r = await cli(argv, config, { clock, env });
    const problem =
      `key\tnone\nkey_source\tprofile\nkey_store\tkeychain\na` + `uthenticated\tno\nproblem\t${KEYCHAIN_AT} did not`;
    const stdout = argv[0] === 'whoami' ? expect.stringContaining(problem) : '';
    expect(r).toEqual({ code: 3, stdout, stderr: waiting(10) + unreadable(10), asked: [] });
    expect(config.keychain.stopped).toEqual([`get ${account(config)}`]);
    expect(clock.slept).toContain(10_000);
    expect(clock.slept).not.toContain(30_000);
    expect(svc.cliRequests()).toEqual([]);
  });

  it('--timeout shorter than that bounds it instead', async () => {
    const r = await cli(['list', '--timeout', '3'], frozen(), { clock: new FakeClock(), env });
    expect([r.code, r.stderr]).toEqual([3, waiting(3) + unreadable(3)]);
  });

  it('login keeps the key in the 0600 file and says so in one line, as with no keychain', async () => {
    const config = new MemoryConfig({}, new MemoryKeychain().frozen());
    const argv = ['login', '--with-token', '--base-url', svc.url];
    const r = await cli(argv, config, { input: `${KEY}\n`, clock: new FakeClock(), env });
    expect(r).toEqual({
      code: 0,
      stdout: '',
      stderr:
        waiting(10) +
        `! The OS keychain (D-Bus session bus at ${BUS}) did not answer within 10 s: ` +
        `the key is kept in ${config.path} (mode 0600) instead ` +
        `(--insecure-storage asks for that without this notice)\n` +
        loggedIn('the config file'),
      asked: [],
    });
    expect(config.data.profiles!.default).toEqual({ base_url: svc.url, api_key: KEY });
  });
});

describe('a key from SUPERAGENT_API_KEY or --api-key', () => {
  it('never touches the keychain, even where the profile keeps its key there', async () => {
    const keychain = new MemoryKeychain('would prompt');
    const config = keptInKeychain(KEY, keychain);
    const env = await cli(['list'], config, { env: { SUPERAGENT_API_KEY: OTHER_KEY } });
    const flag = await cli(['list', '--api-key', OTHER_KEY], config);
    const who = await cli(['whoami', '--json'], config, { env: { SUPERAGENT_API_KEY: OTHER_KEY } });
    expect([env.code, flag.code, who.code]).toEqual([0, 0, 0]);
    expect(JSON.parse(who.stdout)).toMatchObject({ key_source: 'env', key_store: null });
    expect(keychain.calls).toEqual([]);
  });
});

describe('logout and config unset api_key', () => {
  it('logout removes the key from the keychain and the file says nothing of it any more', async () => {
    const config = keptInKeychain();
    const r = await cli(['logout'], config, { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`✓ Removed the key of profile default from the OS keychain (${svc.url})\n`);
    expect(config.keychain.entries.size).toBe(0);
    expect(config.data.profiles!.default).toEqual({ base_url: svc.url });
    expect((await cli(['whoami'], config)).code).toBe(3);
  });

  it('removes it from both when both hold one (a file edited by hand)', async () => {
    const config = keptInKeychain();
    config.data.profiles!.default!.api_key = OTHER_KEY;
    expect((await cli(['logout'], config)).code).toBe(0);
    expect(config.keychain.entries.size).toBe(0);
    expect(config.data.profiles!.default).toEqual({ base_url: svc.url });
  });

  it('a keychain that cannot be used: exit 2 saying so, the profile left as it was to try again', async () => {
    const config = keptInKeychain(KEY, new MemoryKeychain(NO_KEYCHAIN));
    const before = structuredClone(config.data);
    const r = await cli(['logout'], config);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `Error: the key of profile 'default' is in the OS keychain and ` +
        `cannot be removed from it here: ${NO_KEYCHAIN_WORDS} ` +
        "(run 'superagent logout' again from a session with the keychain)\n",
      asked: [],
    });
    expect(config.data).toEqual(before);
  });

  it('config unset api_key does what logout does', async () => {
    const config = keptInKeychain();
    expect((await cli(['config', 'unset', 'api_key'], config)).code).toBe(0);
    expect(config.keychain.entries.size).toBe(0);
    expect(config.data.profiles!.default).toEqual({ base_url: svc.url });
  });
});

describe('where the key is kept, as whoami and config say it', () => {
  it('whoami: the keychain, on a terminal, piped and in JSON', async () => {
    const config = keptInKeychain();
    expect((await cli(['whoami'], config, { tty: true })).stdout).toContain(
      `Key:            ${MASKED} (from profile, kept in the OS keychain)\n`,
    );
    expect((await cli(['whoami'], config)).stdout).toContain(
      `key\t${MASKED}\nkey_source\tprofile\nkey_store\tkeychain\n`,
    );
    expect(JSON.parse((await cli(['whoami', '--json'], config)).stdout)).toMatchObject({
      key: MASKED,
      key_source: 'profile',
      key_store: 'keychain',
      authenticated: true,
    });
  });

  it('config get api_key reads it from the keychain, masked', async () => {
    const config = keptInKeychain();
    expect(await cli(['config', 'get', 'api_key'], config)).toEqual({
      code: 0,
      stdout: `${MASKED}\n`,
      stderr: '',
      asked: [],
    });
  });
});

// A login where no keychain can be used leaves the key it replaces in the keychain, and the profile
// no longer says so: logout and `config unset api_key` look for the profile's entry whatever the
// profile says (one call, on these two commands only), and remove it.
describe('a key left in the keychain by an earlier login', () => {
  const CAP_NO_KEYCHAIN_WORDS = NO_KEYCHAIN_WORDS.charAt(0).toUpperCase() + NO_KEYCHAIN_WORDS.slice(1);

  it(
    'login again where there is no keychain says the old key stays ' +
      'there; logout back in the keychain session removes it',
    async () => {
      const config = new MemoryConfig();
      const keychain = config.keychain;
      expect((await login(config, KEY)).code).toBe(0);
      keychain.unavailable = NO_KEYCHAIN; // an ssh login, say
      const again = await login(config, OTHER_KEY);
      expect(again).toEqual({
        code: 0,
        stdout: '',
        stderr:
          `! ${CAP_NO_KEYCHAIN_WORDS}: the key is kept in ${config.path} ` +
          `(mode 0600) instead, and the key it replaces stays ` +
          "in the OS keychain ('superagent login' from a session with the keychain moves the new key there, " +
          "'superagent logout' there removes both)\n" +
          loggedIn('the config file', 'sa_sk_…q0Pw'),
        asked: [],
      });
      const unset = await cli(['config', 'unset', 'api_key'], config);
      expect([unset.code, unset.stderr]).toEqual([0, '']);
      expect(config.data.profiles!.default).toEqual({ base_url: svc.url });

      keychain.unavailable = undefined; // back in the desktop session
      const out = await cli(['logout'], config, { tty: true });
      expect(out.code).toBe(0);
      expect(out.stderr).toContain(
        `✓ Removed the key of profile default from the OS keychain, where an earlier login left it (${svc.url})\n`,
      );
      expect(keychain.entries.size).toBe(0);
    },
  );

  it('config unset api_key removes such a copy too, with the key in the file', async () => {
    const config = new MemoryConfig({
      active_profile: 'default',
      profiles: { default: { base_url: svc.url, api_key: OTHER_KEY } },
    });
    config.keychain.entries.set(account(config), KEY);
    const r = await cli(['config', 'unset', 'api_key'], config, { tty: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      '✓ Removed api_key from profile default (it was in the config file, ' +
        'and an earlier login left a copy in the OS keychain)\n',
    );
    expect(config.keychain.entries.size).toBe(0);
    expect(config.data.profiles!.default).toEqual({ base_url: svc.url });
  });

  it('logout with no key anywhere: nothing to do, after one look in the keychain', async () => {
    const config = new MemoryConfig({ active_profile: 'default', profiles: { default: { base_url: svc.url } } });
    const r = await cli(['logout'], config, { tty: true });
    expect([r.code, r.stderr]).toEqual([0, "Profile 'default' has no stored key; nothing to do.\n"]);
    expect(config.keychain.calls).toEqual([`delete ${account(config)}`]);
  });

  it(
    'no keychain in this session, and a profile that does not keep ' +
      'its key there: the file key goes, nothing said of the keychain',
    async () => {
      const config = new MemoryConfig(
        { active_profile: 'default', profiles: { default: { base_url: svc.url, api_key: KEY } } },
        new MemoryKeychain(NO_KEYCHAIN),
      );
      const removed = `Removed the key ${MASKED} of profile default from the config file (${svc.url})\n`;
      expect(await cli(['logout'], config)).toEqual({ code: 0, stdout: '', stderr: removed, asked: [] });
      expect(config.data.profiles!.default).toEqual({ base_url: svc.url });
      // --debug says the keychain was not looked in, and why
      config.data.profiles!.default!.api_key = KEY;
      const debug = await cli(['logout', '--debug'], config);
      expect(debug.stderr).toBe(`superagent: ${KEYCHAIN} failed to remove the key: ${NO_KEYCHAIN}\n${removed}`);
    },
  );

  it('a copy that a locked keyring will not give up: exit 2, the profile left as it was to try again', async () => {
    const fileKey = { active_profile: 'default', profiles: { default: { base_url: svc.url, api_key: KEY } } };
    const config = new MemoryConfig(fileKey, new MemoryKeychain(KEYCHAIN_SAYS.dismissed));
    const before = structuredClone(config.data);
    const r = await cli(['logout'], config);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `Error: the OS keychain may hold an old copy of the key of profile ` +
        `'default', and it cannot be removed: ${DISMISSED_WORDS} ` +
        "(unlock the keyring, then run 'superagent logout' again)\n",
      asked: [],
    });
    expect(config.data).toEqual(before);
  });

  it(
    'login --insecure-storage where the keychain cannot be used: ' +
      'the old key stays there, and how to remove it later',
    async () => {
      const config = keptInKeychain();
      config.keychain.unavailable = NO_KEYCHAIN;
      const r = await login(config, OTHER_KEY, ['--insecure-storage']);
      expect([r.code, r.stderr]).toEqual([
        0,
        `! The old key of profile 'default' stays in the OS keychain (${NO_KEYCHAIN_WORDS}): ` +
          "'superagent logout' from a session with the keychain removes it (and the new key in the file)\n" +
          loggedIn('the config file', 'sa_sk_…q0Pw'),
      ]);
      expect(config.data.profiles!.default).toEqual({ base_url: svc.url, api_key: OTHER_KEY });
    },
  );
});
