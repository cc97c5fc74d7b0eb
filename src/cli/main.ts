// The entry: `--version` and `--help` are answered here, loading nothing else; every command is
// handed to app.ts, which the build keeps in a file of its own (bench/startup.js).
import type { IO } from './context.js';
import { overview } from './help.js';

// process.stdin is a getter that opens the stream (≈4 ms); most commands never read it
const processIO = (): IO => ({
  stdout: process.stdout,
  stderr: process.stderr,
  get stdin() {
    return process.stdin;
  },
});

export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env, io: IO = processIO()): Promise<number> {
  // Writing into a closed pipe (`superagent list | head -1`) ends quietly.
  if (io.stdout === process.stdout) {
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    });
  }
  const first = argv[0];
  if (argv.length === 0 || first === '--help' || first === '-h' || (first === 'help' && argv.length === 1)) {
    io.stdout.write(overview());
    return 0;
  }
  if (first === '--version' || first === '-V') {
    const { version } = await import('./version.js');
    io.stdout.write(`superagent ${version()}\n`);
    return 0;
  }
  const { run } = await import('./app.js');
  return run(argv, env, io);
}
