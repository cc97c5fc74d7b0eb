import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // every file's embedded-service exchanges must conform to the hosted OpenAPI document
    setupFiles: ['test/conformance/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // the machines have two cores, but e2e and service files mostly wait on processes and sockets
    maxWorkers: 3,
    minWorkers: 1,
  },
});
