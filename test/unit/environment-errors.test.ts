// A full disk, a read-only file system or a refused permission is the user's to fix, not a bug: any
// such failure that reaches the reporter is exit 2 with the path and the cause in words; a write
// that fails names the file the user knows (not its temp file) and leaves nothing behind.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { ConnectionError } from '../../src/api/errors.js';
import { EXIT, exitCodeFor, reportError } from '../../src/cli/exit-codes.js';
import { createFileOnce, makeDir, writeFileAtomic } from '../../src/core/atomic-write.js';
import { EnvironmentError, asEnvironmentError } from '../../src/core/errors.js';
import { Locks } from '../../src/core/file-lock.js';
import { Store, type StoredAgent, type StoredSession } from '../../src/server/store.js';
import { RecordFiles } from '../../src/server/store/records.js';
import { perTest } from '../helpers/service-support.js';
import { filesUnder, smallFs, whyNoMounts } from '../helpers/small-fs.js';

const temp = perTest();
const noMounts = whyNoMounts();
if (noMounts) console.warn(`environment-errors.test: real full and read-only file systems are skipped: ${noMounts}`);

/** An error as node:fs makes it. */
function errno(code: string, syscall: string, file?: string): NodeJS.ErrnoException {
  const err = new Error(`${code}: failed, ${syscall}${file ? ` '${file}'` : ''}`);
  return Object.assign(err, { code, errno: -1, syscall, ...(file ? { path: file } : {}) });
}

/** What `fn` throws (it must throw). */
function failure(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('it did not fail');
}

function reported(err: unknown): { code: number; stderr: string } {
  let stderr = '';
  const out = { isTTY: false, write: (s: string) => ((stderr += s), true) };
  const code = reportError(err, out, { json: false, debug: false });
  return { code, stderr };
}

describe('the reporter: a refusal of the machine that reached it is exit 2, in words', () => {
  it.each([
    [
      'ENOSPC',
      'open',
      'Error: cannot open /cfg/config.json: the disk is full (free some space on it, then try again)\n',
    ],
    [
      'EDQUOT',
      'open',
      'Error: cannot open /cfg/config.json: the disk quota is exceeded ' +
        '(free some space within your quota, then try again)\n',
    ],
    [
      'EROFS',
      'open',
      'Error: cannot open /cfg/config.json: the file system is read-only ' +
        '(use a directory on a file system you can write)\n',
    ],
    [
      'EACCES',
      'open',
      'Error: cannot open /cfg/config.json: permission denied (check who owns it and its permissions)\n',
    ],
    [
      'EPERM',
      'unlink',
      'Error: cannot remove /cfg/config.json: permission denied (check who owns it and its permissions)\n',
    ],
    [
      'EROFS',
      'mkdir',
      'Error: cannot create the directory /cfg/config.json: the file system is ' +
        'read-only (use a directory on a file system you can write)\n',
    ],
    [
      'EACCES',
      'scandir',
      'Error: cannot read /cfg/config.json: permission denied (check who owns it and its permissions)\n',
    ],
    [
      'EROFS',
      'chmod',
      'Error: cannot change the permissions of /cfg/config.json: the file system ' +
        'is read-only (use a directory on a file system you can write)\n',
    ],
  ])('%s in %s', (code, syscall, line) => {
    expect(reported(errno(code, syscall, '/cfg/config.json'))).toEqual({ code: EXIT.usage, stderr: line });
  });

  it('without a path (a write on a file descriptor): still exit 2, the cause in words', () => {
    const stderr = 'Error: cannot write a file: the disk is full (free some space on it, then try again)\n';
    expect(reported(errno('ENOSPC', 'write'))).toEqual({ code: EXIT.usage, stderr });
  });

  it('other failures keep their class: a missing file or a refused connection is no refusal of the machine', () => {
    expect(exitCodeFor(errno('ENOENT', 'open', '/x'))).toBe(EXIT.unexpected);
    expect(exitCodeFor(new ConnectionError('connect EACCES 10.0.0.1:443', undefined, 'EACCES'))).toBe(EXIT.service);
    expect(asEnvironmentError(new Error('EACCES but not from node'))).toBeUndefined();
  });

  it("a path given names what the user knows instead of the error's own (a temp file)", () => {
    const temp = errno('ENOSPC', 'open', '/cfg/config.json.123.x.tmp');
    const err = asEnvironmentError(temp, { path: '/cfg/config.json', action: 'cannot write' })!;
    expect(err).toBeInstanceOf(EnvironmentError);
    expect([err.message, err.path, err.code, err.reason]).toEqual([
      'cannot write /cfg/config.json: the disk is full',
      '/cfg/config.json',
      'ENOSPC',
      'the disk is full',
    ]);
    expect(asEnvironmentError(err)).toBe(err);
  });
});

describe('writes that fail name their file and leave nothing behind', () => {
  it('writeFileAtomic: the real file named, not its temp; the old content whole; no temp left', () => {
    const dir = temp.scratch();
    const file = path.join(dir, 'config.json');
    fs.writeFileSync(file, 'old');
    vi.spyOn(fs, 'writeFileSync').mockImplementation(() => {
      throw errno('ENOSPC', 'write');
    });
    const thrown = failure(() => writeFileAtomic(file, 'new'));
    vi.restoreAllMocks();
    expect(fs.readdirSync(dir)).toEqual(['config.json']);
    expect(fs.readFileSync(file, 'utf8')).toBe('old');
    expect(thrown).toEqual(new EnvironmentError(file, 'ENOSPC', 'cannot write'));
  });

  it('createFileOnce: a write that fails once its temp exists removes the temp (a lock never half made)', () => {
    const dir = temp.scratch();
    const file = path.join(dir, 'lock.x');
    const real = fs.writeFileSync;
    vi.spyOn(fs, 'writeFileSync').mockImplementation((target, _data, options) => {
      real(target, '', options as fs.WriteFileOptions); // created, then the disk is full
      throw errno('ENOSPC', 'write');
    });
    const thrown = failure(() => createFileOnce(file, '{"pid":1}'));
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(thrown).toEqual(new EnvironmentError(file, 'ENOSPC', 'cannot write'));
  });

  it('a new agent whose record cannot be written leaves no owner file', async () => {
    const store = new Store(temp.scratch()).open();
    vi.spyOn(RecordFiles.prototype, 'put').mockImplementation(() => {
      throw new EnvironmentError('/data/records/x.json', 'ENOSPC', 'cannot write');
    });
    const launched = store.launchAgent('acct', { agent_id: 'a1' } as StoredAgent, () => undefined);
    await expect(launched).rejects.toThrow(EnvironmentError);
    expect(fs.readdirSync(store.layout.owners)).toEqual([]);
  });

  it('a new session whose record cannot be written leaves no order file', async () => {
    const store = new Store(temp.scratch()).open();
    vi.spyOn(RecordFiles.prototype, 'put').mockImplementation(() => {
      throw new EnvironmentError('/data/records/x.json', 'ENOSPC', 'cannot write');
    });
    const created_at = new Date().toISOString();
    const session = {
      session_id: 's1',
      owner: 'acct',
      agent_id: null,
      created_at,
      turns: 0,
      history: [],
    } satisfies StoredSession;
    await expect(store.sessions.create('acct', session, Date.now())).rejects.toThrow(EnvironmentError);
    expect(fs.readdirSync(store.layout.orderDir('acct'))).toEqual([]);
  });
});

describe('makeDir on paths the machine will not make', () => {
  it('a dir on the way that is a link to nothing: exit 2 naming the link, not a bug (mkdir said EEXIST)', () => {
    const home = temp.scratch();
    const link = path.join(home, '.config');
    fs.symlinkSync(path.join(home, 'nonexistent', 'dotfiles'), link);
    const thrown = failure(() => makeDir(path.join(link, 'superagent')));
    expect(thrown).toBeInstanceOf(EnvironmentError);
    expect(exitCodeFor(thrown)).toBe(EXIT.usage);
    expect((thrown as Error).message).toBe(
      `cannot create the directory ${link}: it is a symbolic link to a path that does not exist`,
    );
  });

  it.skipIf(process.platform !== 'linux')(
    'a dir the system will not make though its parent exists (/proc): a failure, no endless retry',
    () => {
      const thrown = failure(() => makeDir('/proc/self/superagent-test/config'));
      expect(thrown).toBeInstanceOf(EnvironmentError);
      expect((thrown as Error).message).toMatch(/^cannot create the directory \/proc\/self\/superagent-test: /);
    },
  );

  it('a file where a dir of the path should be: ENOTDIR named', () => {
    const home = temp.scratch();
    fs.writeFileSync(path.join(home, 'file'), '');
    const thrown = failure(() => makeDir(path.join(home, 'file', 'sub')));
    expect(thrown).toEqual(new EnvironmentError(path.join(home, 'file'), 'ENOTDIR', 'cannot create the directory'));
  });

  it('makes each missing dir and gives the first it made; an existing dir gives undefined', () => {
    const home = temp.scratch();
    expect(makeDir(path.join(home, 'a', 'b', 'c'))).toBe(path.join(home, 'a'));
    expect(fs.statSync(path.join(home, 'a', 'b', 'c')).isDirectory()).toBe(true);
    expect(makeDir(path.join(home, 'a', 'b'))).toBeUndefined();
  });
});

describe.skipIf(noMounts)(`on a real full or read-only file system${noMounts ? ` (skipped: ${noMounts})` : ''}`, () => {
  it('a lock on a full disk: refused naming the lock file, and no zero-byte temp left beside it', async () => {
    const disk = smallFs();
    const dir = path.join(disk.dir, 'locks');
    fs.mkdirSync(dir);
    disk.fill();
    const locks = new Locks(dir);
    const thrown = await locks.acquire('agents-of.acct').then(
      () => new Error('it did not fail'),
      (err: unknown) => err,
    );
    expect(filesUnder(disk.dir)).toEqual([]);
    expect(thrown).toEqual(new EnvironmentError(locks.fileFor('agents-of.acct'), 'ENOSPC', 'cannot write'));
  });

  it('makeDir on a read-only file system says so (node:fs alone reports ENOENT there)', () => {
    const disk = smallFs();
    disk.readOnly();
    const dir = path.join(disk.dir, 'a', 'b');
    const refused = new EnvironmentError(path.join(disk.dir, 'a'), 'EROFS', 'cannot create the directory');
    expect(() => makeDir(dir)).toThrow(refused);
  });
});
