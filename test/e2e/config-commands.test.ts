// login, logout, whoami and config … run as the built binary against a real embedded service
// (CLI.md "Where it connects" and the configuration rows). Every test has its own config dir, and the
// key reaches the CLI only through stdin or the environment, never through arguments.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult, type RunOptions } from '../helpers/cli.js';
import { launchAgent, startTestService, type TestService } from '../helpers/service.js';
import { perTest, stopService } from '../helpers/service-support.js';

const KEY = 'sa_sk_' + 'Kk1Ll2Mm3Nn4Oo5Pp6Qq7Rr8Ss9Tt0Uv';
const OTHER_KEY = 'sa_sk_' + 'Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pw';
const WRONG_KEY = 'sa_sk_' + 'W'.repeat(32);
const MASKED = 'sa_sk_…t0Uv';
const MASKED_OTHER = 'sa_sk_…q0Pw';
/** a hosted-looking key; the test service accepts it too, standing in for the hosted one (SUPERAGENT_HOSTED_URL) */
const HOSTED_KEY = 'gb_sk_' + 'Hh1Oo2Ss3Tt4Ee5Dd6Kk7Ee8Yy9Zz0Ab';
const MASKED_HOSTED = 'gb_sk_…z0Ab';

// the temp dirs a test makes (its config dirs, each run's data dir) are removed after it
const temp = perTest();
/** Runs the CLI with a data dir of its own (removed after the test) unless one is given. */
const run = (args: string[], opts: RunOptions = {}) => runCli(args, { dataDir: temp.scratch('superagent-data-'), ...opts });

let svc: TestService;
let unreachable: string;

beforeAll(async () => {
  svc = await startTestService({ keys: [KEY, OTHER_KEY, HOSTED_KEY] });
  unreachable = await closedPortUrl();
});

afterAll(async () => {
  await stopService(svc);
});

/** A loopback URL where nothing listens. */
async function closedPortUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** A config dir that does not exist yet (the CLI creates it). */
function freshDir(): string {
  return path.join(temp.scratch('superagent-cfg-'), 'superagent');
}

const configPath = (dir: string) => path.join(dir, 'config.json');
const readConfig = (dir: string) => JSON.parse(fs.readFileSync(configPath(dir), 'utf8'));
const modeOf = (p: string) => fs.statSync(p).mode & 0o777;

function login(dir: string, key: string, args: string[] = ['--base-url', svc.url], env: Record<string, string> = {}): Promise<CliResult> {
  return run(['login', '--with-token', ...args], { configDir: dir, input: `${key}\n`, env });
}

function cli(dir: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return run(args, { configDir: dir, env });
}

function expectNoWholeKey(r: CliResult, ...keys: string[]): void {
  for (const k of keys) {
    expect(r.stdout).not.toContain(k);
    expect(r.stderr).not.toContain(k);
  }
}

describe('login', () => {
  it('--with-token checks the key, then saves it and the base URL in a 0600 file in a 0700 dir', async () => {
    const dir = freshDir();
    const r = await login(dir, KEY, ['--base-url', `${svc.url}/v1/`]);
    expect(r).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
    expect(readConfig(dir)).toEqual({ active_profile: 'default', profiles: { default: { base_url: svc.url, api_key: KEY } } });
    expect(modeOf(configPath(dir))).toBe(0o600);
    expect(modeOf(dir)).toBe(0o700);

    // the stored key and URL are what later commands use
    await launchAgent(svc, { name: 'cfg-login-agent' });
    const list = await cli(dir, ['list']);
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toMatch(/\tcfg-login-agent\t/);
  });

  it('makes an existing, too open config dir private', async () => {
    const dir = freshDir();
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    expect((await login(dir, KEY)).exitCode).toBe(0);
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(configPath(dir))).toBe(0o600);
  });

  it('takes the base URL from SUPERAGENT_BASE_URL and the profile from --profile, creating it', async () => {
    const dir = freshDir();
    expect((await login(dir, KEY)).exitCode).toBe(0);
    const r = await login(dir, OTHER_KEY, ['--profile', 'staging'], { SUPERAGENT_BASE_URL: svc.url });
    expect(r.exitCode).toBe(0);
    const config = readConfig(dir);
    expect(config.profiles.staging).toEqual({ base_url: svc.url, api_key: OTHER_KEY });
    expect(config.profiles.default.api_key).toBe(KEY);
    // logging in to a second profile does not switch the active one
    expect(config.active_profile).toBe('default');
  });

  it('reuses the base URL of the profile when none is given', async () => {
    const dir = freshDir();
    expect((await login(dir, KEY)).exitCode).toBe(0);
    const r = await login(dir, OTHER_KEY, []);
    expect(r.exitCode).toBe(0);
    expect(readConfig(dir).profiles.default).toEqual({ base_url: svc.url, api_key: OTHER_KEY });
  });

  it('a rejected key exits 3 and saves nothing', async () => {
    const dir = freshDir();
    const r = await login(dir, WRONG_KEY);
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`Error: ${svc.url} rejected the key sa_sk_…WWWW: Invalid or revoked API key (401) (check the key and the base URL, then run 'superagent login' again)\n`);
    expectNoWholeKey(r, WRONG_KEY);
    expect(fs.existsSync(configPath(dir))).toBe(false);
  });

  it('a rejected key leaves an existing config file exactly as it was', async () => {
    const dir = freshDir();
    expect((await login(dir, KEY)).exitCode).toBe(0);
    const before = fs.readFileSync(configPath(dir));
    const r = await login(dir, WRONG_KEY);
    expect(r.exitCode).toBe(3);
    expect(fs.readFileSync(configPath(dir))).toEqual(before);
  });

  it('an unreachable service exits 7 and saves nothing', async () => {
    const dir = freshDir();
    const r = await login(dir, KEY, ['--base-url', unreachable]);
    expect(r.exitCode).toBe(7);
    expect(r.stderr).toContain(`cannot reach ${unreachable}/v1/superagents: connection refused`);
    expectNoWholeKey(r, KEY);
    expect(fs.existsSync(configPath(dir))).toBe(false);
  });

  it('without a terminal and without --with-token exits 2 naming --with-token, reading nothing', async () => {
    const dir = freshDir();
    const r = await run(['login', '--base-url', svc.url], { configDir: dir, input: `${KEY}\n` });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe("Error: no terminal to ask for the API key on (pipe it in with --with-token, e.g. 'superagent login --with-token < key.txt')\n");
    expect(fs.existsSync(configPath(dir))).toBe(false);
  });

  it('an empty key on stdin exits 2', async () => {
    const dir = freshDir();
    const r = await run(['login', '--with-token', '--base-url', svc.url], { configDir: dir, input: '  \n' });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('Error: the API key is empty');
    expect(fs.existsSync(configPath(dir))).toBe(false);
  });

  it('with no base URL anywhere and a key that is not hosted exits 2 pointing at --base-url (the embedded service needs no login)', async () => {
    // an embedded key (sa_sk_) and a key of no known kind: neither implies a service to log in to
    for (const key of [KEY, 'xx_sk_' + 'K'.repeat(32)]) {
      const dir = freshDir();
      const r = await login(dir, key, [], { SUPERAGENT_HOSTED_URL: svc.url });
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        "Error: no base URL to log in to for profile 'default' (pass --base-url URL: only a hosted key (gb_sk_…) implies its service (the embedded local service needs no login))\n",
      );
      expectNoWholeKey(r, key);
      expect(fs.existsSync(configPath(dir))).toBe(false);
    }
  });

  it('with no base URL anywhere and a hosted key (gb_sk_) logs in to the hosted service, saving its URL', async () => {
    // SUPERAGENT_HOSTED_URL points the hosted URL at the loopback test service: no test reaches the real one
    const hosted = { SUPERAGENT_HOSTED_URL: svc.url };
    const dir = freshDir();
    const r = await login(dir, HOSTED_KEY, [], hosted);
    expect(r).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
    expectNoWholeKey(r, HOSTED_KEY);
    expect(readConfig(dir)).toEqual({ active_profile: 'default', profiles: { default: { base_url: svc.url, api_key: HOSTED_KEY } } });
    expect(modeOf(configPath(dir))).toBe(0o600);
    const who = await cli(dir, ['whoami', '--json'], hosted);
    expect(who.exitCode).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({ base_url: svc.url, key: MASKED_HOSTED, key_source: 'profile', service: 'hosted', authenticated: true });
    expectNoWholeKey(who, HOSTED_KEY);
  });

  it('a base URL that is not http(s) exits 2 before any request', async () => {
    const dir = freshDir();
    const r = await login(dir, KEY, ['--base-url', 'ftp://example.com']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("'ftp://example.com' must start with http:// or https://");
  });
});

describe('whoami', () => {
  it('shows the profile, base URL, masked key, its source and that it works', async () => {
    const dir = freshDir();
    expect((await login(dir, KEY)).exitCode).toBe(0);
    const r = await cli(dir, ['whoami']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      `profile\tdefault\nservice\tthe service at ${svc.url}: the base URL comes from profile 'default'\n` +
        `base_url\t${svc.url}\nkey\t${MASKED}\nkey_source\tprofile\nauthenticated\tyes\nagents\t${await agentCount(KEY)}\n`,
    );
    expect(r.stderr).toBe('');
    expectNoWholeKey(r, KEY);
  });

  it('--json gives the same as an object', async () => {
    const dir = freshDir();
    expect((await login(dir, KEY)).exitCode).toBe(0);
    const r = await cli(dir, ['whoami', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      profile: 'default',
      base_url: svc.url,
      key: MASKED,
      key_source: 'profile',
      embedded: false,
      service: 'configured',
      reason: "the base URL comes from profile 'default'",
      data_dir: null,
      authenticated: true,
      agents: await agentCount(KEY),
    });
    expectNoWholeKey(r, KEY);
  });

  it('names the environment as the source of a key from SUPERAGENT_API_KEY', async () => {
    const dir = freshDir();
    expect((await login(dir, KEY)).exitCode).toBe(0);
    const r = await cli(dir, ['whoami', '--json'], { SUPERAGENT_API_KEY: OTHER_KEY });
    expect(r.exitCode).toBe(0);
    // the key comes from the environment, the base URL still from the profile
    expect(JSON.parse(r.stdout)).toMatchObject({ key: MASKED_OTHER, key_source: 'env', service: 'configured', reason: "the base URL comes from profile 'default'", authenticated: true });
    expectNoWholeKey(r, KEY, OTHER_KEY);
  });

  it('shows the embedded local service and its data dir when nothing is configured', async () => {
    const dir = freshDir();
    const dataDir = temp.scratch('superagent-data-');
    const r = await run(['whoami', '--json'], { configDir: dir, dataDir });
    expect(r.exitCode).toBe(0);
    const id = JSON.parse(r.stdout);
    expect(id).toMatchObject({
      profile: 'default',
      base_url: null,
      key_source: 'embedded',
      embedded: true,
      service: 'embedded',
      reason: 'no base URL or key is configured',
      data_dir: dataDir,
      authenticated: true,
      agents: 0,
    });
    expect(id.key).toMatch(/^sa_sk_…[A-Za-z0-9]{4}$/);
    const text = await run(['whoami'], { configDir: dir, dataDir });
    expect(text.stdout).toContain('service\tthe embedded local service: no base URL or key is configured\n');
    expect(text.stdout).toContain(`base_url\tembedded local service (${dataDir})\n`);
    expect(fs.existsSync(configPath(dir))).toBe(false);
  });

  it('a rejected key exits 3 with authenticated false', async () => {
    const dir = freshDir();
    const r = await cli(dir, ['whoami', '--json'], { SUPERAGENT_BASE_URL: svc.url, SUPERAGENT_API_KEY: WRONG_KEY });
    expect(r.exitCode).toBe(3);
    expect(JSON.parse(r.stdout)).toEqual({
      profile: 'default',
      base_url: svc.url,
      key: 'sa_sk_…WWWW',
      key_source: 'env',
      embedded: false,
      service: 'configured',
      reason: 'the base URL comes from SUPERAGENT_BASE_URL',
      data_dir: null,
      authenticated: false,
      agents: null,
    });
    expect(r.stderr).toContain('rejected the key sa_sk_…WWWW');
    expectNoWholeKey(r, WRONG_KEY);
  });

  it('an unreachable service exits 7', async () => {
    const dir = freshDir();
    const r = await cli(dir, ['whoami'], { SUPERAGENT_BASE_URL: unreachable, SUPERAGENT_API_KEY: KEY });
    expect(r.exitCode).toBe(7);
    expect(r.stdout).toContain('authenticated\tunknown (the check failed)\n');
    expect(r.stderr).toContain(`cannot reach ${unreachable}/v1/superagents`);
    expectNoWholeKey(r, KEY);
  });

  it('a base URL without a key exits 3', async () => {
    const dir = freshDir();
    const r = await cli(dir, ['whoami'], { SUPERAGENT_BASE_URL: svc.url });
    expect(r.exitCode).toBe(3);
    expect(r.stdout).toBe(
      `profile\tdefault\nservice\tthe service at ${svc.url}: the base URL comes from SUPERAGENT_BASE_URL\n` +
        `base_url\t${svc.url}\nkey\tnone\nkey_source\tnone\nauthenticated\tno\n`,
    );
    expect(r.stderr).toContain(`Error: no API key for ${svc.url}`);
  });
});

describe('logout', () => {
  it("removes the profile's key and keeps the rest; the file stays private", async () => {
    const dir = freshDir();
    expect((await login(dir, KEY)).exitCode).toBe(0);
    expect((await cli(dir, ['config', 'set', 'output', 'json'])).exitCode).toBe(0);
    const r = await cli(dir, ['logout']);
    expect(r).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
    expect(readConfig(dir)).toEqual({ active_profile: 'default', profiles: { default: { base_url: svc.url, output: 'json' } } });
    expect(modeOf(configPath(dir))).toBe(0o600);
    expect(modeOf(dir)).toBe(0o700);
    // with the key gone, the profile's service refuses to be used
    expect((await cli(dir, ['whoami'])).exitCode).toBe(3);
  });

  it('with no key stored exits 0 and changes nothing', async () => {
    const dir = freshDir();
    expect((await cli(dir, ['logout'])).exitCode).toBe(0);
    expect(fs.existsSync(configPath(dir))).toBe(false);
  });

  it('acts on the profile named by --profile only', async () => {
    const dir = freshDir();
    expect((await login(dir, KEY)).exitCode).toBe(0);
    expect((await login(dir, OTHER_KEY, ['--profile', 'staging', '--base-url', svc.url])).exitCode).toBe(0);
    expect((await cli(dir, ['logout', '--profile', 'staging'])).exitCode).toBe(0);
    const config = readConfig(dir);
    expect(config.profiles.staging).toEqual({ base_url: svc.url });
    expect(config.profiles.default.api_key).toBe(KEY);
  });

  it('warns that SUPERAGENT_API_KEY still supplies a key', async () => {
    const dir = freshDir();
    const r = await cli(dir, ['logout'], { SUPERAGENT_API_KEY: KEY });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('! SUPERAGENT_API_KEY is still set: commands keep using that key\n');
  });
});

describe('config', () => {
  it('path prints where the file lives', async () => {
    const dir = freshDir();
    expect(await cli(dir, ['config', 'path'])).toMatchObject({ exitCode: 0, stdout: `${configPath(dir)}\n`, stderr: '' });
  });

  it('set, get and unset a profile setting; the file is 0600 in a 0700 dir', async () => {
    const dir = freshDir();
    const set = await cli(dir, ['config', 'set', 'base_url', 'https://api.example.com/v1/']);
    expect(set).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
    expect(readConfig(dir)).toEqual({ profiles: { default: { base_url: 'https://api.example.com' } } });
    expect(modeOf(configPath(dir))).toBe(0o600);
    expect(modeOf(dir)).toBe(0o700);
    expect((await cli(dir, ['config', 'get', 'base_url'])).stdout).toBe('https://api.example.com\n');

    expect((await cli(dir, ['config', 'unset', 'base_url'])).exitCode).toBe(0);
    expect(readConfig(dir)).toEqual({ profiles: { default: {} } });
    const after = await cli(dir, ['config', 'get', 'base_url']);
    expect(after).toMatchObject({ exitCode: 0, stdout: '' });
  });

  it('model and provider: set, get, listed and unset like the others; a provider must be a known one, a model not empty', async () => {
    const dir = freshDir();
    expect(await cli(dir, ['config', 'set', 'model', 'gpt-4o'])).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
    expect(await cli(dir, ['config', 'set', 'provider', 'openai'])).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
    expect(readConfig(dir)).toEqual({ profiles: { default: { model: 'gpt-4o', provider: 'openai' } } });
    expect((await cli(dir, ['config', 'get', 'model'])).stdout).toBe('gpt-4o\n');
    expect((await cli(dir, ['config', 'get', 'provider'])).stdout).toBe('openai\n');
    expect((await cli(dir, ['config', 'list'])).stdout).toBe('active_profile\tdefault\ndefault.model\tgpt-4o\ndefault.provider\topenai\n');

    const before = fs.readFileSync(configPath(dir));
    const bad = await cli(dir, ['config', 'set', 'provider', 'acme']);
    expect(bad).toEqual({ exitCode: 2, stdout: '', stderr: "Error: provider must be one of: openai, anthropic, xai, openrouter, venice, not 'acme'\n" });
    const empty = await cli(dir, ['config', 'set', 'model', '']);
    expect(empty).toEqual({ exitCode: 2, stdout: '', stderr: 'Error: model must not be empty\n' });
    expect(fs.readFileSync(configPath(dir))).toEqual(before);

    expect((await cli(dir, ['config', 'unset', 'model'])).exitCode).toBe(0);
    expect(readConfig(dir)).toEqual({ profiles: { default: { provider: 'openai' } } });
  });

  it('get prints defaults for output and active_profile, and --json a JSON value', async () => {
    const dir = freshDir();
    expect((await cli(dir, ['config', 'get', 'output'])).stdout).toBe('table\n');
    expect((await cli(dir, ['config', 'get', 'active_profile'])).stdout).toBe('default\n');
    expect((await cli(dir, ['config', 'get', 'base_url', '--json'])).stdout).toBe('null\n');
  });

  it('get api_key prints the key masked', async () => {
    const dir = freshDir();
    expect((await login(dir, KEY)).exitCode).toBe(0);
    const r = await cli(dir, ['config', 'get', 'api_key']);
    expect(r).toMatchObject({ exitCode: 0, stdout: `${MASKED}\n` });
    expectNoWholeKey(r, KEY);
  });

  it('set api_key is refused (exit 2), pointing at login --with-token, and writes nothing', async () => {
    const dir = freshDir();
    const r = await cli(dir, ['config', 'set', 'api_key', 'sa_sk_notreallyakeynotreallyakey00']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("superagent login --with-token");
    expect(fs.existsSync(configPath(dir))).toBe(false);
  });

  it('an unknown setting exits 2 listing the valid ones', async () => {
    const dir = freshDir();
    for (const args of [['get', 'colour'], ['set', 'colour', 'red'], ['unset', 'colour']]) {
      const r = await cli(dir, ['config', ...args]);
      expect(r).toEqual({ exitCode: 2, stdout: '', stderr: "Error: unknown setting 'colour' (the settings are base_url, api_key, output, model, provider, active_profile)\n" });
    }
  });

  it('refuses an output other than table or json, and a base_url that is not http(s)', async () => {
    const dir = freshDir();
    const output = await cli(dir, ['config', 'set', 'output', 'yaml']);
    expect(output.exitCode).toBe(2);
    expect(output.stderr).toBe("Error: output must be table or json, not 'yaml'\n");
    const url = await cli(dir, ['config', 'set', 'base_url', 'file:///etc/passwd']);
    expect(url.exitCode).toBe(2);
    expect(fs.existsSync(configPath(dir))).toBe(false);
  });

  it('set with --profile creates that profile; active_profile switches the default one', async () => {
    const dir = freshDir();
    expect((await cli(dir, ['config', 'set', 'base_url', svc.url, '--profile', 'staging'])).exitCode).toBe(0);
    expect(readConfig(dir)).toEqual({ profiles: { staging: { base_url: svc.url } } });
    expect((await cli(dir, ['config', 'set', 'active_profile', 'staging'])).exitCode).toBe(0);
    expect(readConfig(dir).active_profile).toBe('staging');
    expect((await cli(dir, ['config', 'get', 'base_url'])).stdout).toBe(`${svc.url}\n`);
    expect((await cli(dir, ['config', 'unset', 'active_profile'])).exitCode).toBe(0);
    expect(readConfig(dir).active_profile).toBeUndefined();
  });

  it('active_profile must name an existing profile', async () => {
    const dir = freshDir();
    const r = await cli(dir, ['config', 'set', 'active_profile', 'nope']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("there is no profile 'nope'");
  });

  it('get and unset on a profile that does not exist exit 2', async () => {
    const dir = freshDir();
    expect((await cli(dir, ['config', 'get', 'base_url', '--profile', 'nope'])).exitCode).toBe(2);
    expect((await cli(dir, ['config', 'unset', 'base_url'], { SUPERAGENT_PROFILE: 'nope' })).exitCode).toBe(2);
  });

  it('list shows every profile with keys masked; --json as an object', async () => {
    const dir = freshDir();
    expect((await login(dir, KEY)).exitCode).toBe(0);
    expect((await cli(dir, ['config', 'set', 'output', 'json', '--profile', 'ci'])).exitCode).toBe(0);
    const r = await cli(dir, ['config', 'list']);
    expect(r).toMatchObject({
      exitCode: 0,
      stdout: `active_profile\tdefault\ndefault.base_url\t${svc.url}\ndefault.api_key\t${MASKED}\nci.output\tjson\n`,
      stderr: '',
    });
    const json = await cli(dir, ['config', 'list', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({
      active_profile: 'default',
      profiles: { default: { base_url: svc.url, api_key: MASKED }, ci: { output: 'json' } },
    });
    expectNoWholeKey(r, KEY);
    expectNoWholeKey(json, KEY);
  });

  it("output json makes the profile's commands print JSON without --json", async () => {
    const dir = freshDir();
    expect((await login(dir, KEY)).exitCode).toBe(0);
    await launchAgent(svc, { name: 'cfg-json-agent' });
    expect((await cli(dir, ['config', 'set', 'output', 'json'])).exitCode).toBe(0);
    const r = await cli(dir, ['list']);
    expect(r.exitCode).toBe(0);
    // the API's own answer: { "agents": [...] }
    const body = JSON.parse(r.stdout);
    expect(Object.keys(body)).toEqual(['agents']);
    expect(Array.isArray(body.agents)).toBe(true);
    expect(body.agents.map((a: { name: string }) => a.name)).toContain('cfg-json-agent');
    // the table default comes back with the setting unset
    expect((await cli(dir, ['config', 'unset', 'output'])).exitCode).toBe(0);
    expect((await cli(dir, ['list'])).stdout).toMatch(/^[0-9a-f-]{36}\t/m);
  });
});

describe('a corrupt config file', () => {
  for (const args of [['list'], ['config', 'list'], ['whoami'], ['login', '--with-token'], ['logout'], ['config', 'get', 'output'], ['config', 'set', 'output', 'json']]) {
    it(`makes '${args.join(' ')}' exit 2 with one line naming the file`, async () => {
      const dir = freshDir();
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(configPath(dir), '{"profiles": {');
      const r = await run(args, { configDir: dir, input: `${KEY}\n` });
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`Error: the config file ${configPath(dir)} is corrupt: it is not valid JSON (fix it, or move it aside and run 'superagent login' again)\n`);
      expect(fs.readFileSync(configPath(dir), 'utf8')).toBe('{"profiles": {');
    });
  }

  it("still lets 'config path' say where it is", async () => {
    const dir = freshDir();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(configPath(dir), 'not json');
    expect(await run(['config', 'path'], { configDir: dir })).toMatchObject({ exitCode: 0, stdout: `${configPath(dir)}\n` });
  });
});

async function agentCount(key: string): Promise<number> {
  const r = await svc.call('GET', '/v1/superagents', { key });
  expect(r.status).toBe(200);
  expect(Object.keys(r.json)).toEqual(['agents']);
  return r.json.agents.length;
}
