// A question on a terminal that hangs up: its input ends, perhaps before SIGHUP is delivered, and the
// prompt library waits on. With nothing else left to wait for, the process exited in the middle of the
// question (exit 0; then Node's abort resetting the gone terminal). The question ends as hung up
// instead: TerminatedError('SIGHUP'), so the command keeps what it must and exits 129. A terminal that
// hung up is still open but no longer a terminal: here, a stdin marked as a TTY on a regular file's fd.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { TerminatedError } from '../../src/core/errors.js';
import { terminalPrompter } from '../../src/ui/prompt.js';

let dir: string;
let fd: number;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-prompt-'));
  fd = fs.openSync(path.join(dir, 'not-a-terminal'), 'w');
});
afterEach(() => {
  fs.closeSync(fd);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A terminal's streams; stdin's fd is `fd` (a terminal gone when it is not one). */
function terminal(stdinFd?: number) {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, isRaw: false, fd: stdinFd, setRawMode: () => undefined });
  const stderr = Object.assign(new PassThrough(), { isTTY: true, columns: 80, rows: 24 });
  stderr.resume();
  return { stdin, stderr };
}

it('the input of a question ends with the terminal gone: TerminatedError(SIGHUP), not a question left open', async () => {
  const io = terminal(fd);
  const asked = terminalPrompter(io).confirm('Upload this soul.md to demo?', true);
  await new Promise((r) => setTimeout(r, 20));
  io.stdin.end();
  const settled = await Promise.race([asked.then(String, (err: unknown) => err), new Promise((r) => setTimeout(() => r('still open'), 2000))]);
  expect(settled).toBeInstanceOf(TerminatedError);
  expect((settled as TerminatedError).signal).toBe('SIGHUP');
});

it('an answer on a terminal still there is an answer', async () => {
  const io = terminal(undefined);
  const asked = terminalPrompter(io).confirm('Upload this soul.md to demo?', true);
  await new Promise((r) => setTimeout(r, 20));
  io.stdin.write('n\r');
  expect(await asked).toBe(false);
});
