// Reading a file the tool keeps (a record, a lock, a key) where someone may have put something else:
// opening a FIFO to read waits for a writer (blocking the whole process), and a device such as
// /dev/zero never ends. Only a regular file is read: its type is checked before it is opened (so a
// FIFO is never opened), and again on what was opened (it may have been replaced in between), which
// is opened non-blocking so that even a FIFO slipped in then cannot hold the open.
import fs from 'node:fs';

/** Something other than a regular file (or a directory, which reads fail on as always: EISDIR). */
export class NotRegularFileError extends Error {
  override name = 'NotRegularFileError';

  constructor(
    readonly file: string,
    /** what it is, in words: "a FIFO" */
    readonly kind: string,
  ) {
    super(`${file} is ${kind}, not a regular file`);
  }
}

function kindOf(st: fs.Stats): string {
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a file';
}

function refuse(file: string, st: fs.Stats): void {
  if (!st.isFile() && !st.isDirectory()) throw new NotRegularFileError(file, kindOf(st));
}

/** `bytes` as MiB for a person, rounded up: `3,072 MiB`. */
export const inMiB = (bytes: number): string => `${Math.ceil(bytes / 1024 ** 2).toLocaleString('en-US')} MiB`;

/** A regular file larger than its reader allows: not read at all. */
export class FileTooLargeError extends Error {
  override name = 'FileTooLargeError';

  constructor(
    readonly file: string,
    readonly size: number,
    readonly maxBytes: number,
  ) {
    super(`${file} is ${inMiB(size)}, larger than any the tool writes (at most ${inMiB(maxBytes)})`);
  }
}

/**
 * The text of `file` (after symlinks), if it is a regular file of at most `maxBytes` (checked on its
 * size, before a byte is read); errno errors (ENOENT…) as fs gives them.
 */
export function readRegularFile(file: string, maxBytes = Infinity): string {
  refuse(file, fs.statSync(file));
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const st = fs.fstatSync(fd);
    refuse(file, st);
    if (st.size > maxBytes) throw new FileTooLargeError(file, st.size, maxBytes);
    return fs.readFileSync(fd, 'utf8');
  } finally {
    fs.closeSync(fd);
  }
}
