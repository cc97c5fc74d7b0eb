// The one way the tool replaces a file (the service's records, the config file, REPL history, the
// completion cache): write a private temp file beside it, flush it to disk, rename it over the old
// one. A reader sees the old file or the new one, never half of either, and a crash leaves at most
// a stray temp file (named `<file>.<pid>.<random>.tmp`, so its owner can be told). A write the
// machine refuses (a full disk, a read-only file system) removes its temp file and fails naming the
// file, not the temp (EnvironmentError).
import fs from 'node:fs';
import path from 'node:path';
import { asEnvironmentError, EnvironmentError } from './errors.js';

export interface AtomicWriteOptions {
  /** the new file's mode (default 0600: everything the tool writes is private) */
  mode?: number;
  /** flush to disk before the rename (default true; a throw-away cache may skip it) */
  fsync?: boolean;
}

let counter = 0;

export function tempNameFor(file: string): string {
  counter = (counter + 1) % 0x100000;
  return `${file}.${process.pid}.${Date.now().toString(36)}${counter.toString(36)}.tmp`;
}

export function writeFileAtomic(file: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): void {
  const { mode = 0o600, fsync = true } = options;
  const tmp = tempNameFor(file);
  let fd: number | undefined;
  try {
    fd = fs.openSync(tmp, 'wx', mode);
    fs.fchmodSync(fd, mode); // the mode given to open is filtered by the umask
    fs.writeFileSync(fd, data);
    if (fsync) fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    fs.renameSync(tmp, file);
  } catch (err) {
    try {
      if (fd !== undefined) fs.closeSync(fd);
    } catch {
      // the failure that matters is the one above; the temp goes all the same
    }
    fs.rmSync(tmp, { force: true });
    throw asEnvironmentError(err, { path: file, action: 'cannot write' }) ?? err;
  }
}

/**
 * Creates `dir` and its missing parents (with `mode`), one at a time: node's recursive mkdir says
 * ENOENT for the cause where the machine refuses (EROFS, EDQUOT), EEXIST for a link to nothing on
 * the way, and retries without end where a parent exists but takes no new entry (/proc). Each failure
 * names the directory it was about. Gives the first directory it made, if any.
 */
export function makeDir(dir: string, mode = 0o700): string | undefined {
  const missing: string[] = [];
  for (let at = path.resolve(dir); !existingDir(at); at = path.dirname(at)) {
    missing.unshift(at);
    if (path.dirname(at) === at) break;
  }
  for (const at of missing) {
    try {
      fs.mkdirSync(at, { mode });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' && existingDir(at)) continue; // made meanwhile by another process
      const cause = code === 'ENOENT' ? new EnvironmentError(at, 'ENOTMADE', MKDIR) : err;
      throw asEnvironmentError(cause, { path: at, action: MKDIR }) ?? cause;
    }
  }
  return missing[0];
}

const MKDIR = 'cannot create the directory';

/** Whether `at` is a directory (through links); false when nothing is there; a failure for anything else. */
function existingDir(at: string): boolean {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(at);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // ENOTDIR: a file on the way, named when the walk reaches it
    if (code === 'ENOTDIR') return false;
    if (code !== 'ENOENT') throw asEnvironmentError(err, { path: at, action: MKDIR }) ?? err;
    // a link whose target does not exist: no directory can be made in its place
    if (fs.lstatSync(at, { throwIfNoEntry: false })?.isSymbolicLink())
      throw new EnvironmentError(at, 'EDANGLING', MKDIR);
    return false;
  }
  if (!stat.isDirectory()) throw new EnvironmentError(at, 'ENOTDIR', MKDIR);
  return true;
}

/**
 * Creates `dir` and its missing parents with mode 0700. A dir that exists keeps its mode: it may be
 * one the tool did not make ($HOME, given as the config dir), and is the user's to set.
 */
export function privateDir(dir: string): void {
  const first = makeDir(dir, 0o700);
  if (first === undefined) return;
  // the umask may have taken bits off the mode mkdir was given: each dir made here gets 0700 itself
  for (let made = path.resolve(dir); ; made = path.dirname(made)) {
    fs.chmodSync(made, 0o700);
    if (made === path.resolve(first) || path.dirname(made) === made) return;
  }
}

/**
 * The file a write to `file` must replace so that a symbolic link there stays a link: the end of
 * its links (which may not exist yet), or `file` itself.
 */
export function linkTarget(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  // no file there, or a link to a file not made yet (realpath does not follow those)
  let at = file;
  for (let hops = 0; hops < 40; hops++) {
    const st = fs.lstatSync(at, { throwIfNoEntry: false });
    if (!st?.isSymbolicLink()) return at;
    at = path.resolve(path.dirname(at), fs.readlinkSync(at));
  }
  return at;
}

/** Temp files of writers that died before their rename, older than `ageMs` (they are never read). */
export function removeStaleTemps(dir: string, base: string, ageMs = 60_000): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(`${base}.`) || !name.endsWith('.tmp')) continue;
    const full = path.join(dir, name);
    try {
      if (Date.now() - fs.statSync(full).mtimeMs > ageMs) fs.unlinkSync(full);
    } catch {
      // another process removed it first
    }
  }
}

/**
 * Creates `file` whole if it does not exist yet (temp file, then a hard link, which fails when
 * another process got there first). True when this call created it.
 */
export function createFileOnce(file: string, data: string | Uint8Array, mode = 0o600): boolean {
  const tmp = tempNameFor(file);
  try {
    // a write the disk refuses still made the temp file (empty): the finally removes it
    fs.writeFileSync(tmp, data, { mode });
    fs.linkSync(tmp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw asEnvironmentError(err, { path: file, action: 'cannot write' }) ?? err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}
