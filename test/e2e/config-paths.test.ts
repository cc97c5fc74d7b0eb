// An empty HOME, as the process starts with it: refused in one line, nothing written under the
// directory the command was run in.
import fs from 'node:fs';
import { expect, it } from 'vitest';
import { ownTempDir, runCli } from '../helpers/cli.js';

it.skipIf(process.platform !== 'linux')(
  'an empty HOME is refused naming it, nothing written where it ran',
  async () => {
    const cwd = ownTempDir('superagent-cwd-');
    const env = {
      HOME: '',
      SUPERAGENT_CONFIG_DIR: undefined,
      SUPERAGENT_DATA_DIR: undefined,
      XDG_CONFIG_HOME: undefined,
    };
    const r = await runCli(['config', 'path'], { env, cwd });
    expect([r.exitCode, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(
      /HOME is empty: there is no place for superagent's config.*set HOME, or SUPERAGENT_CONFIG_DIR/,
    );
    expect(fs.readdirSync(cwd)).toEqual([]);
  },
);
