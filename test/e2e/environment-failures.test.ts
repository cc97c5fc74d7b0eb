// What the machine refuses a real process: a data dir the user may not write (another user's private
// directory, or records/ in its own data dir that it may not read; root may write anywhere, so the
// built CLI runs as nobody: only where the tests run as root, elsewhere skipped, saying so), and
// output redirected to a full disk. Exit 2, in words.
// Runs the built CLI (bin/superagent.js → dist/): `npm test` builds first; alone, `npm run build` first.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { perTest } from '../helpers/service-support.js';

const temp = perTest();
const NOBODY = 65534;
const asRoot = process.platform === 'linux' && process.getuid?.() === 0;
if (!asRoot) console.warn('environment-failures.test (e2e): the permission test is skipped: it needs root');

/** The CLI as the user nobody, in a world it may read (HOME, config dir) but where `dataDir` is root's. */
function asNobody(args: string[], configDir: string) {
  return execa(process.execPath, [BIN, ...args], {
    uid: NOBODY,
    gid: NOBODY,
    env: { PATH: process.env.PATH, HOME: configDir, TERM: 'dumb', SUPERAGENT_CONFIG_DIR: configDir },
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    timeout: 15_000,
  });
}

describe.skipIf(!asRoot)(`a data dir another user owns${asRoot ? '' : ' (skipped: needs root)'}`, () => {
  it('`server --data-dir` exits 2: permission denied, the dir named', async () => {
    const root = temp.scratch('superagent-private-'); // 0700, root's
    const configDir = temp.scratch('superagent-config-');
    fs.chownSync(configDir, NOBODY, NOBODY);
    const dataDir = path.join(root, 'data');
    const r = await asNobody(['server', '--port', '0', '--data-dir', dataDir], configDir);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `Error: the service cannot keep its state in ${dataDir}: permission denied ` +
        `(use a data dir you can write: --data-dir or SUPERAGENT_DATA_DIR)\n`,
    ]);
  });
});

describe.skipIf(!asRoot)(`records/ the user may not read${asRoot ? '' : ' (skipped: needs root)'}`, () => {
  it('`server --data-dir` exits 2: permission denied, records/ named, not a store said to be incomplete', async () => {
    const configDir = temp.scratch('superagent-config-');
    const dataDir = temp.scratch('superagent-data-');
    const records = path.join(dataDir, 'records');
    fs.mkdirSync(records);
    fs.writeFileSync(path.join(records, 'LAYOUT'), '{"layout":2}');
    for (const dir of [configDir, dataDir, records]) fs.chownSync(dir, NOBODY, NOBODY);
    fs.chmodSync(records, 0o000);
    const r = await asNobody(['server', '--port', '0', '--data-dir', dataDir], configDir);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `Error: the service cannot keep its state in ${dataDir}: cannot read ${records}: ` +
        `permission denied (check who owns it and its permissions)\n`,
    ]);
    fs.chmodSync(records, 0o700); // for the clean-up
  });
});

describe('output redirected to a full disk (/dev/full)', () => {
  const said = 'cannot write standard output: the disk is full (free some space on it, then try again)';
  /**
   * The built CLI with stdout (or stderr, or both) on /dev/full: the descriptor itself, as a shell's
   * `> file` gives it (execa's { file } would copy through a pipe).
   */
  type Full = { stdout?: boolean; stderr?: boolean };
  const intoFullDisk = (args: string[], onFull: Full = { stdout: true }, env: Record<string, string> = {}) => {
    const dirs = { configDir: temp.scratch('superagent-config-'), dataDir: temp.scratch('superagent-data-'), env };
    const full = fs.openSync('/dev/full', 'w');
    try {
      return spawnSync(process.execPath, [BIN, ...args], {
        env: cleanEnv(dirs) as NodeJS.ProcessEnv,
        stdio: ['ignore', onFull.stdout ? full : 'pipe', onFull.stderr ? full : 'pipe'],
        encoding: 'utf8',
        timeout: 15_000,
      });
    } finally {
      fs.closeSync(full);
    }
  };

  it('is exit 2 saying so, not a success whose data never arrived', () => {
    const r = intoFullDisk(['list', '--json']);
    // with --json, the failure follows as a JSON object too
    const json = JSON.stringify({ error: { message: said, exit_code: 2 } });
    expect([r.status, r.stderr]).toEqual([2, `Error: ${said}\n${json}\n`]);
  });

  it.each([['--help'], ['--version']])('%s, answered from the baked texts: the same', (flag) => {
    const r = intoFullDisk([flag]);
    expect([r.status, r.stderr]).toEqual([2, `Error: ${said}\n`]);
  });

  // stderr is where a failure is told: when it cannot be written either, the exit code still tells it
  it.each([
    ['a usage error, stderr full', ['--bogus'], { stderr: true }, 2],
    ['stdout and stderr full', ['list', '--json'], { stdout: true, stderr: true }, 2],
    ['stdout and stderr full, a baked answer', ['--version'], { stdout: true, stderr: true }, 2],
  ])('%s: no crash, the exit code the command has', (_what, args, onFull, code) => {
    const r = intoFullDisk(args, onFull);
    expect([r.status, r.signal]).toEqual([code, null]);
  });

  it('a success whose warning cannot be written is still a success', () => {
    // logout warns that the key in the environment is still set
    const r = intoFullDisk(['logout'], { stderr: true }, { SUPERAGENT_API_KEY: 'sa_sk_abcdefghijklmnop' });
    expect([r.status, r.signal, r.stdout]).toEqual([0, null, '']);
  });
});

describe('stderr a pipe its reader closed (EPIPE)', () => {
  it('a usage error still exits 2, without a crash', async () => {
    const dirs = { configDir: temp.scratch('superagent-config-'), dataDir: temp.scratch('superagent-data-') };
    const env = cleanEnv(dirs) as NodeJS.ProcessEnv;
    const child = spawn(process.execPath, [BIN, '--bogus'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    child.stderr.destroy(); // closed before the CLI writes to it
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    expect([code, signal]).toEqual([2, null]);
  });
});
