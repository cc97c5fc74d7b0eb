// A hint that tells the user to run a command (again) repeats what this run was given that matters:
// export's --dir, apply's -f FILE, --prune and --yes, and the flags that choose the service
// (--base-url, --profile), never a key. Saying no to export's overwrite is like saying no to apply:
// nothing written, exit 0.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeClock, cliFor } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent } from '../helpers/service.js';

const t = perTest();

/** A service with one agent, exported into a dir whose soul file is then edited by hand. */
async function editedExport() {
  const svc = await t.service();
  await launchAgent(svc, { name: 'alpha' });
  const dir = path.join(t.scratch('superagent-hints-'), 'f3');
  const cli = cliFor(() => svc);
  expect((await cli(['export', '--dir', dir])).code).toBe(0);
  const soul = path.join(dir, 'souls', 'alpha.md');
  fs.writeFileSync(soul, 'edited by hand\n');
  return { svc, dir, soul, cli };
}

describe('export over local changes', () => {
  it(
    'piped: the --yes hint keeps --dir (and --base-url), ' + 'so running it writes where the first run meant to',
    async () => {
      const { svc, dir, soul, cli } = await editedExport();
      const r = await cli(['--base-url', svc.url, 'export', '--dir', dir]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `Error: --yes required to overwrite ${soul} when not running interactively ` +
          `(superagent --base-url ${svc.url} export --dir ${dir} --yes (or --dir a new directory))\n`,
      );
      expect(fs.readFileSync(soul, 'utf8')).toBe('edited by hand\n');
    },
  );

  it('on a terminal, no is nothing exported and exit 0, as no to apply is nothing applied', async () => {
    const { dir, soul, cli } = await editedExport();
    const r = await cli(['export', '--dir', dir], { tty: true, answers: [false] });
    expect(r.asked).toEqual([`Overwrite ${soul}?`]);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '', `Nothing exported: ${soul} left as it is.\n`]);
    expect(fs.readFileSync(soul, 'utf8')).toBe('edited by hand\n');
  });
});

describe('apply stopped by a failure', () => {
  it('the hint to run it again repeats -f FILE, --prune, --yes and --base-url', async () => {
    // every soul upload fails (503 then 500)
    const svc = await t.service({
      faults: { errorRate: 1, onlyFor: (r) => r.method === 'PUT' && r.path.endsWith('/soul') },
    });
    await launchAgent(svc, { name: 'alpha' });
    const dir = t.scratch('superagent-hints-apply-');
    fs.mkdirSync(path.join(dir, 'souls'));
    fs.writeFileSync(path.join(dir, 'souls', 'alpha.md'), '# alpha\nNew rules.\n');
    const file = path.join(dir, 'prod fleet.yaml');
    fs.writeFileSync(file, 'agents:\n  - name: alpha\n    soul: souls/alpha.md\n');
    const r = await cliFor(() => svc, { clock: new FakeClock() })([
      '--base-url',
      svc.url,
      'apply',
      '-f',
      file,
      '--prune',
      '--yes',
    ]);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(
      new RegExp(
        String.raw`Error: apply stopped at step 1 of 1 \(soul of alpha\): ` +
          String.raw`.*\(run apply again, which plans from what the service has now`,
      ),
    );
    expect(r.stderr).toContain(`: superagent --base-url ${svc.url} apply -f '${file}' --prune --yes)\n`);
  });
});
