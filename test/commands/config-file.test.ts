// The config file on disk (JSON, 0600 in a 0700 dir, SUPERAGENT_CONFIG_DIR): the real store
// (src/config/file.ts) under login, logout and config, in a fresh dir per test; and a corrupt file,
// which every command that reads it refuses with one line naming it, leaving it as it was.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_LOCK, CONFIG_VERSION, ConfigFile } from '../../src/config/file.js';
import { Locks } from '../../src/core/file-lock.js';
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
/** What a write leaves on disk: the data, stamped with the file's version. */
const onDisk = (data: object) => ({ version: CONFIG_VERSION, ...data });

/** Runs a line on the real config file in `dir`. */
function cli(dir: string, argv: string[], o: { input?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  return runLine(undefined, argv, { ...o, world: { config: new ConfigFile(dir) } });
}

/** `login` keeping the key in the file (the keychain's side: test/commands/keychain.test.ts). */
const login = (dir: string, key: string, args: string[] = ['--base-url', svc.url]) =>
  cli(dir, ['login', '--with-token', '--insecure-storage', ...args], { input: `${key}\n` });

describe('where the file lives', () => {
  // no store given: the command builds its own from the environment, as the binary does
  const fromEnv = (dir: string, argv: string[]) =>
    runLine(undefined, argv, { env: { SUPERAGENT_CONFIG_DIR: dir }, world: { config: undefined } });

  it("'config path' prints SUPERAGENT_CONFIG_DIR/config.json and creates nothing", async () => {
    const dir = freshDir();
    expect(await fromEnv(dir, ['config', 'path'])).toEqual({
      code: 0,
      stdout: `${configPath(dir)}\n`,
      stderr: '',
      asked: [],
    });
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('config set writes there: 0600 in a 0700 dir, the URL without /v1', async () => {
    const dir = freshDir();
    expect(await fromEnv(dir, ['config', 'set', 'base_url', 'https://api.example.com/v1/'])).toMatchObject({
      code: 0,
      stdout: '',
      stderr: '',
    });
    expect(readConfig(dir)).toEqual(onDisk({ profiles: { default: { base_url: 'https://api.example.com' } } }));
    expect(modeOf(configPath(dir))).toBe(0o600);
    expect(modeOf(dir)).toBe(0o700);
    expect((await fromEnv(dir, ['config', 'get', 'base_url'])).stdout).toBe('https://api.example.com\n');
  });
});

describe('login and logout on disk', () => {
  it(
    'login --with-token --insecure-storage saves the key and base ' +
      'URL in a 0600 file in a 0700 dir, and later commands use them',
    async () => {
      const dir = freshDir();
      const kept =
        `Logged in to ${svc.url} as profile default (key ` + `sa_sk_…${KEY.slice(-4)}, kept in the config file)\n`;
      expect(await login(dir, KEY, ['--base-url', `${svc.url}/v1/`])).toEqual({
        code: 0,
        stdout: '',
        stderr: kept,
        asked: [],
      });
      expect(readConfig(dir)).toEqual(
        onDisk({ active_profile: 'default', profiles: { default: { base_url: svc.url, api_key: KEY } } }),
      );
      expect(modeOf(configPath(dir))).toBe(0o600);
      expect(modeOf(dir)).toBe(0o700);

      const { agent_id } = await launchAgent(svc, { name: 'cfg-login-agent' });
      const list = await cli(dir, ['list']);
      expect(list.code).toBe(0);
      expect(list.stdout).toContain(`${agent_id}\tcfg-login-agent\t`);
      await svc.call('DELETE', `/v1/superagents/${agent_id}`);
    },
  );

  it('leaves the mode of a config dir it did not create as it was (SUPERAGENT_CONFIG_DIR=$HOME)', async () => {
    const dir = freshDir();
    fs.mkdirSync(dir, { mode: 0o755 });
    fs.chmodSync(dir, 0o755);
    expect((await login(dir, KEY)).code).toBe(0);
    expect(modeOf(dir)).toBe(0o755);
    expect(modeOf(configPath(dir))).toBe(0o600);
  });

  it('creates every missing dir on the way 0700, and only those', async () => {
    const parent = temp.scratch('superagent-cfg-');
    fs.chmodSync(parent, 0o751);
    const dir = path.join(parent, 'a', 'b');
    expect((await cli(dir, ['config', 'set', 'output', 'json'])).code).toBe(0);
    expect([modeOf(parent), modeOf(path.join(parent, 'a')), modeOf(dir)]).toEqual([0o751, 0o700, 0o700]);
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
    expect(await cli(dir, ['logout'])).toMatchObject({
      code: 0,
      stdout: '',
      stderr: expect.stringMatching(
        /^Removed the key sa_sk_…\S+ of profile default from the (OS keychain|config file)/,
      ),
    });
    expect(readConfig(dir)).toEqual(
      onDisk({ active_profile: 'default', profiles: { default: { base_url: svc.url, output: 'json' } } }),
    );
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

  const lines = [
    ['list'],
    ['config', 'list'],
    ['whoami'],
    ['login', '--with-token'],
    ['logout'],
    ['config', 'get', 'output'],
    ['config', 'set', 'output', 'json'],
    ['config', 'unset', 'output'],
  ];
  it.each(lines.map((l) => [l.join(' '), l]))(
    "makes '%s' exit 2 with one line naming the file, which stays as it was",
    async (_name, argv) => {
      const dir = corrupt('{"profiles": {');
      const r = await cli(dir, argv as string[], { input: `${KEY}\n` });
      expect(r).toEqual({
        code: 2,
        stdout: '',
        stderr:
          `Error: the config file ${configPath(dir)} is corrupt: it is not valid ` +
          `JSON (fix it, or move it aside and run 'superagent login' again)\n`,
        asked: [],
      });
      expect(fs.readFileSync(configPath(dir), 'utf8')).toBe('{"profiles": {');
    },
  );

  it('JSON that is not an object, or whose profiles are not one, is corrupt too', async () => {
    for (const [text, why] of [
      ['[]', 'it is not a JSON object'],
      ['{"profiles": 3}', '"profiles" is not an object'],
    ]) {
      const dir = corrupt(text!);
      const r = await cli(dir, ['config', 'list']);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `Error: the config file ${configPath(dir)} is corrupt: ${why} (fix ` +
          `it, or move it aside and run 'superagent login' again)\n`,
      );
    }
  });

  it.each([
    ['{"profiles": {"default": {"api_key": ["x"]}}}', '"profiles.default.api_key" is not a string'],
    ['{"profiles": {"work": {"base_url": {"u": 1}}}}', '"profiles.work.base_url" is not a string'],
    ['{"profiles": {"default": 5}}', '"profiles.default" is not an object'],
    ['{"profiles": {"default": null}}', '"profiles.default" is not an object'],
    ['{"profiles": []}', '"profiles" is not an object'],
    ['{"active_profile": 5}', '"active_profile" is not a string'],
    // where the key is kept: a place this version does not know would leave the profile without one
    ['{"profiles": {"default": {"api_key_store": "vault"}}}', '"profiles.default.api_key_store" is not "keychain"'],
  ])('a field of the wrong type (%s) is corrupt too, named, for every command that reads it', async (text, why) => {
    const dir = corrupt(text);
    for (const argv of [['list'], ['config', 'list'], ['whoami']]) {
      const r = await cli(dir, argv);
      expect(r).toEqual({
        code: 2,
        stdout: '',
        stderr:
          `Error: the config file ${configPath(dir)} is corrupt: ${why} ` +
          `(fix it, or move it aside and run 'superagent login' again)\n`,
        asked: [],
      });
    }
    expect(fs.readFileSync(configPath(dir), 'utf8')).toBe(text);
  });

  it("still lets 'config path' say where it is", async () => {
    const dir = corrupt('not json');
    expect(await cli(dir, ['config', 'path'])).toEqual({
      code: 0,
      stdout: `${configPath(dir)}\n`,
      stderr: '',
      asked: [],
    });
  });
});

describe('a config.json that cannot be read as settings: exit 2 naming it, never "a bug"', () => {
  const made = (make: (file: string) => void) => {
    const dir = freshDir();
    fs.mkdirSync(dir, { recursive: true });
    make(configPath(dir));
    return dir;
  };

  it('a symbolic link to itself (a loop)', async () => {
    const dir = made((file) => fs.symlinkSync(file, file));
    for (const argv of [
      ['config', 'list'],
      ['config', 'set', 'output', 'json'],
    ]) {
      const r = await cli(dir, argv);
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toMatch(new RegExp(`^Error: cannot read ${configPath(dir)}: it is a symbolic link loop \\(`));
    }
  });

  it('one over 1 MiB: refused without reading it, saying its size', async () => {
    const dir = made((file) => fs.writeFileSync(file, `{"profiles": {}, "x": "${'a'.repeat(3 * 1024 ** 2)}"}`));
    const r = await cli(dir, ['config', 'list']);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(new RegExp(`^Error: the config file ${configPath(dir)} is 4 MiB, larger than .*1 MiB`));
  });
});

describe('a config.json that is a symbolic link (a dotfiles checkout)', () => {
  it('is written through: the target gets the change, the link stays a link', async () => {
    const dir = freshDir();
    fs.mkdirSync(dir, { recursive: true });
    const dotfiles = temp.scratch('superagent-dotfiles-');
    const target = path.join(dotfiles, 'superagent.json');
    fs.writeFileSync(target, JSON.stringify({ profiles: { work: { output: 'json' } } }));
    fs.symlinkSync(target, configPath(dir));
    expect((await cli(dir, ['config', 'set', 'model', 'gpt-4o', '--profile', 'work'])).code).toBe(0);
    expect(fs.lstatSync(configPath(dir)).isSymbolicLink()).toBe(true);
    expect(fs.readlinkSync(configPath(dir))).toBe(target);
    expect(JSON.parse(fs.readFileSync(target, 'utf8'))).toEqual(
      onDisk({ profiles: { work: { output: 'json', model: 'gpt-4o' } } }),
    );
    expect(modeOf(target)).toBe(0o600);
    // the new file was made beside the target, and nothing was left behind on either side
    expect(fs.readdirSync(dotfiles)).toEqual(['superagent.json']);
    expect(fs.readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('a link whose target does not exist yet: the target is created, the link kept', async () => {
    const dir = freshDir();
    fs.mkdirSync(dir, { recursive: true });
    const target = path.join(temp.scratch('superagent-dotfiles-'), 'superagent.json');
    fs.symlinkSync(target, configPath(dir));
    expect((await cli(dir, ['config', 'set', 'output', 'json'])).code).toBe(0);
    expect(fs.lstatSync(configPath(dir)).isSymbolicLink()).toBe(true);
    expect(JSON.parse(fs.readFileSync(target, 'utf8'))).toEqual(onDisk({ profiles: { default: { output: 'json' } } }));
  });
});

describe('a config file others can read', () => {
  // no store given: run() builds the real one, which warns through the command's printer
  const fromEnv = (dir: string, argv: string[]) =>
    runLine(undefined, argv, { env: { SUPERAGENT_CONFIG_DIR: dir }, world: { config: undefined } });

  function fileWith(data: object, mode: number): string {
    const dir = freshDir();
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(configPath(dir), JSON.stringify(data));
    fs.chmodSync(configPath(dir), mode);
    return dir;
  }

  it('holding a key: one line on stderr saying how to fix it, and the command still runs', async () => {
    const dir = fileWith(
      { profiles: { default: { base_url: 'https://api.example.com', api_key: KEY }, other: {} } },
      0o644,
    );
    const r = await fromEnv(dir, ['config', 'get', 'base_url']);
    expect(r).toEqual({
      code: 0,
      stdout: 'https://api.example.com\n',
      stderr:
        `! The config file ${configPath(dir)} holds an API key and others ` +
        `can read it (mode 0644): run 'chmod 600 ${configPath(dir)}'\n`,
      asked: [],
    });
  });

  it.each([
    ['holding a key, private (0600)', { profiles: { default: { api_key: KEY } } }, 0o600],
    ['readable by others, holding no key', { profiles: { default: { base_url: 'https://api.example.com' } } }, 0o644],
  ])('%s: no warning', async (_what, data, mode) => {
    const dir = fileWith(data, mode);
    expect((await fromEnv(dir, ['config', 'get', 'output'])).stderr).toBe('');
  });
});

describe('the config lock (several processes: test/e2e/config-lock.test.ts)', () => {
  const lockFile = (dir: string) => new Locks(dir).fileFor(CONFIG_LOCK);
  const leaveLock = (dir: string, pid: number) =>
    fs.writeFileSync(lockFile(dir), JSON.stringify({ pid, host: os.hostname(), token: 'left-behind' }));

  it('a lock left by a process that died is taken over at once', async () => {
    const dir = freshDir();
    fs.mkdirSync(dir, { recursive: true });
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    leaveLock(dir, dead);
    const r = await runLine(undefined, ['config', 'set', 'output', 'json'], {
      world: { config: new ConfigFile(dir, { lock: { maxWaitMs: 50 } }) },
    });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(readConfig(dir)).toEqual(onDisk({ profiles: { default: { output: 'json' } } }));
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  });

  it(
    'a lock a live process keeps: a bounded wait, then one ' + 'line naming the lock and its holder; nothing written',
    async () => {
      const dir = freshDir();
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(configPath(dir), '{}');
      leaveLock(dir, process.pid);
      const r = await runLine(undefined, ['config', 'set', 'output', 'json'], {
        world: { config: new ConfigFile(dir, { lock: { maxWaitMs: 50 } }) },
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `Error: cannot change the config file ${configPath(dir)}: the lock ` +
          `${lockFile(dir)} is held by process ${process.pid} on ${os.hostname()} ` +
          `(try again; if no superagent command is running, remove ${lockFile(dir)})\n`,
      );
      expect(fs.readFileSync(configPath(dir), 'utf8')).toBe('{}');
    },
  );

  it("a directory in the lock's place: exit 2 naming it, nothing written, nothing left beside it", async () => {
    const dir = freshDir();
    fs.mkdirSync(lockFile(dir), { recursive: true });
    const r = await runLine(undefined, ['config', 'set', 'output', 'json'], {
      world: { config: new ConfigFile(dir, { lock: { maxWaitMs: 50 } }) },
    });
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(new RegExp(`^Error: cannot write ${lockFile(dir)}: it is a directory \\(`));
    expect(fs.readdirSync(dir)).toEqual([path.basename(lockFile(dir))]);
  });

  it(
    'a writer whose lock was taken over meanwhile (it stopped ' + 'longer than the lock stays fresh) writes nothing',
    async () => {
      const dir = freshDir();
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(configPath(dir), '{}');
      const write = new ConfigFile(dir).write((data) => {
        data.active_profile = 'late';
        // what another process does to a lock it judged stale: its own lock in place of this one
        leaveLock(dir, process.pid);
      });
      await expect(write).rejects.toThrow(
        `the config file ${configPath(dir)} was changed by another command meanwhile`,
      );
      expect(fs.readFileSync(configPath(dir), 'utf8')).toBe('{}');
    },
  );
});

describe('the version field and its migrations', () => {
  /** A file as a version before `version` existed wrote it (version 1): a key in the file, one in the keychain. */
  const legacy = {
    active_profile: 'work',
    profiles: { work: { base_url: 'https://api.example.com', api_key: KEY }, ci: { api_key_store: 'keychain' } },
  };

  function fileWith(data: object): string {
    const dir = freshDir();
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(configPath(dir), JSON.stringify(data), { mode: 0o600 });
    return dir;
  }

  it('a file without one (version 1) is read as it is, and unchanged by reading', async () => {
    const dir = fileWith(legacy);
    const r = await cli(dir, ['config', 'get', 'base_url']);
    expect(r).toMatchObject({ code: 0, stdout: 'https://api.example.com\n', stderr: '' });
    expect(readConfig(dir)).toEqual(legacy);
  });

  it('the first write migrates it to the current version: every profile kept, the change made, 0600', async () => {
    const dir = fileWith(legacy);
    expect((await cli(dir, ['config', 'set', 'output', 'json'])).code).toBe(0);
    const profiles = { ...legacy.profiles, work: { ...legacy.profiles.work, output: 'json' } };
    expect(readConfig(dir)).toEqual(onDisk({ active_profile: 'work', profiles }));
    expect(modeOf(configPath(dir))).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
  });

  it('a file of a later version than this one knows: read, but never written over; exit 2 naming it', async () => {
    const later = { version: CONFIG_VERSION + 1, profiles: { default: { output: 'json' } } };
    const dir = fileWith(later);
    expect((await cli(dir, ['config', 'get', 'output'])).stdout).toBe('json\n');
    const r = await cli(dir, ['config', 'set', 'output', 'table']);
    expect([r.code, r.stderr]).toEqual([
      2,
      `Error: the config file ${configPath(dir)} is of version ${CONFIG_VERSION + 1}, ` +
        `newer than this superagent knows (${CONFIG_VERSION}) (upgrade superagent, then try again)\n`,
    ]);
    expect(readConfig(dir)).toEqual(later);
  });

  const notWhole = [['"2"'], ['0'], ['1.5'], ['null']];
  it.each(notWhole)('a version that is not a whole number from 1 (%s) is corrupt, named', async (v) => {
    const text = `{"version": ${v}, "profiles": {}}`;
    const dir = freshDir();
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(configPath(dir), text);
    const r = await cli(dir, ['config', 'list']);
    const why = '"version" is not a whole number from 1';
    const hint = "fix it, or move it aside and run 'superagent login' again";
    expect([r.code, r.stderr]).toEqual([2, `Error: the config file ${configPath(dir)} is corrupt: ${why} (${hint})\n`]);
    expect(fs.readFileSync(configPath(dir), 'utf8')).toBe(text);
  });
});

describe('conf, loaded to write the file', () => {
  it('leaves no handler of a signal behind (a Ctrl-C in the REPL afterwards is handled once)', async () => {
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const before = signals.map((s) => process.listenerCount(s));
    expect((await cli(freshDir(), ['config', 'set', 'output', 'json'])).code).toBe(0);
    expect(signals.map((s) => process.listenerCount(s))).toEqual(before);
  });
});
