// A FIFO that tells whether anything opened it for reading. Opening a FIFO waits for a writer, and
// a synchronous open blocks the whole test process (no timeout can fire), so a watcher process
// stands in as the writer at once: a reader is let go (it reads end of file) and the watcher notes
// that one came. The test then asserts on the note, not on time.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { onTestFinished } from 'vitest';

// opening for writing without blocking succeeds only while a reader has the FIFO open; the watcher
// ends when the FIFO is removed, or when the test ends
const WATCHER = `
const fs = require('node:fs');
const [fifo, note] = process.argv.slice(1);
const tick = () => {
  try {
    fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
    fs.writeFileSync(note, 'opened');
  } catch (err) {
    if (err.code !== 'ENXIO') process.exit(0);
  }
  setTimeout(tick, 10);
};
tick();
`;

/**
 * Makes a FIFO at `file`, watched until the test ends. `opened()`: something opened it to read.
 * `noteDir` holds the watcher's note (keep it out of any directory the test lists).
 */
export function watchedFifo(file: string, noteDir: string): { opened(): boolean } {
  execFileSync('mkfifo', [file]);
  const note = path.join(noteDir, `${path.basename(file)}.opened`);
  const watcher = spawn(process.execPath, ['-e', WATCHER, file, note], { stdio: 'ignore' });
  onTestFinished(async () => {
    if (watcher.exitCode !== null || watcher.signalCode !== null) return;
    const gone = once(watcher, 'exit');
    watcher.kill();
    await gone;
  });
  return { opened: () => fs.existsSync(note) };
}

/**
 * Whether something has `fifo` open to read (or waits in its open): opening it to write without
 * waiting succeeds only then. Closing that writer at once lets such a reader go (it reads end of
 * file), so a test that found one leaves no open blocked behind it.
 */
export function hasReader(fifo: string): boolean {
  try {
    fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENXIO') return false;
    throw err;
  }
}

/**
 * A FIFO at `file` that nobody writes to. A reader still on it when the test ends is let go before
 * `resources` (the file's perTest()) removes the temp dirs: a blocked open of a FIFO removed stays blocked.
 */
export function unwrittenFifo(file: string, resources: { closeAfter(c: { close(): Promise<void> }): void }): string {
  execFileSync('mkfifo', [file]);
  resources.closeAfter({ close: async () => void (fs.existsSync(file) && hasReader(file)) });
  return file;
}
