// vitest setup file: after each test file, every exchange its services recorded must conform to
// hosted-openapi.json (openapi.ts); otherwise the file fails, naming each problem.
import { afterAll } from 'vitest';
import { conformanceProblems, resetConformance } from '../conformance/collect.js';

// a setup file runs again before each test file is loaded: whatever the file before it left (its own
// afterAll threw, so this one never ran) counts for nothing here, and what this file records as it
// loads still counts
resetConformance();

afterAll(async () => {
  await new Promise((resolve) => setImmediate(resolve)); // the tap reports on 'close': let the last ones land
  const problems = await conformanceProblems();
  if (problems.length > 0) {
    throw new Error(`answers or CLI requests that do not conform to hosted-openapi.json:\n  ${problems.join('\n  ')}`);
  }
});
