// A question on a terminal that hangs up: its input ends, perhaps before SIGHUP is delivered, and the
// prompt library waits on. With nothing else left to wait for, the process exited in the middle of the
// question (exit 0; then Node's abort resetting the gone terminal). In the raw mode of a question
// Ctrl-D is a key, so the end of a terminal's input is its hang-up: the question ends as on SIGHUP,
// TerminatedError('SIGHUP'), and the command keeps what it must and exits 129.
import { PassThrough } from 'node:stream';
import { expect, it } from 'vitest';
import { TerminatedError } from '../../src/core/errors.js';
import { terminalPrompter } from '../../src/ui/prompt.js';

/** A terminal's streams (fakes; stdin with the fd of a terminal device, never used). */
function terminal() {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, fd: 99, setRawMode: () => undefined });
  const stderr = Object.assign(new PassThrough(), { isTTY: true, columns: 80, rows: 24 });
  stderr.resume();
  return { stdin, stderr };
}

/** Resolves once the question is on the terminal: the prompt then holds stdin (a loaded machine takes its time). */
function drawn(stderr: PassThrough, question: string): Promise<void> {
  let shown = '';
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      shown += chunk.toString();
      if (shown.includes(question)) resolve(void stderr.off('data', onData));
    };
    stderr.on('data', onData);
  });
}

/** A generous bound (under the test's own timeout) that says a question was left open, not a timeout. */
const LEFT_OPEN_MS = 20_000;

it("the terminal's input ends during a question: TerminatedError(SIGHUP), not a question left open", async () => {
  const io = terminal();
  const question = 'Upload this soul.md to demo?';
  const asked = terminalPrompter(io).confirm(question, true);
  await drawn(io.stderr, question);
  io.stdin.end();
  let bound: NodeJS.Timeout | undefined;
  const stillOpen = new Promise((r) => (bound = setTimeout(() => r('still open'), LEFT_OPEN_MS)));
  const settled = await Promise.race([asked.then(String, (err: unknown) => err), stillOpen]).finally(() =>
    clearTimeout(bound),
  );
  expect(settled).toBeInstanceOf(TerminatedError);
  expect((settled as TerminatedError).signal).toBe('SIGHUP');
});

it('an answer on a terminal still there is an answer', async () => {
  const io = terminal();
  const question = 'Upload this soul.md to demo?';
  const asked = terminalPrompter(io).confirm(question, true);
  await drawn(io.stderr, question);
  io.stdin.write('n\r');
  expect(await asked).toBe(false);
});
