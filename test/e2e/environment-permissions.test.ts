// A data dir the user may not write (another user's private directory): exit 2 naming it, "permission
// denied" in words. Root may write anywhere, so the built CLI runs as another user (nobody): only
// where the tests run as root; elsewhere skipped, saying so.
// Runs the built CLI (bin/superagent.js → dist/): `npm test` builds first; alone, `npm run build` first.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { perTest } from '../helpers/service-support.js';

const temp = perTest();
const NOBODY = 65534;
const asRoot = process.platform === 'linux' && process.getuid?.() === 0;
if (!asRoot) console.warn('environment-permissions.test: skipped: running the CLI as another user needs root');

/** The CLI as the user nobody, in a world it may read (HOME, config dir) but where `dataDir` is root's. */
function asNobody(args: string[], configDir: string) {
  return execa(process.execPath, [BIN, ...args], {
    uid: NOBODY,
    gid: NOBODY,
    env: { PATH: process.env.PATH, HOME: configDir, TERM: 'dumb', SUPERAGENT_CONFIG_DIR: configDir },
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    timeout: 15_000,
  });
}

describe.skipIf(!asRoot)(`a data dir another user owns${asRoot ? '' : ' (skipped: needs root)'}`, () => {
  it('`server --data-dir` exits 2: permission denied, the dir named', async () => {
    const root = temp.scratch('superagent-private-'); // 0700, root's
    const configDir = temp.scratch('superagent-config-');
    fs.chownSync(configDir, NOBODY, NOBODY);
    const dataDir = path.join(root, 'data');
    const r = await asNobody(['server', '--port', '0', '--data-dir', dataDir], configDir);
    expect([r.exitCode, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `Error: the service cannot keep its state in ${dataDir}: permission denied (use a data dir you can write: --data-dir or SUPERAGENT_DATA_DIR)\n`,
    ]);
  });
});
