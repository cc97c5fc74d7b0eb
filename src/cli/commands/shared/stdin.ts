// Reading piped standard input (messages, soul files, tokens) in full, and bounding a read of input
// that may never end.
import type { Readable } from 'node:stream';
import type { Context } from '../../context.js';
import { UsageError } from '../../../core/errors.js';
import { boundedWait } from './bounded-wait.js';

export async function readStdinBuffer(ctx: Context, what: string, maxBytes = Infinity): Promise<Buffer> {
  const stdin = ctx.io.stdin;
  if (stdin.isTTY) {
    throw new UsageError(
      `expected ${what} on standard input, but it is a terminal`,
      `pipe it in, e.g. 'cat file | superagent …'`,
    );
  }
  const reading = readAtMost(stdin as AsyncIterable<Buffer | string>, maxBytes);
  return boundedRead(ctx, `${what} on standard input`, reading, () => (stdin as Partial<Readable>).destroy?.());
}

/**
 * A read of input whose writer may never close it (a FIFO held open, `sleep 1000 |`, `<(cmd)`): said
 * on stderr once it takes more than a moment (in a pipe too: nothing else would show why the command
 * waits), and, with --timeout, given up after that long: the input is what is wrong, so exit 2
 * before anything is sent, and `release` lets go of it. Without --timeout the wait on standard input
 * is unbounded: a slow writer (`generate-report | superagent chat demo`) may rightly take minutes.
 * `seconds`: the bound, when the caller has another.
 */
export async function boundedRead<T>(
  ctx: Context,
  what: string,
  reading: Promise<T>,
  release: () => void,
  seconds = ctx.globals.timeout,
): Promise<T> {
  const bound = seconds === undefined ? '--timeout SECONDS bounds this wait' : `giving up after ${seconds} s`;
  return boundedWait(ctx, reading, {
    ms: seconds === undefined ? undefined : seconds * 1000,
    say: () => ctx.printer.warn(`Waiting for ${what} to end: is something still writing to it? (${bound})`),
    giveUp: () => {
      release();
      const hint = 'close it when done writing, or allow longer with --timeout';
      return new UsageError(`${what} did not end within ${seconds} s`, hint);
    },
  });
}

/**
 * A stream's bytes, but no more than `maxBytes` + 1 of them: one byte past the limit says it is over,
 * and an endless source (`cat /dev/zero |`) is never read whole.
 */
export async function readAtMost(source: AsyncIterable<Buffer | string>, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    chunks.push(buf);
    size += buf.length;
    if (size > maxBytes) break; // leaving the loop closes the stream
  }
  const all = Buffer.concat(chunks);
  return size > maxBytes ? all.subarray(0, maxBytes + 1) : all;
}

/** The most a secret (an API key, a bot token) on standard input may be: far more than any is, all that is read. */
const SECRET_BYTES = 4096;

/** A secret on standard input as UTF-8 text, read no further than SECRET_BYTES: more is refused (exit 2, `hint`). */
export async function readSecretStdin(ctx: Context, what: string, hint: string): Promise<string> {
  const buf = await readStdinBuffer(ctx, what, SECRET_BYTES);
  const over = `${what} on standard input is over ${SECRET_BYTES / 1024} KiB`;
  if (buf.length > SECRET_BYTES) throw new UsageError(over, hint);
  return decodeUtf8(buf, what);
}

/** Strict UTF-8 decoding: a file that is not UTF-8 is refused rather than uploaded mangled. */
export function decodeUtf8(buf: Buffer, what: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    throw new UsageError(`${what} is not valid UTF-8 text`, 'convert it to UTF-8 first');
  }
}
