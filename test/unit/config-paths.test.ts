// Where the config and data live: never under whatever directory the command was run in, which a
// relative XDG_* variable would make of them (an empty HOME: test/e2e/config-paths.test.ts, as the
// platform's home is read once, when the process starts).
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configDir, dataDir } from '../../src/config/paths.js';

afterEach(() => vi.unstubAllEnvs());

describe.skipIf(process.platform !== 'linux')('config and data dirs', () => {
  it('a relative XDG_DATA_HOME is refused too, naming it', () => {
    vi.stubEnv('HOME', '/home/someone');
    vi.stubEnv('XDG_DATA_HOME', 'relative/data');
    expect(() => dataDir({})).toThrow(/XDG_DATA_HOME/);
  });

  it("a relative SUPERAGENT_DATA_DIR, the user's own choice, is made absolute once", () => {
    expect(dataDir({ SUPERAGENT_DATA_DIR: 'state' })).toBe(path.resolve('state'));
    expect(configDir({ SUPERAGENT_CONFIG_DIR: '/etc/sa' })).toBe('/etc/sa');
  });
});
