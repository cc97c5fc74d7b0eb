import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // every file's embedded-service exchanges must conform to the hosted OpenAPI document; the
    // temp dirs a file's helpers made go when it ends
    setupFiles: ['test/setup/conformance.ts', 'test/setup/after-file.ts', 'test/setup/loopback-only.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A worker keeps its modules from one file to the next: loading src and the test helpers again
    // for each of ~110 files was most of the suite's CPU. The tests share no state through modules
    // (checked with shuffled runs: npx vitest run --sequence.shuffle), and what a test may change in
    // the process is put back after each (test/setup/ does the rest):
    restoreMocks: true,
    unstubEnvs: true,
    unstubGlobals: true,
    isolate: false,
    // Two cores, but e2e and tmux files mostly wait on processes and terminals: more workers than
    // cores keep the cores busy. min = max, or vitest ends an idle worker while it is still wanted.
    maxWorkers: 6,
    minWorkers: 6,
  },
});
