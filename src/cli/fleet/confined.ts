// The fleet commands read and write only inside the fleet's directory. A fleet file arrives in a pull
// request and `plan` runs in CI with the API key in its environment: a soul path of
// `/proc/self/environ`, `../secret.txt` or a link under souls/ would otherwise be printed in the
// plan's diff and uploaded by apply. Paths are compared after every link is followed.
import fs, { promises as fsp, type Stats } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../core/errors.js';
import { readFailure } from '../commands/shared/soul-source.js';

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

/**
 * The real path of the soul `given` names (relative to `dir`, the fleet file's directory, whose real
 * path is `realDir`), once it is known to be a regular file inside `dir`. Decided from paths and
 * `stat` alone: nothing outside is read, and a FIFO is never opened (opening one waits for a writer).
 */
export async function soulPath(dir: string, realDir: string, given: string): Promise<string> {
  const what = `soul file '${given}'`;
  const refused = (via: string) => new UsageError(`${what} is outside the fleet file's directory${via}: a soul must be a file in that directory or below it`);
  const written = path.resolve(dir, given);
  // as written first, so that what lies outside is not even looked at
  if (!isInside(dir, written) && !isInside(realDir, written)) throw refused('');
  let real: string;
  let stat: Stats;
  try {
    real = await fsp.realpath(written);
    stat = await fsp.stat(real);
  } catch (err) {
    throw readFailure(err, what, 'soul');
  }
  if (!isInside(realDir, real)) throw refused(` (it leads to ${real})`);
  if (stat.isDirectory()) throw new UsageError(`${what} is a directory, not a file`);
  if (!stat.isFile()) throw new UsageError(`${what} is ${kindOf(stat)}, not a regular file`);
  return real;
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
