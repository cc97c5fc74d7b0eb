// The embedded service's data dir when it cannot be used (docs/cli.md, Exit codes: 2 is the user's to
// fix): a file where the dir should be, an unreadable record, a legacy state.json that is not JSON.
// Each is one line naming the path and what to do, exit 2, no stack trace; the service's own log
// lines show only with --debug.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLine, type RunOptions } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent } from '../helpers/service.js';

const temp = perTest();

/** A command against the embedded service on `dataDir` (no base URL, no key configured). */
const embedded = (dataDir: string, argv: string, o: RunOptions = {}) =>
  runLine(undefined, argv, { ...o, env: { SUPERAGENT_DATA_DIR: dataDir, ...o.env } });

/** The one record file of the agent `name` launched on `dataDir`. */
async function launchedRecord(dataDir: string, name: string): Promise<string> {
  const launched = await embedded(dataDir, `launch --name ${name} --json`);
  expect(launched.code, launched.stderr).toBe(0);
  const id = JSON.parse(launched.stdout).agent_id as string;
  const found = fs.readdirSync(dataDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith(`${id}.json`));
  expect(found).toHaveLength(1);
  return path.join(dataDir, found[0]!);
}

const noStack = (stderr: string) => expect(stderr).not.toMatch(/\n\s+at /);

describe('a data dir the embedded service cannot use: exit 2, one line naming it', () => {
  it('a file where the data dir should be', async () => {
    const file = path.join(temp.scratch(), 'data');
    fs.writeFileSync(file, 'not a dir');
    const r = await embedded(file, 'list');
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe(
      `Error: the embedded service cannot keep its state in ${file}: it is not a directory (set ` +
        `SUPERAGENT_DATA_DIR to a directory you can write, or move what is there aside)\n`,
    );
  });

  it('a file where records/ should be: exit 2 naming records/, for the embedded service and for `server`', async () => {
    const dataDir = temp.scratch();
    const records = path.join(dataDir, 'records');
    fs.writeFileSync(records, 'not a dir');
    const r = await embedded(dataDir, 'list');
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `Error: the embedded service cannot keep its state in ${dataDir}: ` +
        `${records} is not a directory (move the file in the way aside)\n`,
    ]);
    const served = await runLine(undefined, ['server', '--data-dir', dataDir, '--port', '0']);
    expect([served.code, served.stdout, served.stderr]).toEqual([
      2,
      '',
      `Error: the service cannot keep its state in ${dataDir}: ${records} is ` +
        `not a directory (move the file in the way aside)\n`,
    ]);
    expect(fs.readFileSync(records, 'utf8')).toBe('not a dir');
  });

  it('a record that is not valid: the file named, exit 2, no stack; the other commands say the same', async () => {
    const dataDir = temp.scratch();
    const record = await launchedRecord(dataDir, 'broken');
    fs.writeFileSync(record, '{half a rec');
    const leftOut =
      `Error: the embedded service left out a record it cannot read: ` +
      `the record ${record} is not valid; move it aside to drop it\n`;
    const id = path.basename(record, '.json').replace(/^agent\./, '');
    for (const argv of ['list', 'get broken', 'chat broken hello']) {
      const r = await embedded(dataDir, argv);
      expect(r, argv).toMatchObject({ code: 2, stdout: '' });
      expect(r.stderr, argv).toBe(leftOut);
    }
    // asked for by its id, the record itself is what fails
    const byId = await embedded(dataDir, `get ${id}`);
    expect(byId).toMatchObject({ code: 2, stdout: '' });
    expect(byId.stderr).toBe(
      `Error: the embedded service cannot use its state: the record ${record} is not valid; move it aside to drop it\n`,
    );
    // moved aside as told: the service works again (without that agent)
    fs.renameSync(record, `${record}.bad`);
    const after = await embedded(dataDir, 'list --json');
    expect(after.code, after.stderr).toBe(0);
    expect(JSON.parse(after.stdout)).toEqual({ agents: [] });
  });

  it(
    'one unreadable record does not block the rest: list shows the ' +
      'others, pause --all pauses them, and both exit 2 naming it',
    async () => {
      const dataDir = temp.scratch();
      const record = await launchedRecord(dataDir, 'broken');
      await launchedRecord(dataDir, 'alpha');
      await launchedRecord(dataDir, 'beta');
      fs.writeFileSync(record, 'not json');
      const leftOut =
        `Error: the embedded service left out a record it cannot read: ` +
        `the record ${record} is not valid; move it aside to drop it\n`;
      const list = await embedded(dataDir, 'list');
      expect(
        list.stdout
          .split('\n')
          .filter(Boolean)
          .map((l) => l.split('\t')[1]),
      ).toEqual(['beta', 'alpha']);
      expect([list.code, list.stderr]).toEqual([2, leftOut]);
      const pause = await embedded(dataDir, 'pause --all --yes');
      expect(pause.code).toBe(2);
      expect(pause.stderr.endsWith(leftOut)).toBe(true);
      fs.renameSync(record, `${record}.bad`);
      const after = await embedded(dataDir, 'list --json');
      expect(after.code, after.stderr).toBe(0);
      expect(JSON.parse(after.stdout).agents.map((a: { name: string; status: string }) => [a.name, a.status])).toEqual([
        ['beta', 'paused'],
        ['alpha', 'paused'],
      ]);
    },
  );

  it('--debug shows the service’s own line; without it the service says nothing of its own', async () => {
    const dataDir = temp.scratch();
    const record = await launchedRecord(dataDir, 'broken');
    fs.writeFileSync(record, '');
    const quiet = await embedded(dataDir, 'list');
    expect(quiet.stderr).not.toContain('service: ');
    const debug = await embedded(dataDir, 'list --debug');
    expect(debug.code).toBe(2);
    expect(debug.stderr).toContain(`service: left out: The record ${record} is not valid; move it aside to drop it\n`);
    noStack(debug.stderr);
  });

  it('a legacy state.json that is not JSON: exit 2 naming it', async () => {
    const dataDir = temp.scratch();
    fs.writeFileSync(path.join(dataDir, 'state.json'), '{"accounts": [');
    const r = await embedded(dataDir, 'list');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `Error: the embedded service cannot use its state: the data file ` +
        `${path.join(dataDir, 'state.json')} is not valid JSON; move it aside to start afresh\n`,
    );
  });

  it('`server` on a legacy state.json that is not JSON: exit 2 naming it, not a bug', async () => {
    const dataDir = temp.scratch();
    fs.writeFileSync(path.join(dataDir, 'state.json'), '{"accounts": [');
    const r = await runLine(undefined, ['server', '--data-dir', dataDir, '--port', '0']);
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `Error: the service cannot use its state: the data file ${path.join(dataDir, 'state.json')} ` +
        `is not valid JSON; move it aside to start afresh\n`,
    ]);
  });
});

describe('an sa_sk_ key with no base URL: the embedded service takes only a key it has an account for', () => {
  const MADE_UP = 'sa_sk_' + 'Mm'.repeat(16);
  const accountsOf = (dataDir: string) => fs.readdirSync(path.join(dataDir, 'records', 'accounts'));

  it(
    'a key it never saw (mistyped, or another service’s): ' + 'exit 3 before anything is written, the key masked',
    async () => {
      const dataDir = temp.scratch();
      expect((await embedded(dataDir, 'launch --name mine')).code).toBe(0);
      const before = accountsOf(dataDir);
      const own = fs.readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim();
      const r = await embedded(dataDir, 'launch --name ghost', {
        env: { SUPERAGENT_API_KEY: MADE_UP, HOME: path.dirname(dataDir) },
      });
      expect(r).toMatchObject({ code: 3, stdout: '' });
      expect(r.stderr).toBe(
        `Error: the embedded service in ~/${path.basename(dataDir)} does not know the key ` +
          `sa_sk_…MmMm from SUPERAGENT_API_KEY (its own is sa_sk_…${own.slice(-4)}) ` +
          "(unset SUPERAGENT_API_KEY to use the embedded service's own key, " +
          'or set SUPERAGENT_BASE_URL to the service that issued it)\n',
      );
      expect(accountsOf(dataDir)).toEqual(before);
    },
  );

  it('a key a `superagent server` on the same data dir gave an account: its agents', async () => {
    const dataDir = temp.scratch();
    const KEY = 'sa_sk_' + 'Kk'.repeat(16);
    const server = await temp.serviceOn(dataDir, { keys: [KEY] });
    await launchAgent(server, { name: 'served' });
    await server.close();
    const r = await embedded(dataDir, 'list --json', { env: { SUPERAGENT_API_KEY: KEY } });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).agents.map((a: { name: string }) => a.name)).toEqual(['served']);
  });
});
