// vitest setup file: after each test file, every exchange its services recorded must conform to
// hosted-openapi.json (openapi.ts); otherwise the file fails, naming each problem.
import { afterAll, beforeAll } from 'vitest';
import { conformanceProblems, resetConformance } from '../conformance/collect.js';

// a setup file's beforeAll runs before the file's own: whatever the file before it left, none of it counts here
beforeAll(resetConformance);

afterAll(async () => {
  await new Promise((resolve) => setImmediate(resolve)); // the tap reports on 'close': let the last ones land
  const problems = await conformanceProblems();
  if (problems.length > 0) {
    throw new Error(`answers or CLI requests that do not conform to hosted-openapi.json:\n  ${problems.join('\n  ')}`);
  }
});
