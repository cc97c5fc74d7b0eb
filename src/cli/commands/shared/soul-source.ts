// Reading a soul.md from a file or standard input (`--soul-file PATH|-`, `soul set --file PATH|-`):
// refused before any request when missing, unreadable, empty, not UTF-8, holding a NUL byte or over the
// contract's size.
import { constants } from 'node:fs';
import { addAbortSignal, type Readable } from 'node:stream';
import { LIMITS } from '../../../contract.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../../core/errors.js';
import { closeInput, inputStream, mayNeverEnd, openInput, type OpenedInput } from './input-file.js';
import { boundedRead, decodeUtf8, readAtMost, readStdinBuffer } from './stdin.js';

const LIMIT_KIB = LIMITS.soulBytes / 1024;

function tooBig(what: string, size: string): UsageError {
  return new UsageError(`${what} is ${size}; a soul may be at most ${LIMIT_KIB} KiB`);
}

/**
 * A text (a soul, a message) with a NUL byte in it is refused, naming where it came from and the line:
 * valid UTF-8 still, but no text a person wrote; a binary file given by mistake, or a byte that would
 * cut the text short wherever it is read as a C string.
 */
export function refuseNul(text: string, what: string): string {
  const at = text.indexOf('\0');
  if (at < 0) return text;
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) line++;
  const hint = 'a binary file? give the text meant, or remove the NUL byte';
  throw new UsageError(`${what} contains a NUL byte (\\0), on line ${line}`, hint);
}

/** `buf` was read no further than one byte past the limit, so its length says only that it is over. */
function checked(buf: Buffer, what: string): string {
  if (buf.length > LIMITS.soulBytes) throw tooBig(what, `over ${LIMIT_KIB} KiB`);
  const text = refuseNul(decodeUtf8(buf, what), what);
  // the service would quietly replace a blank soul with its default one
  if (!text.trim()) throw new UsageError(`${what} is empty`);
  return text;
}

export function readFailure(err: unknown, what: string, flag: string): UsageError {
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR')
    return new UsageError(`${what} does not exist`, `check the path given to ${flag}`);
  if (code === 'EACCES' || code === 'EPERM') return new UsageError(`cannot read ${what}: permission denied`);
  if (code === 'EISDIR') return new UsageError(`${what} is a directory, not a file`);
  return new UsageError(`cannot read ${what}: ${(err as Error)?.message ?? String(err)}`);
}

/**
 * Given for a soul file that was checked before it is read (a fleet file's soul, which must stay in
 * the fleet's directory): the file is then opened without following a link at its last step, and
 * `confirm` sees the open file before a byte of it is read, to throw if it is not the file that was
 * checked.
 */
export type ConfirmOpened = (file: OpenedInput, what: string) => Promise<void>;

/**
 * The soul's bytes, read no further than one byte past the limit. A file ends; anything else (a
 * pipe standing for one, `--soul-file <(generate-soul)`, or a FIFO nobody writes to) may not, so its
 * read is bounded like standard input's: by --timeout, or else the default time-out (a path was
 * given, meant as a file: a wait without end is more likely a mistake than a slow writer).
 */
async function readFileChecked(
  ctx: Context,
  path: string,
  what: string,
  flag: string,
  confirm?: ConfirmOpened,
): Promise<Buffer> {
  const failed = (err: unknown): never => {
    if (err instanceof UsageError) throw err;
    // O_NOFOLLOW met a link where the checked file was
    if (confirm && (err as NodeJS.ErrnoException)?.code === 'ELOOP') throw replacedWhileRead(what);
    throw readFailure(err, what, flag);
  };
  const file = await openInput(path, confirm ? (constants.O_NOFOLLOW ?? 0) : 0).catch(failed);
  const stop = new AbortController();
  let stream: Readable | undefined;
  const reading = (async () => {
    await confirm?.(file, what);
    if (file.stat.isDirectory()) throw new UsageError(`${what} is a directory, not a file`);
    // refuse a huge file without reading it into memory
    if (file.stat.isFile() && file.stat.size > LIMITS.soulBytes)
      throw tooBig(what, `${Math.ceil(file.stat.size / 1024)} KiB`);
    // given up on meanwhile: a stream given a signal already aborted emits an error nobody listens for
    stop.signal.throwIfAborted();
    stream = inputStream(file);
    // a device or a pipe has no size to check first (/dev/zero never ends)
    return await readAtMost(addAbortSignal(stop.signal, stream), LIMITS.soulBytes);
  })()
    .catch(failed)
    .finally(() => (stream ? stream.destroy() : closeInput(file)));
  if (!mayNeverEnd(file)) return reading;
  const seconds = ctx.globals.timeout ?? ctx.timeoutMs() / 1000;
  return boundedRead(ctx, what, reading, () => stop.abort(), seconds);
}

/** The file opened is not the one checked: someone changed it in between. */
export function replacedWhileRead(what: string): UsageError {
  const why = 'it is not the file that was checked';
  return new UsageError(`${what} was replaced while it was being read (${why}): run the command again`);
}

/** The soul text from `source`: a path (`confirm`: a checked one, see ConfirmOpened), or `-` for standard input. */
export async function readSoul(ctx: Context, source: string, flag: string, confirm?: ConfirmOpened): Promise<string> {
  if (source === '-')
    return checked(await readStdinBuffer(ctx, 'the soul', LIMITS.soulBytes), 'the soul on standard input');
  if (!source.trim()) throw new UsageError(`${flag} needs a file path, or - for standard input`);
  const what = `soul file '${source}'`;
  return checked(await readFileChecked(ctx, source, what, flag, confirm), what);
}
