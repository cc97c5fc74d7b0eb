// Reading piped standard input (messages, soul files, tokens) in full.
import type { Context } from '../../context.js';
import { UsageError } from '../../../core/errors.js';

export async function readStdinBuffer(ctx: Context, what: string): Promise<Buffer> {
  if (ctx.io.stdin.isTTY) throw new UsageError(`expected ${what} on standard input, but it is a terminal`, `pipe it in, e.g. 'cat file | superagent …'`);
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.io.stdin as AsyncIterable<Buffer | string>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
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
