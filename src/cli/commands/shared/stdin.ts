// Reading piped standard input (messages, soul files, tokens) in full.
import type { Context } from '../../context.js';
import { UsageError } from '../../../core/errors.js';

export async function readStdinBuffer(ctx: Context, what: string, maxBytes = Infinity): Promise<Buffer> {
  if (ctx.io.stdin.isTTY) throw new UsageError(`expected ${what} on standard input, but it is a terminal`, `pipe it in, e.g. 'cat file | superagent …'`);
  return readAtMost(ctx.io.stdin as AsyncIterable<Buffer | string>, maxBytes);
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

/** Standard input as UTF-8 text (refused when it is not UTF-8). */
export async function readStdin(ctx: Context, what: string): Promise<string> {
  return decodeUtf8(await readStdinBuffer(ctx, what), what);
}

/** Strict UTF-8 decoding: a file that is not UTF-8 is refused rather than uploaded mangled. */
export function decodeUtf8(buf: Buffer, what: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    throw new UsageError(`${what} is not valid UTF-8 text`, 'convert it to UTF-8 first');
  }
}
