// Under a pseudo-terminal nobody gave a size (0 columns, as `script` makes one),
// the spinner used to redraw forever (16 MB in 15 s, Ctrl-C ignored): ora divides by the width.
// Only a real pty shows it, so this runs the built binary under `script`.
import { spawnSync } from 'node:child_process';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { perTest } from '../helpers/service-support.js';

const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
const scratch = perTest();

describe.skipIf(!hasScript)('a terminal of 0 columns', () => {
  it.each([
    ['assistant ask --no-stream (the spinner waits for the whole answer)', `assistant ask 'btc?' --no-stream`],
    ['launch (status lines, a table of fields)', 'launch --name zero --model gpt-4o'],
  ])('%s: ends, and writes a reply-sized output', async (_what, line) => {
    const env = cleanEnv({ dataDir: scratch.scratch(), configDir: scratch.scratch() });
    const r = await execa('script', ['-qec', `"${process.execPath}" "${BIN}" ${line}`, '/dev/null'], {
      env: { ...env, TERM: 'xterm' },
      extendEnv: false,
      reject: false,
      timeout: 20_000,
      stripFinalNewline: false,
    });
    expect(r.timedOut).toBe(false);
    expect(r.exitCode, r.stdout).toBe(0);
    expect(String(r.stdout).length).toBeLessThan(20_000);
    // the pty really had no width (else this test proves nothing)
    const cols = await execa('script', ['-qec', 'stty size', '/dev/null'], { reject: false });
    expect(String(cols.stdout).trim().split(/\s+/)[1]).toBe('0');
  });
});
