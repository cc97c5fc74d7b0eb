// Temp dirs removed once the test file that made them is done (by test/setup/after-file.ts, a setup
// file, run for every file). The hook is not registered here: a worker loads helper modules once
// (vitest.config.ts: isolate false), so a hook registered at the top of a helper runs after the
// worker's first file only.
import fs from 'node:fs';

const made: string[] = [];

/** `dir`, to be removed when this test file ends. */
export function removeAfterFile(dir: string): string {
  made.push(dir);
  return dir;
}

/** Removes the dirs the file's helpers made (the setup file's afterAll). */
export function removeFileDirs(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}
