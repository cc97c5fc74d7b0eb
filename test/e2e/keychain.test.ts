// Keys in a real OS keychain, where only a process shows it: the built CLI against a Secret Service
// of the test's own (test/helpers/secret-service.ts: a private D-Bus bus and gnome-keyring, unlocked).
// `login` files the key there and the config file holds no key; other commands read it from there;
// `logout` removes it. With no session bus, or a keyring nobody can unlock, the key goes to the file,
// said in one line, at once. A key from SUPERAGENT_API_KEY never loads the keychain's binding at all.
// Runs the built CLI (`npm run build` first when alone).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { missingPrograms, startSecretService, type SecretService } from '../helpers/secret-service.js';
import { perTest, stopService } from '../helpers/service-support.js';
import { startTestService, type TestService } from '../helpers/service.js';

const KEY = 'sa_sk_' + 'Kk1Ll2Mm3Nn4Oo5Pp6Qq7Rr8Ss9Tt0Uv';
const OTHER_KEY = 'sa_sk_' + 'Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pw';
/** no session bus, in the words the CLI says it (the binding's own mention X11 autolaunch) */
const NO_BUS = 'no Secret Service in this session \\(DBUS_SESSION_BUS_ADDRESS is not set\\)';
const MISSING = process.platform === 'linux' ? missingPrograms() : ['Linux'];
if (MISSING.length > 0)
  console.warn(
    `keychain.test: ${MISSING.join(', ')} missing, so the tests with ` +
      `a real Secret Service are skipped (.ci/run installs them)`,
  );

const temp = perTest();
let svc: TestService;
let secrets: SecretService | undefined;

beforeAll(async () => {
  svc = await startTestService({ keys: [KEY, OTHER_KEY] });
});
afterAll(async () => {
  await stopService(svc);
});
afterEach(async () => {
  await secrets?.stop();
  secrets = undefined;
});

// a keychain call slower than a second (a loaded machine) says it is waiting, as a warning line: no failure, and
// nothing else may be said
const withoutWaits = (stderr: string) => stderr.replace(/^! Waiting for the OS keychain [^\n]*\n/gm, '');
const configFile = (dir: string) => path.join(dir, 'config.json');
const account = (dir: string, profile = 'default') => `${profile}@${configFile(dir)}`;

describe.skipIf(MISSING.length > 0)(
  `a Secret Service${MISSING.length ? ` (skipped: ${MISSING.join(', ')} missing)` : ''}`,
  () => {
    it(
      'login files the key there and the file holds none; list ' + 'and whoami read it from there; logout removes it',
      async () => {
        secrets = await startSecretService();
        const dir = temp.scratch('superagent-config-');
        const o = { configDir: dir, dataDir: temp.scratch('superagent-data-'), env: secrets.env };
        const login = await runCli(['login', '--with-token', '--base-url', svc.url], { ...o, input: `${KEY}\n` });
        const kept =
          `Logged in to ${svc.url} as profile default (key ` + `sa_sk_…${KEY.slice(-4)}, kept in the OS keychain)\n`;
        expect([login.exitCode, withoutWaits(login.stderr)]).toEqual([0, kept]);
        expect(await secrets.lookup({ service: 'superagent', username: account(dir) })).toBe(KEY);
        expect(fs.readFileSync(configFile(dir), 'utf8')).not.toContain(KEY.slice(6));
        expect(JSON.parse(fs.readFileSync(configFile(dir), 'utf8')).profiles.default).toEqual({
          base_url: svc.url,
          api_key_store: 'keychain',
        });

        const list = await runCli(['list'], o);
        expect([list.exitCode, withoutWaits(list.stderr)]).toEqual([0, '']);
        const who = await runCli(['whoami', '--json'], o);
        expect(JSON.parse(who.stdout)).toMatchObject({
          key: 'sa_sk_…t0Uv',
          key_source: 'profile',
          key_store: 'keychain',
          authenticated: true,
        });

        expect((await runCli(['logout'], o)).exitCode).toBe(0);
        expect(await secrets.lookup({ service: 'superagent', username: account(dir) })).toBeNull();
        expect(JSON.parse(fs.readFileSync(configFile(dir), 'utf8')).profiles.default).toEqual({ base_url: svc.url });
      },
    );

    it('a key already in the file keeps working, and login again moves it to the keychain', async () => {
      secrets = await startSecretService();
      const dir = temp.scratch('superagent-config-');
      fs.writeFileSync(
        configFile(dir),
        JSON.stringify({ profiles: { default: { base_url: svc.url, api_key: KEY } } }),
        { mode: 0o600 },
      );
      const o = { configDir: dir, dataDir: temp.scratch('superagent-data-'), env: secrets.env };
      expect((await runCli(['list'], o)).exitCode).toBe(0);
      expect((await runCli(['login', '--with-token'], { ...o, input: KEY })).exitCode).toBe(0);
      expect(await secrets.lookup({ service: 'superagent', username: account(dir) })).toBe(KEY);
      expect(fs.readFileSync(configFile(dir), 'utf8')).not.toContain(KEY.slice(6));
    });

    it('a keyring nobody can unlock (no prompt can be shown): the file, said in one line', async () => {
      secrets = await startSecretService({ unlocked: false });
      const dir = temp.scratch('superagent-config-');
      const login = await runCli(['login', '--with-token', '--base-url', svc.url], {
        configDir: dir,
        env: secrets.env,
        input: KEY,
      });
      expect(login.exitCode).toBe(0);
      const noKeyring = 'No unlocked keyring to keep it in \\(the prompt to unlock or create one was dismissed\\)';
      expect(withoutWaits(login.stderr)).toMatch(
        new RegExp(
          `^! ${noKeyring}: the key is kept in ${configFile(dir)} \\(mode 0600\\) ` +
            `instead [^\\n]+\\nLogged in to [^\\n]+, kept in the config file\\)\\n$`,
        ),
      );
      expect(JSON.parse(fs.readFileSync(configFile(dir), 'utf8')).profiles.default).toEqual({
        base_url: svc.url,
        api_key: KEY,
      });
      expect(fs.statSync(configFile(dir)).mode & 0o777).toBe(0o600);
    });
  },
);

describe.skipIf(MISSING.length > 0)(
  `a key left in the keychain, and a locked keyring${MISSING.length ? ' (skipped)' : ''}`,
  () => {
    it(
      'login again without a session bus leaves the old key there ' +
        'and says so; logout back in the session removes it',
      async () => {
        secrets = await startSecretService();
        const dir = temp.scratch('superagent-config-');
        const withBus = { configDir: dir, env: secrets.env };
        const entry = { service: 'superagent', username: account(dir) };
        expect(
          (await runCli(['login', '--with-token', '--base-url', svc.url], { ...withBus, input: KEY })).exitCode,
        ).toBe(0);
        expect(await secrets.lookup(entry)).toBe(KEY);

        // an ssh login, say: runCli's environment has no DBUS_SESSION_BUS_ADDRESS
        const again = await runCli(['login', '--with-token'], { configDir: dir, input: OTHER_KEY });
        expect(again.exitCode).toBe(0);
        const stays =
          "the key it replaces stays in the OS keychain \\('superagent login' from a session with the keychain";
        expect(again.stderr).toMatch(
          new RegExp(
            `^! N${NO_BUS.slice(1)}: the key is kept in ${configFile(dir)} \\(mode 0600\\) instead, and ${stays}`,
          ),
        );
        expect(again.stderr).not.toMatch(/X11|autolaunch/);
        expect(await secrets.lookup(entry)).toBe(KEY);
        const unset = await runCli(['config', 'unset', 'api_key'], { configDir: dir });
        expect([unset.exitCode, withoutWaits(unset.stderr)]).toEqual([0, '']);

        const logout = await runCli(['logout'], withBus);
        expect(logout.exitCode).toBe(0);
        expect(withoutWaits(logout.stderr)).toMatch(
          /^Removed the key of profile default from the OS keychain[^\n]*\n$/,
        );
        expect(await secrets.lookup(entry)).toBeNull();
      },
    );

    it(
      'a locked keyring whose unlock prompt is dismissed: ' + 'unlock it, says every command that needs the key',
      async () => {
        secrets = await startSecretService();
        const dir = temp.scratch('superagent-config-');
        fs.writeFileSync(
          configFile(dir),
          JSON.stringify({ profiles: { default: { base_url: svc.url, api_key_store: 'keychain' } } }),
          { mode: 0o600 },
        );
        await secrets.store({ service: 'superagent', username: account(dir) }, KEY);
        await secrets.lock();
        const o = { configDir: dir, env: secrets.env };
        const locked = 'the keyring is locked \\(its unlock prompt was dismissed\\)';
        const list = await runCli(['list'], o);
        expect([list.exitCode, list.stdout]).toEqual([3, '']);
        expect(withoutWaits(list.stderr)).toMatch(
          new RegExp(
            `^Error: the key of profile 'default' is in the OS keychain but it ` +
              `cannot be read: ${locked} \\(unlock the keyring and run the ` +
              `command again, or [^\\n]*--insecure-storage[^\\n]*\\)\\n$`,
          ),
        );
        const logout = await runCli(['logout'], o);
        expect(logout.exitCode).toBe(2);
        expect(logout.stderr).toMatch(
          new RegExp(`: ${locked} \\(unlock the keyring, then run 'superagent logout' again\\)\\n$`),
        );
        expect(JSON.parse(fs.readFileSync(configFile(dir), 'utf8')).profiles.default).toEqual({
          base_url: svc.url,
          api_key_store: 'keychain',
        });
      },
    );
  },
);

const NO_PROMPT = process.platform === 'linux' ? missingPrograms({ prompt: true }) : ['Linux'];
const NO_PROMPT_WHY = NO_PROMPT.length ? ` (skipped: ${NO_PROMPT.join(', ')} missing)` : '';
if (NO_PROMPT.length > 0) console.warn(`keychain.test: ${NO_PROMPT.join(', ')} missing: locked keyring tests skipped`);

describe.skipIf(NO_PROMPT.length > 0)(`a locked keyring whose unlock prompt nobody answers${NO_PROMPT_WHY}`, () => {
  const KEYCHAIN = 'the OS keychain \\(Secret Service\\)';
  // said a second in, by which the keychain's process has most likely reached the Secret Service (a
  // start slowed down by load may not have: the bus is then what it waits for)
  const LOCKED_WAIT = `${KEYCHAIN} to answer: a locked keyring may be asking to be unlocked \\(giving up after 3 s\\)`;
  const BUS_WAIT = 'the OS keychain \\(D-Bus session bus at [^)]+\\) to answer \\(giving up after 3 s\\)';
  const WAITING = `^! Waiting for (${LOCKED_WAIT}|${BUS_WAIT})`;
  const KEY_OF = "when asked for the key of profile 'default'";
  const LOCKED = `${KEYCHAIN} is locked: no answer within 3 s`;

  it('a command needing the key says it waits, then ends after --timeout: exit 3, the keychain locked', async () => {
    secrets = await startSecretService();
    const dir = temp.scratch('superagent-config-');
    const profile = { base_url: svc.url, api_key_store: 'keychain' };
    fs.writeFileSync(configFile(dir), JSON.stringify({ profiles: { default: profile } }), { mode: 0o600 });
    await secrets.store({ service: 'superagent', username: account(dir) }, KEY);
    await secrets.lockUnanswered();
    const list = await runCli(['list', '--timeout', '3'], { configDir: dir, env: secrets.env });
    expect([list.exitCode, list.stdout]).toEqual([3, '']);
    const hint = 'unlock it and run the command again, or allow longer with --timeout';
    const error = `Error: ${LOCKED} ${KEY_OF} \\(${hint}\\)\n$`;
    expect(list.stderr).toMatch(new RegExp(`${WAITING}\n${error}`));
    expect(secrets.othersOnBus()).toEqual([]);
  });

  it('login: exit 2 after --timeout, nothing saved (the config file not even made)', async () => {
    secrets = await startSecretService();
    await secrets.lockUnanswered();
    const dir = temp.scratch('superagent-config-');
    const argv = ['login', '--with-token', '--base-url', svc.url, '--timeout', '3'];
    const login = await runCli(argv, { configDir: dir, env: secrets.env, input: KEY });
    expect(login.exitCode).toBe(2);
    const hint = 'unlock it and log in again, or pass --insecure-storage to keep the key in the config file';
    const error = `Error: ${LOCKED}, so the key was not saved \\(${hint}\\)\n$`;
    expect(login.stderr).toMatch(new RegExp(`${WAITING}\n${error}`));
    expect(fs.existsSync(configFile(dir))).toBe(false);
    expect(secrets.othersOnBus()).toEqual([]);
  });
});

describe.skipIf(process.platform !== 'linux')('no keychain to be had (Linux)', () => {
  it('no session bus (a server, CI): login keeps the key in the 0600 file and says so in one line', async () => {
    const dir = temp.scratch('superagent-config-');
    // runCli's environment has no DBUS_SESSION_BUS_ADDRESS
    const login = await runCli(['login', '--with-token', '--base-url', svc.url], { configDir: dir, input: KEY });
    expect(login.exitCode).toBe(0);
    // the notice, then the line every login ends with
    expect(login.stderr.split('\n')).toHaveLength(3);
    expect(login.stderr).toMatch(
      new RegExp(`^! N${NO_BUS.slice(1)}: the key is kept in ${configFile(dir)} \\(mode 0600\\) instead `),
    );
    expect(login.stderr).not.toMatch(/X11|autolaunch/);
    expect(JSON.parse(fs.readFileSync(configFile(dir), 'utf8')).profiles.default).toEqual({
      base_url: svc.url,
      api_key: KEY,
    });
    expect(fs.statSync(configFile(dir)).mode & 0o777).toBe(0o600);
  });

  it(
    'whoami for a profile whose key is in the keychain, ' + 'with no session bus: what it knows, why not, exit 3',
    async () => {
      const dir = temp.scratch('superagent-config-');
      fs.writeFileSync(
        configFile(dir),
        JSON.stringify({ profiles: { default: { base_url: svc.url, api_key_store: 'keychain' } } }),
        { mode: 0o600 },
      );
      const who = await runCli(['whoami'], { configDir: dir });
      expect(who.exitCode).toBe(3);
      const problem = `the key of profile 'default' is in the OS keychain but it cannot be read here: ${NO_BUS}`;
      expect(who.stdout).toMatch(
        new RegExp(
          `^profile\tdefault\n.*\nbase_url\t${svc.url}\nkey\tnone\nkey_source\tprofil` +
            `e\nkey_store\tkeychain\nauthenticated\tno\nproblem\t${problem}\n$`,
        ),
      );
      expect(who.stderr).toMatch(new RegExp(`^Error: ${problem} \\([^\\n]+\\)\\n$`));
      const json = await runCli(['whoami', '--json'], { configDir: dir });
      expect(json.exitCode).toBe(3);
      expect(JSON.parse(json.stdout)).toMatchObject({
        profile: 'default',
        base_url: svc.url,
        key_store: 'keychain',
        authenticated: false,
      });
    },
  );

  it("SUPERAGENT_API_KEY never loads the keychain's binding, even for a profile whose key is there", async () => {
    const dir = temp.scratch('superagent-config-');
    fs.writeFileSync(
      configFile(dir),
      JSON.stringify({ profiles: { default: { base_url: svc.url, api_key_store: 'keychain' } } }),
      { mode: 0o600 },
    );
    // every native module the process loads is written down (the binding is one: keyring.*.node)
    const log = path.join(dir, 'dlopen.log');
    const preload = path.join(dir, 'dlopen.cjs');
    fs.writeFileSync(
      preload,
      `const fs = require('fs'); const open = process.dlopen;\nprocess.dlopen = ` +
        `function (m, file, ...rest) { fs.appendFileSync(${JSON.stringify(log)}, ` +
        `file + '\\n'); return open.call(this, m, file, ...rest); };\n`,
    );
    // a bus address where nothing listens: any use of the keychain would fail
    const env = {
      NODE_OPTIONS: `--require ${preload}`,
      DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(dir, 'no-bus')}`,
    };
    const loaded = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '');

    const withEnvKey = await runCli(['list'], { configDir: dir, env: { ...env, SUPERAGENT_API_KEY: KEY } });
    expect([withEnvKey.exitCode, withEnvKey.stderr]).toEqual([0, '']);
    expect(loaded()).not.toMatch(/keyring/);

    // the same line without the variable needs the keychain: the binding loads, and fails in one line
    const fromKeychain = await runCli(['list'], { configDir: dir, env });
    expect(fromKeychain.exitCode).toBe(3);
    const why =
      'nothing answers at DBUS_SESSION_BUS_ADDRESS\\) \\(run the command ' +
      "from a session with the keychain, or 'superagent login";
    expect(fromKeychain.stderr).toMatch(
      new RegExp(
        `^Error: the key of profile 'default' is in the OS keychain but it ` +
          `cannot be read here: no Secret Service in this session \\(${why}`,
      ),
    );
    expect(loaded()).toMatch(/keyring[^\n]*\.node/);
  });
});
