// The fleet commands read and write only inside the fleet's directory. A fleet file arrives in a pull
// request and `plan` runs in CI with the API key in its environment: a soul path of
// `/proc/self/environ`, `../secret.txt` or a link under souls/ would otherwise be printed in the
// plan's diff and uploaded by apply. A soul path is followed link by link, each link's target taken
// as written: nothing outside the directory is looked at, so no answer says whether something exists
// there. The file found is then read only if it is still that file when it is opened.
import fs, { promises as fsp, type Stats } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import { readFailure, replacedWhileRead, type ConfirmOpened } from '../commands/shared/soul-source.js';

/** as many links as Linux follows in one path before it gives up (ELOOP) */
const MAX_LINKS = 40;

/** Whether `p` is `dir` or below it (both absolute, links already followed where they must be). */
export function isInside(dir: string, p: string): boolean {
  const rel = path.relative(dir, p);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

function kindOf(stat: Stats): string {
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'something else';
}

/** A soul file found inside the fleet's directory: its path there, and the check of the file then opened. */
export interface CheckedSoul {
  path: string;
  confirm: ConfirmOpened;
}

/**
 * The soul `given` names (relative to `dir`, the fleet file's directory, whose real path is
 * `realDir`), once it is known to be a regular file inside `dir`. Decided from paths, links and
 * `lstat` inside the directory alone: nothing outside is looked at, and a FIFO is never opened
 * (opening one waits for a writer).
 */
export async function soulPath(dir: string, realDir: string, given: string): Promise<CheckedSoul> {
  const what = `soul file '${given}'`;
  const refused = (via: string) =>
    new UsageError(
      `${what} is outside the fleet file's directory${via}: a soul must be a file in that directory or below it`,
    );
  const written = path.resolve(dir, given);
  // as written first, so that what lies outside is not even looked at
  if (!isInside(dir, written) && !isInside(realDir, written)) throw refused('');
  // the fleet dir may be reached through a link: a path through it, as written or as a link's
  // target, means its real path
  const inRealDir = (p: string) => (isInside(dir, p) ? path.join(realDir, path.relative(dir, p)) : p);
  let at = realDir;
  let rest = path.relative(realDir, inRealDir(written)).split(path.sep).filter(Boolean);
  let stat: Stats | undefined;
  for (let links = 0; rest.length > 0;) {
    const next = path.join(at, rest.shift()!);
    try {
      stat = await fsp.lstat(next);
      if (stat.isSymbolicLink()) {
        // where the link leads, taken as written (`..` included): following it outside would tell
        // whether what it passes through exists there
        const leads = inRealDir(path.resolve(at, await fsp.readlink(next), ...rest));
        if (!isInside(realDir, leads)) throw refused(` (it leads to ${leads})`);
        if (++links > MAX_LINKS) throw new UsageError(`${what} leads round a loop of links`);
        [at, rest] = [realDir, path.relative(realDir, leads).split(path.sep).filter(Boolean)];
        stat = undefined;
        continue;
      }
    } catch (err) {
      if (err instanceof UsageError) throw err;
      throw readFailure(err, what, 'soul');
    }
    at = next;
  }
  stat ??= await fsp.lstat(at); // a path that is the directory itself
  if (stat.isDirectory()) throw new UsageError(`${what} is a directory, not a file`);
  if (!stat.isFile()) throw new UsageError(`${what} is ${kindOf(stat)}, not a regular file`);
  return { path: at, confirm: sameFile(stat, realDir) };
}

/** The file opened must be the one found (a regular file, same device and inode), and lie in `realDir` still. */
function sameFile(found: Stats, realDir: string): ConfirmOpened {
  return async ({ fd, stat: opened }, what) => {
    // the type too: a FIFO made in a removed file's place may get its inode number
    if (!opened.isFile() || opened.dev !== found.dev || opened.ino !== found.ino) throw replacedWhileRead(what);
    // where the system says the open file is (Linux): shows a directory above it swapped for a link
    // to elsewhere, even one swapped back and forth around the lookups above
    const where = await openedPath(fd);
    if (where !== undefined && !isInside(realDir, where)) throw replacedWhileRead(what);
  };
}

async function openedPath(fd: number): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  return fsp.readlink(`/proc/self/fd/${fd}`).catch(() => undefined);
}

/**
 * Where writing `file` lands: its real path, or that of its nearest existing parent with the rest
 * of the path (the directories a write would create) added.
 */
export function landing(file: string): string {
  const rest: string[] = [];
  for (let at = file; ; at = path.dirname(at)) {
    try {
      return path.join(fs.realpathSync(at), ...rest);
    } catch {
      // not there (or not readable: the write itself will say so)
      if (path.dirname(at) === at) return file;
    }
    rest.unshift(path.basename(at));
  }
}
