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
const MISSING = process.platform === 'linux' ? missingPrograms() : ['Linux'];
if (MISSING.length > 0) console.warn(`keychain.test: ${MISSING.join(', ')} missing, so the tests with a real Secret Service are skipped (.ci/run installs them)`);

const temp = perTest();
let svc: TestService;
let secrets: SecretService | undefined;

beforeAll(async () => {
  svc = await startTestService({ keys: [KEY] });
});
afterAll(async () => {
  await stopService(svc);
});
afterEach(async () => {
  await secrets?.stop();
  secrets = undefined;
});

const configFile = (dir: string) => path.join(dir, 'config.json');
const account = (dir: string, profile = 'default') => `${profile}@${configFile(dir)}`;

describe.skipIf(MISSING.length > 0)(`a Secret Service${MISSING.length ? ` (skipped: ${MISSING.join(', ')} missing)` : ''}`, () => {
  it('login files the key there and the file holds none; list and whoami read it from there; logout removes it', async () => {
    secrets = await startSecretService();
    const dir = temp.scratch('superagent-config-');
    const o = { configDir: dir, dataDir: temp.scratch('superagent-data-'), env: secrets.env };
    const login = await runCli(['login', '--with-token', '--base-url', svc.url], { ...o, input: `${KEY}\n` });
    expect([login.exitCode, login.stderr]).toEqual([0, '']);
    expect(await secrets.lookup({ service: 'superagent', username: account(dir) })).toBe(KEY);
    expect(fs.readFileSync(configFile(dir), 'utf8')).not.toContain(KEY.slice(6));
    expect(JSON.parse(fs.readFileSync(configFile(dir), 'utf8')).profiles.default).toEqual({ base_url: svc.url, api_key_store: 'keychain' });

    const list = await runCli(['list'], o);
    expect([list.exitCode, list.stderr]).toEqual([0, '']);
    const who = await runCli(['whoami', '--json'], o);
    expect(JSON.parse(who.stdout)).toMatchObject({ key: 'sa_sk_…t0Uv', key_source: 'profile', key_store: 'keychain', authenticated: true });

    expect((await runCli(['logout'], o)).exitCode).toBe(0);
    expect(await secrets.lookup({ service: 'superagent', username: account(dir) })).toBeNull();
    expect(JSON.parse(fs.readFileSync(configFile(dir), 'utf8')).profiles.default).toEqual({ base_url: svc.url });
  });

  it('a key already in the file keeps working, and login again moves it to the keychain', async () => {
    secrets = await startSecretService();
    const dir = temp.scratch('superagent-config-');
    fs.writeFileSync(configFile(dir), JSON.stringify({ profiles: { default: { base_url: svc.url, api_key: KEY } } }), { mode: 0o600 });
    const o = { configDir: dir, dataDir: temp.scratch('superagent-data-'), env: secrets.env };
    expect((await runCli(['list'], o)).exitCode).toBe(0);
    expect((await runCli(['login', '--with-token'], { ...o, input: KEY })).exitCode).toBe(0);
    expect(await secrets.lookup({ service: 'superagent', username: account(dir) })).toBe(KEY);
    expect(fs.readFileSync(configFile(dir), 'utf8')).not.toContain(KEY.slice(6));
  });

  it('a keyring nobody can unlock (no prompt can be shown): the file, said in one line', async () => {
    secrets = await startSecretService({ unlocked: false });
    const dir = temp.scratch('superagent-config-');
    const login = await runCli(['login', '--with-token', '--base-url', svc.url], { configDir: dir, env: secrets.env, input: KEY });
    expect(login.exitCode).toBe(0);
    expect(login.stderr).toMatch(new RegExp(`^! No OS keychain to keep the key in \\(.+\\): it is kept in ${configFile(dir)} \\(mode 0600\\) instead; [^\\n]+\\n$`));
    expect(JSON.parse(fs.readFileSync(configFile(dir), 'utf8')).profiles.default).toEqual({ base_url: svc.url, api_key: KEY });
    expect(fs.statSync(configFile(dir)).mode & 0o777).toBe(0o600);
  });
});

const NO_PROMPT = process.platform === 'linux' ? missingPrograms({ prompt: true }) : ['Linux'];
const NO_PROMPT_WHY = NO_PROMPT.length ? ` (skipped: ${NO_PROMPT.join(', ')} missing)` : '';
if (NO_PROMPT.length > 0) console.warn(`keychain.test: ${NO_PROMPT.join(', ')} missing: locked keyring tests skipped`);

describe.skipIf(NO_PROMPT.length > 0)(`a locked keyring whose unlock prompt nobody answers${NO_PROMPT_WHY}`, () => {
  const KEYCHAIN = 'the OS keychain \\(Secret Service\\)';
  const WAITING =
    `^! Waiting for ${KEYCHAIN} to answer: a locked keyring may be asking to be unlocked ` + '\\(giving up after 2 s\\)';
  const KEY_OF = "when asked for the key of profile 'default'";

  it('a command needing the key says it waits, then ends after --timeout: exit 3, the keychain named', async () => {
    secrets = await startSecretService();
    const dir = temp.scratch('superagent-config-');
    const profile = { base_url: svc.url, api_key_store: 'keychain' };
    fs.writeFileSync(configFile(dir), JSON.stringify({ profiles: { default: profile } }), { mode: 0o600 });
    await secrets.store({ service: 'superagent', username: account(dir) }, KEY);
    await secrets.lockUnanswered();
    const list = await runCli(['list', '--timeout', '2'], { configDir: dir, env: secrets.env });
    expect([list.exitCode, list.stdout]).toEqual([3, '']);
    const error = `Error: ${KEYCHAIN} did not answer within 2 s ${KEY_OF} \\(.*--timeout\\)\n$`;
    expect(list.stderr).toMatch(new RegExp(`${WAITING}\n${error}`));
    expect(secrets.othersOnBus()).toEqual([]);
  });

  it('login: exit 2 after --timeout, nothing saved (the config file not even made)', async () => {
    secrets = await startSecretService();
    await secrets.lockUnanswered();
    const dir = temp.scratch('superagent-config-');
    const argv = ['login', '--with-token', '--base-url', svc.url, '--timeout', '2'];
    const login = await runCli(argv, { configDir: dir, env: secrets.env, input: KEY });
    expect(login.exitCode).toBe(2);
    const error =
      `Error: ${KEYCHAIN} did not answer within 2 s, so the key was not saved ` + '\\(.*--insecure-storage\\)\n$';
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
    expect(login.stderr.split('\n')).toHaveLength(2);
    expect(login.stderr).toMatch(/^! No OS keychain to keep the key in \(.*DBUS_SESSION_BUS_ADDRESS.*\): it is kept in /);
    expect(JSON.parse(fs.readFileSync(configFile(dir), 'utf8')).profiles.default).toEqual({ base_url: svc.url, api_key: KEY });
    expect(fs.statSync(configFile(dir)).mode & 0o777).toBe(0o600);
  });

  it("SUPERAGENT_API_KEY never loads the keychain's binding, even for a profile whose key is there", async () => {
    const dir = temp.scratch('superagent-config-');
    fs.writeFileSync(configFile(dir), JSON.stringify({ profiles: { default: { base_url: svc.url, api_key_store: 'keychain' } } }), { mode: 0o600 });
    // every native module the process loads is written down (the binding is one: keyring.*.node)
    const log = path.join(dir, 'dlopen.log');
    const preload = path.join(dir, 'dlopen.cjs');
    fs.writeFileSync(preload, `const fs = require('fs'); const open = process.dlopen;\nprocess.dlopen = function (m, file, ...rest) { fs.appendFileSync(${JSON.stringify(log)}, file + '\\n'); return open.call(this, m, file, ...rest); };\n`);
    // a bus address where nothing listens: any use of the keychain would fail
    const env = { NODE_OPTIONS: `--require ${preload}`, DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(dir, 'no-bus')}` };
    const loaded = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '');

    const withEnvKey = await runCli(['list'], { configDir: dir, env: { ...env, SUPERAGENT_API_KEY: KEY } });
    expect([withEnvKey.exitCode, withEnvKey.stderr]).toEqual([0, '']);
    expect(loaded()).not.toMatch(/keyring/);

    // the same line without the variable needs the keychain: the binding loads, and fails in one line
    const fromKeychain = await runCli(['list'], { configDir: dir, env });
    expect(fromKeychain.exitCode).toBe(3);
    expect(fromKeychain.stderr).toMatch(/^Error: the key of profile 'default' is in the OS keychain but it cannot be read: .+ \(run 'superagent login --profile default' again\)\n$/);
    expect(loaded()).toMatch(/keyring[^\n]*\.node/);
  });
});
