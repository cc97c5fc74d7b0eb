// The CLI bundle starts from the code cache the build saved beside it (bin/load-bundle.js): compiling
// the bundle was the largest cost of ours in every command's start-up, and the build runs the common
// commands once so that their functions are in the cache too. A cache this Node refuses would be
// ignored without a word, and every command would quietly start slower.
import { execaNode } from 'execa';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const LOADER = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../bin/load-bundle.js');

describe('the code cache of the built bundle', () => {
  it('is accepted by this Node', async () => {
    const { stdout } = await execaNode('-e', [
      `process.stdout.write(String(require(${JSON.stringify(LOADER)}).loadBundle().cacheRejected))`,
    ]);
    expect(stdout).toBe('false');
  });
});
