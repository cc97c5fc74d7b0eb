// The config file on disk (CLI.md: JSON, 0600 in a 0700 dir, SUPERAGENT_CONFIG_DIR): the real store
// (src/config/file.ts) under login, logout and config, in a fresh dir per test; and a corrupt file,
// which every command that reads it refuses with one line naming it, leaving it as it was.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigFile } from '../../src/config/file.js';
import { runLine, type CliRun } from '../helpers/context.js';
import { perTest, stopService } from '../helpers/service-support.js';
import { launchAgent, startTestService, type TestService } from '../helpers/service.js';

const KEY = 'sa_sk_' + 'Kk1Ll2Mm3Nn4Oo5Pp6Qq7Rr8Ss9Tt0Uv';
const WRONG_KEY = 'sa_sk_' + 'W'.repeat(32);

let svc: TestService;
const temp = perTest();

beforeAll(async () => {
  svc = await startTestService({ keys: [KEY] });
});
afterAll(async () => {
  await stopService(svc);
});

/** A config dir that does not exist yet (the store creates it). */
const freshDir = () => path.join(temp.scratch('superagent-cfg-'), 'superagent');
const configPath = (dir: string) => path.join(dir, 'config.json');
const readConfig = (dir: string) => JSON.parse(fs.readFileSync(configPath(dir), 'utf8'));
const modeOf = (p: string) => fs.statSync(p).mode & 0o777;

/** Runs a line on the real config file in `dir`. */
function cli(dir: string, argv: string[], o: { input?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  return runLine(undefined, argv, { ...o, world: { config: new ConfigFile(dir) } });
}

const login = (dir: string, key: string, args: string[] = ['--base-url', svc.url]) => cli(dir, ['login', '--with-token', ...args], { input: `${key}\n` });

describe('where the file lives', () => {
  // no store given: the command builds its own from the environment, as the binary does
  const fromEnv = (dir: string, argv: string[]) => runLine(undefined, argv, { env: { SUPERAGENT_CONFIG_DIR: dir }, world: { config: undefined } });

  it("'config path' prints SUPERAGENT_CONFIG_DIR/config.json and creates nothing", async () => {
    const dir = freshDir();
    expect(await fromEnv(dir, ['config', 'path'])).toEqual({ code: 0, stdout: `${configPath(dir)}\n`, stderr: '', asked: [] });
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('config set writes there: 0600 in a 0700 dir, the URL without /v1', async () => {
    const dir = freshDir();
    expect(await fromEnv(dir, ['config', 'set', 'base_url', 'https://api.example.com/v1/'])).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(readConfig(dir)).toEqual({ profiles: { default: { base_url: 'https://api.example.com' } } });
    expect(modeOf(configPath(dir))).toBe(0o600);
    expect(modeOf(dir)).toBe(0o700);
    expect((await fromEnv(dir, ['config', 'get', 'base_url'])).stdout).toBe('https://api.example.com\n');
  });
});

describe('login and logout on disk', () => {
  it('login --with-token saves the key and base URL in a 0600 file in a 0700 dir, and later commands use them', async () => {
    const dir = freshDir();
    expect(await login(dir, KEY, ['--base-url', `${svc.url}/v1/`])).toEqual({ code: 0, stdout: '', stderr: '', asked: [] });
    expect(readConfig(dir)).toEqual({ active_profile: 'default', profiles: { default: { base_url: svc.url, api_key: KEY } } });
    expect(modeOf(configPath(dir))).toBe(0o600);
    expect(modeOf(dir)).toBe(0o700);

    const { agent_id } = await launchAgent(svc, { name: 'cfg-login-agent' });
    const list = await cli(dir, ['list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(`${agent_id}\tcfg-login-agent\t`);
    await svc.call('DELETE', `/v1/superagents/${agent_id}`);
  });

  it('makes an existing, too open config dir private', async () => {
    const dir = freshDir();
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    expect((await login(dir, KEY)).code).toBe(0);
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(configPath(dir))).toBe(0o600);
  });

  it('a rejected key leaves an existing config file exactly as it was, and none where there was none', async () => {
    const dir = freshDir();
    expect((await login(dir, WRONG_KEY)).code).toBe(3);
    expect(fs.existsSync(configPath(dir))).toBe(false);
    expect((await login(dir, KEY)).code).toBe(0);
    const before = fs.readFileSync(configPath(dir));
    expect((await login(dir, WRONG_KEY)).code).toBe(3);
    expect(fs.readFileSync(configPath(dir))).toEqual(before);
  });

  it("logout removes the profile's key and keeps the rest; the file stays private", async () => {
    const dir = freshDir();
    expect((await login(dir, KEY)).code).toBe(0);
    expect((await cli(dir, ['config', 'set', 'output', 'json'])).code).toBe(0);
    expect(await cli(dir, ['logout'])).toEqual({ code: 0, stdout: '', stderr: '', asked: [] });
    expect(readConfig(dir)).toEqual({ active_profile: 'default', profiles: { default: { base_url: svc.url, output: 'json' } } });
    expect(modeOf(configPath(dir))).toBe(0o600);
    expect(modeOf(dir)).toBe(0o700);
  });

  it('logout with no key stored creates no file', async () => {
    const dir = freshDir();
    expect((await cli(dir, ['logout'])).code).toBe(0);
    expect(fs.existsSync(dir)).toBe(false);
  });
});

describe('a corrupt config file', () => {
  function corrupt(text: string): string {
    const dir = freshDir();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(configPath(dir), text);
    return dir;
  }

  const lines = [['list'], ['config', 'list'], ['whoami'], ['login', '--with-token'], ['logout'], ['config', 'get', 'output'], ['config', 'set', 'output', 'json'], ['config', 'unset', 'output']];
  it.each(lines.map((l) => [l.join(' '), l]))("makes '%s' exit 2 with one line naming the file, which stays as it was", async (_name, argv) => {
    const dir = corrupt('{"profiles": {');
    const r = await cli(dir, argv as string[], { input: `${KEY}\n` });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: `Error: the config file ${configPath(dir)} is corrupt: it is not valid JSON (fix it, or move it aside and run 'superagent login' again)\n`,
      asked: [],
    });
    expect(fs.readFileSync(configPath(dir), 'utf8')).toBe('{"profiles": {');
  });

  it('JSON that is not an object, or whose profiles are not one, is corrupt too', async () => {
    for (const [text, why] of [
      ['[]', 'it is not a JSON object'],
      ['{"profiles": 3}', '"profiles" is not an object'],
    ]) {
      const dir = corrupt(text!);
      const r = await cli(dir, ['config', 'list']);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`Error: the config file ${configPath(dir)} is corrupt: ${why} (fix it, or move it aside and run 'superagent login' again)\n`);
    }
  });

  it.each([
    ['{"profiles": {"default": {"api_key": ["x"]}}}', '"profiles.default.api_key" is not a string'],
    ['{"profiles": {"work": {"base_url": {"u": 1}}}}', '"profiles.work.base_url" is not a string'],
    ['{"profiles": {"default": 5}}', '"profiles.default" is not an object'],
    ['{"profiles": {"default": null}}', '"profiles.default" is not an object'],
    ['{"profiles": []}', '"profiles" is not an object'],
    ['{"active_profile": 5}', '"active_profile" is not a string'],
  ])('a field of the wrong type (%s) is corrupt too, named, for every command that reads it', async (text, why) => {
    const dir = corrupt(text);
    for (const argv of [['list'], ['config', 'list'], ['whoami']]) {
      const r = await cli(dir, argv);
      expect(r).toEqual({ code: 2, stdout: '', stderr: `Error: the config file ${configPath(dir)} is corrupt: ${why} (fix it, or move it aside and run 'superagent login' again)\n`, asked: [] });
    }
    expect(fs.readFileSync(configPath(dir), 'utf8')).toBe(text);
  });

  it("still lets 'config path' say where it is", async () => {
    const dir = corrupt('not json');
    expect(await cli(dir, ['config', 'path'])).toEqual({ code: 0, stdout: `${configPath(dir)}\n`, stderr: '', asked: [] });
  });
});
