// The entry: `--version` is answered here, loading nothing else; every other line (the overview
// too) is handed to run.ts and commander. bin/superagent.js answers both from texts the build baked.
// The build puts this file, run.ts and every command in one bundle (scripts/build.mjs): a dynamic
// import of ours defers running a module, not loading a file.
import type { Writable } from 'node:stream';
import type { IO } from './context.js';

// process.stdin is a getter that opens the stream (≈4 ms); most commands never read it
const processIO = (): IO => ({
  stdout: process.stdout,
  stderr: process.stderr,
  get stdin() {
    return process.stdin;
  },
});

export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: IO = processIO(),
): Promise<number> {
  let outputFailure: NodeJS.ErrnoException | undefined;
  if (io.stdout === process.stdout) {
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      // Writing into a closed pipe (`superagent list | head -1`) ends quietly.
      if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      // anything else (`list > file` on a full disk): the data never arrived, so the command did not succeed
      outputFailure ??= err;
    });
  }
  // a failure to write stderr (a full disk, a reader gone) could only be told on stderr itself: the
  // command goes on, and its exit code still says how it ended
  if (io.stderr === process.stderr) process.stderr.on('error', ignoreFailure);
  const code = await answer(argv, env, io);
  if (io.stdout !== process.stdout) return code;
  await new Promise((resolve) => setImmediate(resolve)); // a failed write is told after it, on the stream
  return outputFailure && code === 0 ? reportOutputFailure(outputFailure, argv, io) : code;
}

function ignoreFailure(): void {}

/**
 * Resolves once `streams` have written what they hold, so that exiting loses none of it; a stream
 * that failed (or fails meanwhile) will write no more and is not waited for: it would never drain.
 */
export async function flushed(streams: readonly NodeJS.WritableStream[]): Promise<void> {
  const pending = (s: Writable) => s.writableLength > 0 && !s.destroyed && !s.errored;
  await Promise.all(
    (streams as Writable[]).filter(pending).map(
      (s) =>
        new Promise<void>((resolve) => {
          for (const event of ['drain', 'error', 'close']) s.once(event, () => resolve());
        }),
    ),
  );
}

async function answer(argv: string[], env: NodeJS.ProcessEnv, io: IO): Promise<number> {
  const first = argv[0];
  if (argv.length === 1 && (first === '--version' || first === '-V' || first === '-v')) {
    const { version } = await import('../core/version.js');
    io.stdout.write(`superagent ${version()}\n`);
    return 0;
  }
  const { run } = await import('./run.js');
  return run(argv, env, io);
}

/** A write to stdout the machine refused (a full disk): exit 2 naming it (bin/superagent.js's baked answers too). */
export async function reportOutputFailure(
  err: NodeJS.ErrnoException,
  argv: string[],
  io: Pick<IO, 'stderr'>,
): Promise<number> {
  const { reportError } = await import('./exit-codes.js');
  const { asEnvironmentError } = await import('../core/errors.js');
  const failure = asEnvironmentError(err, { path: 'standard output', action: 'cannot write' }) ?? err;
  return reportError(failure, io.stderr, { json: argv.includes('--json'), debug: argv.includes('--debug') });
}
