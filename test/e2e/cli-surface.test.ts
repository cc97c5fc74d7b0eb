// What only a whole process shows of the surface every command shares: the answers bin/superagent.js
// gives from the baked texts (--version, the overview), the embedded default shared by several
// processes at once, and a closed pipe. Exit codes and output conventions: test/commands/exit-codes.test.ts.
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli as runCliIn, type RunOptions } from '../helpers/cli.js';
import { launchAgent, startTestService, type TestService } from '../helpers/service.js';
import { perTest, stopService } from '../helpers/service-support.js';
import { parse } from '../helpers/program.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await stopService(service);
});

const scratch = perTest();
/** Config and data dirs of the test's own, removed after it. */
const dirs = () => ({ configDir: scratch.scratch('superagent-config-'), dataDir: scratch.scratch('superagent-data-') });
const runCli = (args: string[], opts: RunOptions = {}) => runCliIn(args, { ...dirs(), ...opts });

describe('the baked answers', () => {
  it('--version, -v and -V print the version from package.json', async () => {
    const { version } = (await import('../../package.json', { with: { type: 'json' } })).default as { version: string };
    for (const flag of ['--version', '-v', '-V']) {
      const r = await runCli([flag]);
      expect([r.exitCode, r.stdout, r.stderr]).toEqual([0, `superagent ${version}\n`, '']);
    }
  });

  it('--help, -h, help and no arguments print the overview commander writes from the registry', async () => {
    const { stdout: overview } = await parse([]);
    for (const args of [['--help'], ['-h'], ['help'], []]) {
      const r = await runCli(args);
      expect([r.exitCode, r.stdout]).toEqual([0, overview]);
    }
  });
});

describe('with nothing configured: the embedded local service', () => {
  it('launches and lists in the data dir, and several processes at once lose nothing', async () => {
    const { dataDir, configDir } = dirs();
    const names = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
    const runs = await Promise.all(names.map((n) => runCli(['launch', '--name', n], { dataDir, configDir })));
    for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
    const list = await runCli(['list', '--json'], { dataDir, configDir });
    expect(list.exitCode).toBe(0);
    const { agents } = JSON.parse(list.stdout) as { agents: Array<{ name: string }> };
    expect(agents.map((a) => a.name).sort()).toEqual([...names].sort());
  });
});

describe('pipes', () => {
  it('a closed pipe ends quietly (superagent list | head -c 1)', async () => {
    for (let i = 0; i < 3; i++) await launchAgent(service, { name: `piped-${i}` });
    const r = await execa('bash', ['-o', 'pipefail', '-c', `"${process.execPath}" "${BIN}" list | head -c 1`], {
      env: cleanEnv({ target: service, ...dirs() }),
      extendEnv: false,
      reject: false,
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toHaveLength(1);
  });
});
