// A file the user names as input (a soul, a fleet file) may be a FIFO (`<(generate-soul)`, mkfifo)
// whose writer comes late or never. Opened the usual way, its open, then each read, waits in a
// thread of libuv's pool that nothing can cancel: a bounded read gave up, yet the process stayed
// alive. So it is opened without waiting (O_NONBLOCK), and a FIFO is read through a pipe handle,
// which waits for data on the event loop and ends when its stream is destroyed.
import fs, { type Stats } from 'node:fs';
import net from 'node:net';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';

const NO_WAIT = fs.constants.O_NONBLOCK ?? 0;

export interface OpenedInput {
  fd: number;
  /** what was opened, not what the path names now */
  stat: Stats;
}

/** `path` opened to read without waiting for a writer; `flags` added (O_NOFOLLOW). */
export async function openInput(path: string, flags = 0): Promise<OpenedInput> {
  // looked up at each call: a test may stand in for it
  const fd = await promisify(fs.open)(path, fs.constants.O_RDONLY | NO_WAIT | flags);
  try {
    return { fd, stat: await promisify(fs.fstat)(fd) };
  } catch (err) {
    closeInput({ fd });
    throw err;
  }
}

/**
 * The opened file's bytes as a stream, which owns its descriptor from then on: ending or destroying
 * it closes it. Anything but a FIFO is read as a file (a device such as /dev/zero reads at once).
 */
export function inputStream(input: OpenedInput): Readable {
  if (input.stat.isFIFO()) return new net.Socket({ fd: input.fd, readable: true, writable: false });
  return fs.createReadStream('', { fd: input.fd });
}

/** Closes a descriptor no stream was made of. */
export function closeInput(input: Pick<OpenedInput, 'fd'>): void {
  fs.close(input.fd, () => undefined);
}

/** Whether reading it may wait on a writer (a FIFO, a socket, a device) rather than end as a file does. */
export function mayNeverEnd(input: OpenedInput): boolean {
  return !input.stat.isFile();
}
