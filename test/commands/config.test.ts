// `superagent config list|get|set|unset` through the commands layer (docs/cli.md, superagent config …),
// on an in-memory config file: what is printed piped, on a terminal and with --json, what is stored,
// and that a refused value writes nothing. The file on disk (its modes, `config path`, a corrupt
// file) is config-file.test.ts.
import { describe, expect, it } from 'vitest';
import { MemoryConfig, runLine, type CliRun } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent } from '../helpers/service.js';

const KEY = 'sa_sk_' + 'Kk1Ll2Mm3Nn4Oo5Pp6Qq7Rr8Ss9Tt0Uv';
const MASKED = 'sa_sk_…t0Uv';
const URL = 'https://api.example.com';
const SETTINGS_LIST =
  'the settings are base_url, api_key, output, model, provider, render, rpc.ethereum, rpc.arbitrum, rpc.base, ' +
  'rpc.polygon, rpc.bsc, rpc.optimism, rpc.solana, hyperliquid_url, polymarket_url, active_profile';

const scratch = perTest();

/** Runs `config …` (or any line) on `config`, with nothing else configured. */
function cli(
  argv: string[],
  config: MemoryConfig,
  o: { env?: Record<string, string>; tty?: boolean } = {},
): Promise<CliRun> {
  return runLine(undefined, argv, { config, ...o });
}

/** A refusal: exit 2, one exact line on stderr, nothing on stdout, nothing written. */
async function expectRefused(argv: string[], config: MemoryConfig, line: string): Promise<void> {
  const before = structuredClone(config.data);
  const writes = config.writes;
  expect(await cli(argv, config)).toEqual({ code: 2, stdout: '', stderr: `Error: ${line}\n`, asked: [] });
  expect(config.writes).toBe(writes);
  expect(config.data).toEqual(before);
}

// `config unset base_url` brings a profile back to the embedded service, but a key the profile still
// has goes with every command: where it then goes is said at once, and the error the embedded service
// gives a key it does not know names the command that removes it.
describe('config unset base_url while the profile still has a key', () => {
  const GB_KEY = 'gb_sk_' + 'Hh1Oo2Ss3Tt4Ee5Dd6Kk7Ee8Yy9Zz0Ab';
  const withKey = (own: { api_key?: string; api_key_store?: 'keychain' }) =>
    new MemoryConfig({ active_profile: 'default', profiles: { default: { base_url: URL, ...own } } });
  const logout = "'superagent logout' removes it, and the embedded service's own key is used";

  it.each([
    [
      'an sa_sk_ key in the file',
      { api_key: KEY },
      `its key (${MASKED}): with no base URL it goes to the ` +
        `embedded service, which takes only a key it issued; ${logout}`,
    ],
    [
      'a gb_sk_ key in the file',
      { api_key: GB_KEY },
      `its key (gb_sk_…z0Ab): with no base URL it goes to the hosted service; ${logout}`,
    ],
    [
      'a key in the keychain (not read for this)',
      { api_key_store: 'keychain' as const },
      'its key (in the OS keychain): with no base URL a gb_sk_ key goes ' +
        'to the hosted service, an sa_sk_ key to the embedded ' +
        `service, which takes only a key it issued; ${logout}`,
    ],
  ])('%s: one line says the key is still there and where it now goes', async (_what, own, words) => {
    const config = withKey(own);
    const r = await cli(['config', 'unset', 'base_url'], config);
    expect(r).toEqual({ code: 0, stdout: '', stderr: `! Profile 'default' still has ${words}\n`, asked: [] });
    expect(config.data.profiles!.default).toEqual(own);
    expect(config.keychain.calls).toEqual([]);
  });

  it('--profile: the command it names has it too', async () => {
    const config = new MemoryConfig({ profiles: { default: {}, work: { base_url: URL, api_key: KEY } } });
    const r = await cli(['config', 'unset', 'base_url', '--profile', 'work'], config);
    expect(r.stderr).toContain("; 'superagent logout --profile work' removes it");
  });

  it('no key: nothing more said', async () => {
    expect(await cli(['config', 'unset', 'base_url'], withKey({}))).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
      asked: [],
    });
  });

  it('the next command: exit 3, the error names the commands that remove the key', async () => {
    const config = withKey({ api_key: KEY });
    expect((await cli(['config', 'unset', 'base_url'], config)).code).toBe(0);
    const r = await cli(['list'], config, { env: { SUPERAGENT_DATA_DIR: scratch.scratch('superagent-data-') } });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      new RegExp(
        '^Error: the embedded service in .* does not know the key sa_sk_…t0Uv ' +
          "from profile 'default' \\(its own is sa_sk_…\\w{4}\\) " +
          "\\(run 'superagent logout' \\(or 'superagent config unset " +
          "api_key'\\) to use the embedded service's own key, " +
          "or 'superagent config set base_url URL' to use the service that issued it\\)\n$",
      ),
    );
  });
});

describe('config set, get and unset', () => {
  it('a base_url is stored without a trailing /v1, read back, and removed', async () => {
    const config = new MemoryConfig();
    expect(await cli(['config', 'set', 'base_url', `${URL}/v1/`], config)).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
      asked: [],
    });
    expect(config.data).toEqual({ profiles: { default: { base_url: URL } } });
    expect(await cli(['config', 'get', 'base_url'], config)).toMatchObject({ code: 0, stdout: `${URL}\n`, stderr: '' });

    expect((await cli(['config', 'unset', 'base_url'], config)).code).toBe(0);
    expect(config.data).toEqual({ profiles: { default: {} } });
    // unset: exit 4, piped as on a terminal (as git config's 1: a script tells unset from empty)
    const unset =
      "Error: base_url is not set in profile 'default' (set it with 'superagent config set base_url VALUE')\n";
    expect(await cli(['config', 'get', 'base_url'], config)).toMatchObject({ code: 4, stdout: '', stderr: unset });
    expect(await cli(['config', 'get', 'base_url'], config, { tty: true })).toMatchObject({
      code: 4,
      stdout: '',
      stderr: unset,
    });
  });

  it('get of any unset setting exits 4, piped, on a terminal and with --json (which prints null)', async () => {
    const config = new MemoryConfig({ profiles: { default: {} } });
    for (const key of ['base_url', 'api_key', 'model', 'provider']) {
      const how =
        key === 'api_key' ? "log in with 'superagent login'" : `set it with 'superagent config set ${key} VALUE'`;
      const line = `Error: ${key} is not set in profile 'default' (${how})\n`;
      for (const tty of [false, true])
        expect(await cli(['config', 'get', key], config, { tty }), key).toMatchObject({
          code: 4,
          stdout: '',
          stderr: line,
        });
      expect(await cli(['config', 'get', key, '--json'], config), key).toMatchObject({
        code: 4,
        stdout: 'null\n',
        stderr: '',
      });
    }
    expect(config.writes).toBe(0);
  });

  it('on a terminal, set and unset say what they did', async () => {
    const config = new MemoryConfig();
    expect(await cli(['config', 'set', 'model', 'gpt-4o'], config, { tty: true })).toMatchObject({
      code: 0,
      stdout: '',
      stderr: '✓ Set model to gpt-4o in new profile default\n',
    });
    expect(await cli(['config', 'set', 'provider', 'openai'], config, { tty: true })).toMatchObject({
      code: 0,
      stderr: '✓ Set provider to openai in profile default\n',
    });
    expect(await cli(['config', 'unset', 'model'], config, { tty: true })).toMatchObject({
      code: 0,
      stderr: '✓ Removed model from profile default\n',
    });
    expect(await cli(['config', 'unset', 'model'], config, { tty: true })).toMatchObject({
      code: 0,
      stderr: "model is not set in profile 'default'; nothing to do.\n",
    });
    expect(config.data).toEqual({ profiles: { default: { provider: 'openai' } } });
  });

  it(
    'model and provider: set, get, listed and unset like the ' +
      'others; a provider must be a known one, a model not empty',
    async () => {
      const config = new MemoryConfig();
      expect(await cli(['config', 'set', 'model', 'gpt-4o'], config)).toMatchObject({
        code: 0,
        stdout: '',
        stderr: '',
      });
      expect(await cli(['config', 'set', 'provider', 'openai'], config)).toMatchObject({
        code: 0,
        stdout: '',
        stderr: '',
      });
      expect(config.data).toEqual({ profiles: { default: { model: 'gpt-4o', provider: 'openai' } } });
      expect((await cli(['config', 'get', 'model'], config)).stdout).toBe('gpt-4o\n');
      expect((await cli(['config', 'get', 'provider'], config)).stdout).toBe('openai\n');
      expect((await cli(['config', 'list'], config)).stdout).toBe(
        'active_profile\tdefault\ndefault.model\tgpt-4o\ndefault.provider\topenai\n',
      );

      await expectRefused(
        ['config', 'set', 'provider', 'acme'],
        config,
        "provider must be one of: openai, anthropic, xai, openrouter, venice, not 'acme'",
      );
      await expectRefused(['config', 'set', 'model', ''], config, 'model must not be empty');

      expect((await cli(['config', 'unset', 'model'], config)).code).toBe(0);
      expect(config.data).toEqual({ profiles: { default: { provider: 'openai' } } });
    },
  );

  it('get prints the defaults of output and active_profile, and --json a JSON value', async () => {
    const config = new MemoryConfig();
    expect((await cli(['config', 'get', 'output'], config)).stdout).toBe('table\n');
    expect((await cli(['config', 'get', 'active_profile'], config)).stdout).toBe('default\n');
    expect(await cli(['config', 'get', 'base_url', '--json'], config)).toMatchObject({
      code: 4,
      stdout: 'null\n',
      stderr: '',
    });
    expect((await cli(['config', 'get', 'output', '--json'], config)).stdout).toBe('"table"\n');
    expect(config.writes).toBe(0);
  });

  it('render is markdown (its default) or raw; anything else is refused', async () => {
    const config = new MemoryConfig();
    expect((await cli(['config', 'get', 'render'], config)).stdout).toBe('markdown\n');
    expect((await cli(['config', 'set', 'render', 'raw'], config)).code).toBe(0);
    expect(config.data).toEqual({ profiles: { default: { render: 'raw' } } });
    expect((await cli(['config', 'get', 'render'], config)).stdout).toBe('raw\n');
    expect((await cli(['config', 'list'], config)).stdout).toBe('active_profile\tdefault\ndefault.render\traw\n');
    await expectRefused(['config', 'set', 'render', 'html'], config, "render must be markdown or raw, not 'html'");
  });

  it('get api_key prints the key masked', async () => {
    const config = new MemoryConfig({ profiles: { default: { base_url: URL, api_key: KEY } } });
    const r = await cli(['config', 'get', 'api_key'], config);
    expect(r).toMatchObject({ code: 0, stdout: `${MASKED}\n`, stderr: '' });
    expect((await cli(['config', 'get', 'api_key', '--json'], config)).stdout).toBe(`"${MASKED}"\n`);
  });

  it('set api_key is refused (exit 2), pointing at login --with-token; the would-be key is not echoed', async () => {
    const config = new MemoryConfig();
    const would = 'sa_sk_notreallyakeynotreallyakey00';
    await expectRefused(
      ['config', 'set', 'api_key', would],
      config,
      'api_key cannot be set with config set: the key would stay in your shell ' +
        "history (pipe it to 'superagent login --with-token' instead)",
    );
  });

  it('an unknown setting exits 2 listing the valid ones', async () => {
    const config = new MemoryConfig({ profiles: { default: { output: 'json' } } });
    for (const args of [
      ['get', 'colour'],
      ['set', 'colour', 'red'],
      ['unset', 'colour'],
    ]) {
      await expectRefused(['config', ...args], config, `unknown setting 'colour' (${SETTINGS_LIST})`);
    }
  });

  it('refuses an output other than table or json, and a base_url that is not http(s)', async () => {
    const config = new MemoryConfig();
    await expectRefused(['config', 'set', 'output', 'yaml'], config, "output must be table or json, not 'yaml'");
    await expectRefused(
      ['config', 'set', 'base_url', 'file:///etc/passwd'],
      config,
      "'file:///etc/passwd' must start with http:// or https://",
    );
    await expectRefused(
      ['config', 'set', 'base_url', 'not a url'],
      config,
      "'not a url' is not a URL (give the service address like https://api.example.com)",
    );
  });

  it('a missing value is a usage error naming it', async () => {
    await expectRefused(
      ['config', 'set', 'model'],
      new MemoryConfig(),
      'missing <value> (usage: superagent config set <key> <value> [options])',
    );
  });
});

describe('profiles', () => {
  it(
    'set with --profile creates that profile; active_profile ' + 'switches the default one, and unset switches back',
    async () => {
      const config = new MemoryConfig();
      expect((await cli(['config', 'set', 'base_url', URL, '--profile', 'staging'], config)).code).toBe(0);
      expect(config.data).toEqual({ profiles: { staging: { base_url: URL } } });
      expect((await cli(['config', 'set', 'active_profile', 'staging'], config)).code).toBe(0);
      expect(config.data.active_profile).toBe('staging');
      expect((await cli(['config', 'get', 'base_url'], config)).stdout).toBe(`${URL}\n`);
      expect((await cli(['config', 'get', 'active_profile'], config)).stdout).toBe('staging\n');
      expect((await cli(['config', 'unset', 'active_profile'], config)).code).toBe(0);
      expect(config.data).toEqual({ profiles: { staging: { base_url: URL } } });
      expect(await cli(['config', 'get', 'base_url'], config)).toMatchObject({ code: 4, stdout: '' });
    },
  );

  it('active_profile must name an existing profile', async () => {
    await expectRefused(
      ['config', 'set', 'active_profile', 'nope'],
      new MemoryConfig(),
      "there is no profile 'nope' in the config file (create it with 'superagent " +
        "login --profile nope', or see 'superagent config list')",
    );
  });

  it('get and unset on a profile that does not exist exit 2 (--profile or SUPERAGENT_PROFILE)', async () => {
    const config = new MemoryConfig({ profiles: { default: { base_url: URL } } });
    const noSuch =
      "Error: there is no profile 'nope' in the config file (create it with " +
      "'superagent login --profile nope', or see 'superagent config list')\n";
    expect(await cli(['config', 'get', 'base_url', '--profile', 'nope'], config)).toMatchObject({
      code: 2,
      stdout: '',
      stderr: noSuch,
    });
    expect(await cli(['config', 'unset', 'base_url'], config, { env: { SUPERAGENT_PROFILE: 'nope' } })).toMatchObject({
      code: 2,
      stdout: '',
      stderr: noSuch,
    });
    expect(config.writes).toBe(0);
  });

  it('a 100 KB profile name is not echoed whole: cut with … in the message and its advice', async () => {
    const long = 'p'.repeat(100_000);
    const cut = `${'p'.repeat(59)}…`;
    for (const argv of [
      ['list', '--profile', long],
      ['config', 'get', 'base_url', '--profile', long],
    ]) {
      const r = await cli(argv, new MemoryConfig({ profiles: { default: { base_url: URL } } }));
      expect(r).toMatchObject({ code: 2, stdout: '' });
      expect(r.stderr).toBe(
        `Error: there is no profile '${cut}' in the config file ` +
          `(create it with 'superagent login --profile ${cut}', or see 'superagent config list')\n`,
      );
    }
  });

  it('SUPERAGENT_PROFILE picks the profile get reads', async () => {
    const config = new MemoryConfig({ profiles: { default: { output: 'table' }, ci: { output: 'json' } } });
    expect((await cli(['config', 'get', 'output'], config, { env: { SUPERAGENT_PROFILE: 'ci' } })).stdout).toBe(
      'json\n',
    );
    expect(
      (await cli(['config', 'get', 'output', '--profile', 'default'], config, { env: { SUPERAGENT_PROFILE: 'ci' } }))
        .stdout,
    ).toBe('table\n');
  });
});

describe('config list', () => {
  // a key in the file (default), one in the keychain (kc: not read to be listed), none (ci)
  const twoProfiles = () =>
    new MemoryConfig({
      active_profile: 'default',
      profiles: {
        default: { base_url: URL, api_key: KEY },
        kc: { base_url: URL, api_key_store: 'keychain' },
        ci: { output: 'json' },
      },
    });

  it('an endpoint with a path or query is listed as its origin and "/…"; get prints it (a script asks)', async () => {
    const config = new MemoryConfig();
    const keyed = 'https://x.invalid/v2/SECRETKEY?apikey=QSECRET';
    expect((await cli(['config', 'set', 'rpc.ethereum', keyed], config)).code).toBe(0);
    expect((await cli(['config', 'set', 'hyperliquid_url', 'https://u:PASSWD@h.invalid/k'], config)).code).toBe(0);
    for (const argv of [
      ['config', 'list'],
      ['config', 'list', '--json'],
    ]) {
      const r = await cli(argv, config);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('https://x.invalid/…');
      expect(r.stdout).toContain('https://…@h.invalid/…');
      expect(r.stdout).not.toMatch(/SECRET|PASSWD/);
    }
    expect((await cli(['config', 'get', 'rpc.ethereum'], config)).stdout).toBe(`${keyed}\n`);
  });

  it('piped: every profile with keys masked and where each is kept; --json as an object', async () => {
    const config = twoProfiles();
    const r = await cli(['config', 'list'], config);
    expect(r).toEqual({
      code: 0,
      stdout:
        `active_profile\tdefault\ndefault.base_url\t${URL}\ndefault.api_key\t${MASKED}\ndefault.api_key_store\tfile\n` +
        `kc.base_url\t${URL}\nkc.api_key_store\tkeychain\nci.output\tjson\n`,
      stderr: '',
      asked: [],
    });
    const json = await cli(['config', 'list', '--json'], config);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      active_profile: 'default',
      profiles: {
        default: { base_url: URL, api_key: MASKED, api_key_store: 'file' },
        kc: { base_url: URL, api_key_store: 'keychain' },
        ci: { output: 'json' },
      },
    });
    for (const out of [r, json]) expect(out.stdout + out.stderr).not.toContain(KEY);
    expect(config.keychain.calls).toEqual([]);
  });

  it(
    'on a terminal: a table with the profile in use marked, ' + 'or a word on where commands go when there is none',
    async () => {
      // (with the json profile ci in use, the answer would be JSON: see 'output json' below)
      const r = await cli(['config', 'list'], twoProfiles(), { tty: true, env: { SUPERAGENT_PROFILE: 'default' } });
      expect(r.code).toBe(0);
      const rows = r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.trim().split(/\s{2,}/));
      expect(rows).toEqual([
        ['PROFILE', 'BASE URL', 'KEY', 'OUTPUT', 'RENDER', 'MODEL'],
        ['*', 'default', URL, `${MASKED} (file)`, 'table', 'markdown', 'default'],
        ['kc', URL, 'keychain', 'table', 'markdown', 'default'],
        ['ci', 'embedded', 'none', 'json', 'markdown', 'default'],
      ]);
      const empty = await cli(['config', 'list'], new MemoryConfig(), { tty: true });
      expect(empty).toMatchObject({
        code: 0,
        stdout: '',
        stderr:
          'No profiles yet: every command uses the embedded local ' +
          "service. 'superagent login --base-url URL' adds one.\n",
      });
    },
  );

  it('on a terminal: the profile in use is marked even when it has no settings of its own', async () => {
    const config = new MemoryConfig({ profiles: { kc: { base_url: URL, api_key_store: 'keychain' } } });
    for (const env of [{}, { SUPERAGENT_PROFILE: 'work' }] as Array<Record<string, string>>) {
      const r = await cli(['config', 'list'], config, { tty: true, env });
      expect(r.code).toBe(0);
      const rows = r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.trim().split(/\s{2,}/));
      const marked = ['*', env.SUPERAGENT_PROFILE ?? 'default', 'embedded', 'none', 'table', 'markdown', 'default'];
      expect(rows.filter((row) => row[0] === '*')).toEqual([marked]);
      expect(rows.map((row) => row.at(-6))).toContain('kc');
    }
  });
});

describe('output json', () => {
  it("makes the profile's commands print JSON without --json; unset brings the table back", async () => {
    const service = await scratch.service();
    await launchAgent(service, { name: 'cfg-json-agent' });
    const config = new MemoryConfig({ profiles: { default: { base_url: service.url, api_key: service.key } } });
    expect((await cli(['config', 'set', 'output', 'json'], config)).code).toBe(0);
    const r = await cli(['list'], config);
    expect([r.code, r.stderr]).toEqual([0, '']);
    // the API's own answer: { "agents": [...] }
    const body = JSON.parse(r.stdout);
    expect(Object.keys(body)).toEqual(['agents']);
    expect(body.agents.map((a: { name: string }) => a.name)).toEqual(['cfg-json-agent']);
    expect((await cli(['config', 'unset', 'output'], config)).code).toBe(0);
    expect((await cli(['list'], config)).stdout).toMatch(/^[0-9a-f-]{36}\tcfg-json-agent\trunning\t/);
  });

  it('config list answers in JSON too while the profile in use says output json', async () => {
    const config = new MemoryConfig({ profiles: { default: { output: 'json' }, other: {} } });
    const r = await cli(['config', 'list'], config);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toEqual({
      active_profile: 'default',
      profiles: { default: { output: 'json' }, other: {} },
    });
    // another profile in use: its own output setting (none: the lines for a pipe)
    const other = await cli(['config', 'list', '--profile', 'other'], config);
    expect(other.stdout).toBe('active_profile\tdefault\ndefault.output\tjson\n');
  });
});
