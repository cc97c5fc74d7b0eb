// A full disk or a read-only file system under the config dir, the data dir or the temp dir, met for
// real (a small tmpfs this file mounts): exit 2 naming the path and the cause in words, never "This is
// a bug"; nothing half-written (the old file stays whole), nothing left behind (no temp, no stray lock).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigFile } from '../../src/config/file.js';
import { fakeEditor, runLine } from '../helpers/context.js';
import { launchAgent } from '../helpers/service.js';
import { perTest } from '../helpers/service-support.js';
import { filesUnder, smallFs, whyNoMounts, type SmallFs } from '../helpers/small-fs.js';

const temp = perTest();
const noMounts = whyNoMounts();
const skipped = noMounts ? ` (skipped: ${noMounts})` : '';
if (noMounts) console.warn(`environment-failures.test: real full and read-only file systems are skipped: ${noMounts}`);

/** A command with a real config file in `configDir` (and the embedded service on `dataDir`, if given). */
const withDirs = (dirs: { configDir: string; dataDir?: string }, argv: string) => {
  const config = new ConfigFile(dirs.configDir);
  return runLine(undefined, argv, { env: { SUPERAGENT_DATA_DIR: dirs.dataDir }, world: { config } });
};

/** The last line of stderr, `first` followed by what the embedded service could not write under `dataDir`. */
const fullUnder = (dataDir: string, first: string) => {
  const words = FULL.replace(/[()]/g, '\\$&');
  return new RegExp(`(^|\\n)${first}the embedded service cannot write ${dataDir}/records/\\S+: ${words}\\n$`);
};

const FULL = 'the disk is full (free some space on it, then try again)';
const READ_ONLY = 'the file system is read-only (use a directory on a file system you can write)';

describe.skipIf(noMounts)(`the config dir${skipped}`, () => {
  /** A small file system holding a config dir with one setting, and config.json's text as written. */
  const diskWithConfig = async () => {
    const disk = smallFs();
    const configDir = path.join(disk.dir, 'config');
    expect((await withDirs({ configDir }, 'config set model gpt-4o')).code).toBe(0);
    return { disk, configDir, before: fs.readFileSync(path.join(configDir, 'config.json'), 'utf8') };
  };

  it('full: exit 2 naming the lock beside config.json, the old file whole, no temp file left', async () => {
    const { disk, configDir, before } = await diskWithConfig();
    disk.fill();
    const r = await withDirs({ configDir }, 'config set model gpt-4.1');
    expect([r.code, r.stderr]).toEqual([2, `Error: cannot write ${configDir}/lock.config: ${FULL}\n`]);
    expect(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')).toBe(before);
    expect(filesUnder(disk.dir)).toEqual(['config/config.json']);
  });

  it('read-only: exit 2 naming what it could not write (the lock beside config.json), unchanged', async () => {
    const { disk, configDir, before } = await diskWithConfig();
    disk.readOnly();
    const r = await withDirs({ configDir }, 'config set model gpt-4.1');
    expect([r.code, r.stderr]).toEqual([2, `Error: cannot write ${configDir}/lock.config: ${READ_ONLY}\n`]);
    expect(fs.readFileSync(path.join(configDir, 'config.json'), 'utf8')).toBe(before);
  });

  it('read-only and not made yet: exit 2 naming the directory it cannot create (not ENOENT)', async () => {
    const disk = smallFs();
    disk.readOnly();
    const configDir = path.join(disk.dir, 'config');
    const r = await withDirs({ configDir }, 'config set model gpt-4o');
    expect([r.code, r.stderr]).toEqual([2, `Error: cannot create the directory ${configDir}: ${READ_ONLY}\n`]);
  });
});

describe.skipIf(noMounts)(`export's directory${skipped}`, () => {
  it('read-only and not made yet: exit 2 naming the directory it cannot create (not ENOENT)', async () => {
    const service = await temp.service();
    await launchAgent(service, { name: 'alpha' });
    const disk = smallFs();
    disk.readOnly();
    const dir = path.join(disk.dir, 'fleet');
    const r = await runLine(service, `export --dir ${dir}`);
    expect([r.code, r.stderr]).toEqual([2, `Error: cannot create the directory ${dir}: ${READ_ONLY}\n`]);
  });
});

describe.skipIf(noMounts)(`the data dir${skipped}`, () => {
  const stateIn = async (dataDir: string, configDir: string) => {
    const r = await withDirs({ configDir, dataDir }, 'launch --name first');
    expect(r.code, r.stderr).toBe(0);
  };

  /** A small file system holding a data dir with one agent ('first') and its config dir. */
  const diskWithState = async () => {
    const disk = smallFs();
    const dataDir = path.join(disk.dir, 'data');
    const configDir = path.join(disk.dir, 'config');
    await stateIn(dataDir, configDir);
    return { disk, dataDir, configDir };
  };

  it.each([
    ['not made yet', false],
    ['holding state', true],
  ])('read-only, %s: `server --data-dir` exits 2 naming it', async (_what, withState) => {
    const disk = smallFs();
    const dataDir = path.join(disk.dir, 'data');
    if (withState) await stateIn(dataDir, path.join(disk.dir, 'config'));
    disk.readOnly();
    const r = await runLine(undefined, ['server', '--data-dir', dataDir, '--port', '0']);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `Error: the service cannot keep its state in ${dataDir}: the file system is read-only ` +
        `(use a data dir you can write: --data-dir or SUPERAGENT_DATA_DIR)\n`,
    ]);
  });

  it('read-only, holding state: a command on the embedded service exits 2 naming it', async () => {
    const { disk, dataDir, configDir } = await diskWithState();
    disk.readOnly();
    const r = await withDirs({ configDir, dataDir }, 'list');
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `Error: the embedded service cannot keep its state in ${dataDir}: the file system is read-only ` +
        `(set SUPERAGENT_DATA_DIR to a directory you can write, or move what is there aside)\n`,
    ]);
  });

  it('full during a launch: exit 2 naming the file and the cause, nothing left; made once there is room', async () => {
    const { disk, dataDir, configDir } = await diskWithState();
    const before = filesUnder(disk.dir);
    disk.fill();
    const r = await withDirs({ configDir, dataDir }, 'launch --name second');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(fullUnder(dataDir, 'Error: '));
    // not one file more: no zero-byte temp in records/locks, no lock, no half a record
    expect(filesUnder(disk.dir)).toEqual(before);
    disk.unfill();
    expect((await withDirs({ configDir, dataDir }, 'launch --name second')).code).toBe(0);
    const list = await withDirs({ configDir, dataDir }, 'list --json');
    expect(
      JSON.parse(list.stdout)
        .agents.map((a: { name: string }) => a.name)
        .sort(),
    ).toEqual(['first', 'second']);
  });

  it('full: what only reads still works, also when the hourly tidy-up is due (it is skipped)', async () => {
    const { disk, dataDir, configDir } = await diskWithState();
    fs.rmSync(path.join(dataDir, 'records', 'tidied')); // when the last tidy-up was: never
    disk.fill();
    const list = await withDirs({ configDir, dataDir }, 'list --json');
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).agents.map((a: { name: string }) => a.name)).toEqual(['first']);
  });

  it('full: a pause and a chat (its new session, beside the reply) exit 2 naming the file, not a bug', async () => {
    const { disk, dataDir, configDir } = await diskWithState();
    const before = filesUnder(disk.dir);
    disk.fill();
    const pause = await withDirs({ configDir, dataDir }, 'pause first');
    expect(pause.code, pause.stderr).toBe(2);
    expect(pause.stderr).toMatch(fullUnder(dataDir, '✗ first: '));
    const chat = await withDirs({ configDir, dataDir }, 'chat first hello');
    expect(chat.code, chat.stderr).toBe(2);
    expect(chat.stderr).toMatch(fullUnder(dataDir, 'Error: '));
    expect(filesUnder(disk.dir)).toEqual(before);
    const list = await withDirs({ configDir, dataDir }, 'list --json');
    expect(JSON.parse(list.stdout).agents.map((a: { status: string }) => a.status)).toEqual(['running']);
  });
});

describe.skipIf(noMounts)(`the temp dir (soul edit's file for the editor)${skipped}`, () => {
  it.each([
    [
      'full',
      (disk: SmallFs) => disk.fill(),
      'the disk is full (free some space on it, or set TMPDIR to another directory)',
    ],
    [
      'read-only',
      (disk: SmallFs) => disk.readOnly(),
      'the file system is read-only (set TMPDIR to a writable directory)',
    ],
  ])('%s: exit 2 naming it, nothing uploaded, nothing left in it', async (_what, spoil, words) => {
    const service = await temp.service();
    await launchAgent(service, { name: 'demo', soul_md: 'I am demo.\n' });
    const disk = smallFs();
    spoil(disk);
    const editor = fakeEditor(() => {
      throw new Error('the editor was opened');
    });
    const r = await runLine(service, ['soul', 'edit', 'demo', '--yes'], { env: { TMPDIR: disk.dir }, editor });
    expect(fs.readdirSync(disk.dir).filter((f) => f !== '.filler')).toEqual([]);
    expect([r.code, r.stderr]).toEqual([
      2,
      `Error: cannot create a temporary file for the editor in ${disk.dir}: ${words}\n`,
    ]);
    expect(service.cliRequests().map((q) => q.method)).not.toContain('PUT');
  });
});
