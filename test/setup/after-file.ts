// vitest setup file: what a test file leaves behind. Its temp dirs are removed when it ends, and a
// test that leaves fake timers on fails: a worker runs the next files in the same process
// (isolate: false), where a faked setImmediate would stop the store's per-turn freshness check.
import { afterAll, afterEach, vi } from 'vitest';
import { removeFileDirs } from '../helpers/after-file.js';

afterEach(() => {
  if (!vi.isFakeTimers()) return;
  vi.useRealTimers();
  throw new Error('this test left fake timers on: end it with vi.useRealTimers()');
});

afterAll(removeFileDirs);
