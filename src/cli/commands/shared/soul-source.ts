// Reading a soul.md from a file or standard input (`--soul-file PATH|-`, `soul set --file PATH|-`):
// refused before any request when missing, unreadable, empty, not UTF-8 or over the contract's size.
import { promises as fs, statSync } from 'node:fs';
import { addAbortSignal } from 'node:stream';
import { LIMITS } from '../../../contract.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../../core/errors.js';
import { boundedRead, decodeUtf8, readAtMost, readStdinBuffer } from './stdin.js';

const LIMIT_KIB = LIMITS.soulBytes / 1024;

function tooBig(what: string, size: string): UsageError {
  return new UsageError(`${what} is ${size}; a soul may be at most ${LIMIT_KIB} KiB`);
}

/** `buf` was read no further than one byte past the limit, so its length says only that it is over. */
function checked(buf: Buffer, what: string): string {
  if (buf.length > LIMITS.soulBytes) throw tooBig(what, `over ${LIMIT_KIB} KiB`);
  const text = decodeUtf8(buf, what);
  // the service would quietly replace a blank soul with its default one
  if (!text.trim()) throw new UsageError(`${what} is empty`);
  return text;
}

export function readFailure(err: unknown, what: string, flag: string): UsageError {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new UsageError(`${what} does not exist`, `check the path given to ${flag}`);
  if (code === 'EACCES' || code === 'EPERM') return new UsageError(`cannot read ${what}: permission denied`);
  if (code === 'EISDIR') return new UsageError(`${what} is a directory, not a file`);
  return new UsageError(`cannot read ${what}: ${(err as Error)?.message ?? String(err)}`);
}

async function readFileChecked(path: string, what: string, flag: string, stop: AbortSignal): Promise<Buffer> {
  try {
    const stat = await fs.stat(path);
    if (stat.isDirectory()) throw new UsageError(`${what} is a directory, not a file`);
    // refuse a huge file without reading it into memory
    if (stat.isFile() && stat.size > LIMITS.soulBytes) throw tooBig(what, `${Math.ceil(stat.size / 1024)} KiB`);
    // a device or a pipe has no size to check first (/dev/zero never ends): read one byte past the limit at most
    const file = await fs.open(path, 'r');
    try {
      return await readAtMost(addAbortSignal(stop, file.createReadStream({ autoClose: false })), LIMITS.soulBytes);
    } finally {
      await file.close();
    }
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw readFailure(err, what, flag);
  }
}

/** The soul text from `source`: a path, or `-` for standard input. */
export async function readSoul(ctx: Context, source: string, flag: string): Promise<string> {
  if (source === '-') return checked(await readStdinBuffer(ctx, 'the soul', LIMITS.soulBytes), 'the soul on standard input');
  if (!source.trim()) throw new UsageError(`${flag} needs a file path, or - for standard input`);
  const what = `soul file '${source}'`;
  const stop = new AbortController();
  const reading = readFileChecked(source, what, flag, stop.signal);
  // a file ends; a pipe standing for one (`--soul-file <(generate-soul)`) may not: bounded like standard input
  return checked(await (isFile(source) ? reading : boundedRead(ctx, what, reading, () => stop.abort())), what);
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false; // reading it says what is wrong
  }
}
