// vitest setup file: what a test file leaves behind. Its temp dirs are removed when it ends, and a
// test that leaves fake timers on fails: a worker runs the next files in the same process
// (isolate: false), where a faked setImmediate would stop the store's per-turn freshness check.
import { afterAll, beforeEach, onTestFinished, vi } from 'vitest';
import { removeFileDirs } from '../helpers/after-file.js';

// checked once the test's own clean-ups have run (afterEach, beforeEach's returned function, onTestFinished)
beforeEach(() =>
  onTestFinished(() => {
    if (!vi.isFakeTimers()) return;
    vi.useRealTimers();
    throw new Error('this test left fake timers on: restore them in afterEach or onTestFinished');
  }),
);

afterAll(removeFileDirs);
