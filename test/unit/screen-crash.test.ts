// A crash while the full screen is on, in a real Node process: the terminal is given back before the
// crash report prints (so it prints on the normal screen), and Node still reports it and exits 1,
// for a thrown error and for an unhandled rejection alike (the screen must not swallow either). Node 20
// emits 'exit' before it prints the report, so the exit hook alone would pass this; the crash hook
// (uncaughtExceptionMonitor, checked in screen-terminal.test.ts) also covers a process that goes on.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENTER, LEAVE } from '../../src/ui/screen/screen.js';
import { removeAfterFile } from '../helpers/after-file.js';

const SCREEN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/ui/screen/screen.ts');

/** stdout is a pipe here: the screen writes to it all the same, and the test reads what it wrote */
const SCRIPT = `
import { EventEmitter } from 'node:events';
import { Screen } from './screen.mjs';
const setRawMode = (f) => process.stderr.write('raw ' + f + '\\n');
const stdin = Object.assign(new EventEmitter(), { isTTY: true, setRawMode });
const signals = { onInterrupt: () => () => {}, onTerminate: () => () => {}, onHangup: () => () => {} };
const screen = new Screen({ stdout: process.stdout, stdin, signals, onKey() {}, onResize() {}, onStop() {} });
screen.enter();
screen.draw(['the view']);
setTimeout(() => {}, 5000); // the process would stay: only the crash ends it
if (process.argv[2] === 'throw') setImmediate(() => { throw new Error('boom thrown'); });
else Promise.reject(new Error('boom rejected'));
`;

let dir: string;
beforeAll(() => {
  dir = removeAfterFile(fs.mkdtempSync(path.join(os.tmpdir(), 'screen-crash-')));
  buildSync({ entryPoints: [SCREEN], bundle: true, format: 'esm', platform: 'node', outfile: `${dir}/screen.mjs` });
  fs.writeFileSync(`${dir}/crash.mjs`, SCRIPT);
});

describe('a crash under the full screen', () => {
  it.each(['throw', 'reject'])('(%s) gives the terminal back, then Node reports the crash and exits 1', (how) => {
    const child = spawnSync(process.execPath, [`${dir}/crash.mjs`, how], { encoding: 'utf8', timeout: 20_000 });
    expect(child.status).toBe(1);
    expect(child.stdout.startsWith(ENTER)).toBe(true);
    expect(child.stdout.endsWith(LEAVE)).toBe(true);
    expect(child.stdout.split(LEAVE)).toHaveLength(2); // once, the exit after the crash adding nothing
    expect(child.stderr).toMatch(/^raw true\nraw false\n[\s\S]*boom/);
  });
});
