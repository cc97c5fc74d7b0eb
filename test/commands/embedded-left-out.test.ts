// One agent record the embedded service cannot read (attack review of the left-out records): lists
// leave it out, so what needs every record (export, plan, apply, --all) fails before it writes, a
// launch cannot duplicate it, and a command that found its own agent succeeds with a warning. What
// is not a record of ours (JSON of another shape, a directory, a file it may not read) counts as
// unreadable too, never as a bug.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLine, type RunOptions } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';

const temp = perTest();

const embedded = (dataDir: string, argv: string | string[], o: RunOptions = {}) =>
  runLine(undefined, argv, { ...o, env: { SUPERAGENT_DATA_DIR: dataDir, ...o.env } });

/** Launches each name; the record file of each. */
async function launched(dataDir: string, ...names: string[]): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const name of names) {
    const r = await embedded(dataDir, `launch --name ${name} --json`);
    expect(r.code, r.stderr).toBe(0);
    const id = JSON.parse(r.stdout).agent_id as string;
    files[name] = path.join(
      dataDir,
      fs.readdirSync(dataDir, { recursive: true, encoding: 'utf8' }).find((f) => f.endsWith(`agent.${id}.json`))!,
    );
  }
  return files;
}

/** The agents' names as the service lists them, once the bad record is moved aside. */
async function namesAfterRepair(dataDir: string, record: string): Promise<string[]> {
  fs.renameSync(record, `${record}.bad`);
  const r = await embedded(dataDir, 'list --json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout).agents.map((a: { name: string }) => a.name);
}

const leftOutLine = (record: string) =>
  `the embedded service left out a record it cannot read: the record ${record} is not valid; move it aside to drop it`;

describe('an agent record the embedded service cannot read', () => {
  it('apply --yes launches nothing (the plan would have launched it again): exit 2 naming it', async () => {
    const dataDir = temp.scratch();
    const fleet = temp.scratch();
    const files = await launched(dataDir, 'alpha', 'beta');
    expect((await embedded(dataDir, ['export', '--dir', fleet, '--yes'])).code).toBe(0);
    fs.writeFileSync(files.beta!, 'x');
    for (const argv of [
      ['apply', '-f', path.join(fleet, 'superagents.yaml'), '--yes'],
      ['plan', '-f', path.join(fleet, 'superagents.yaml')],
    ]) {
      const r = await embedded(dataDir, argv);
      expect([r.code, r.stderr], argv.join(' ')).toEqual([2, `Error: ${leftOutLine(files.beta!)}\n`]);
    }
    // and export would write a file without it (a later apply --prune would destroy it)
    const again = await embedded(dataDir, ['export', '--dir', temp.scratch(), '--yes']);
    expect(again.code).toBe(2);
    // the bad record moved aside: no second beta was launched
    expect(await namesAfterRepair(dataDir, files.beta!)).toEqual(['alpha']);
  });

  it('launch of its name cannot make a second one: the service checks every record before it adds one', async () => {
    const dataDir = temp.scratch();
    const files = await launched(dataDir, 'beta');
    fs.writeFileSync(files.beta!, '{"v":1,"n":1,"record":{}}');
    const r = await embedded(dataDir, 'launch --name beta');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `Error: the embedded service cannot use its state: the record ` +
        `${files.beta!} is not valid; move it aside to drop it\n`,
    );
    expect(await namesAfterRepair(dataDir, files.beta!)).toEqual([]);
  });

  it(
    'a command that found its own agent succeeds, and ' + 'warns (also in a pipe) that the state needs fixing',
    async () => {
      const dataDir = temp.scratch();
      const files = await launched(dataDir, 'alpha', 'beta');
      fs.writeFileSync(files.beta!, 'not json');
      const r = await embedded(dataDir, 'chat alpha hello');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('alpha');
      expect(r.stderr).toContain(`! The ${leftOutLine(files.beta!).slice(4)}\n`);
    },
  );

  it.each([
    [
      'JSON of another shape (a record that is an empty object)',
      (f: string) => fs.writeFileSync(f, '{"v":1,"n":2,"record":{}}'),
    ],
    ['a list where the record should be', (f: string) => fs.writeFileSync(f, '{"v":1,"n":2,"record":[]}')],
    [
      'a name that is null',
      (f: string) =>
        fs.writeFileSync(
          f,
          JSON.stringify({
            ...JSON.parse(fs.readFileSync(f, 'utf8')),
            record: { ...JSON.parse(fs.readFileSync(f, 'utf8')).record, name: null },
          }),
        ),
    ],
    [
      'a time that is an object',
      (f: string) =>
        fs.writeFileSync(
          f,
          JSON.stringify({
            ...JSON.parse(fs.readFileSync(f, 'utf8')),
            record: { ...JSON.parse(fs.readFileSync(f, 'utf8')).record, created_at: {} },
          }),
        ),
    ],
  ])('%s is left out like bad JSON: list shows the rest, exit 2 naming it', async (_name, spoil) => {
    const dataDir = temp.scratch();
    const files = await launched(dataDir, 'alpha', 'beta');
    spoil(files.beta!);
    const r = await embedded(dataDir, 'list');
    expect(
      r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[1]),
    ).toEqual(['alpha']);
    expect([r.code, r.stderr]).toEqual([2, `Error: ${leftOutLine(files.beta!)}\n`]);
  });

  it('a directory in its place cannot be read: left out, exit 2 naming it, not "this is a bug"', async () => {
    const dataDir = temp.scratch();
    const files = await launched(dataDir, 'alpha', 'beta');
    fs.rmSync(files.beta!);
    fs.mkdirSync(files.beta!);
    const r = await embedded(dataDir, 'list');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `Error: the embedded service left out a record it cannot read: the record ` +
        `${files.beta!} cannot be read (EISDIR); move it aside to drop it\n`,
    );
  });
});

describe('a `superagent server` that left a record out of a list says so (x-superagent-left-out)', () => {
  it(
    'the CLI pointed at it fails where every record counts ' + '(list, pause --all: exit 7), and warns elsewhere',
    async () => {
      const dataDir = temp.scratch();
      const files = await launched(dataDir, 'alpha', 'beta');
      const KEY = fs.readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim();
      const server = await temp.serviceOn(dataDir, { keys: [KEY] });
      fs.writeFileSync(files.beta!, 'not json');
      const said =
        'Error: the service left out 1 record it cannot read (its log names them; the list shown lacks them)\n';
      const list = await runLine(server, 'list');
      expect(
        list.stdout
          .split('\n')
          .filter(Boolean)
          .map((l) => l.split('\t')[1]),
      ).toEqual(['alpha']);
      expect([list.code, list.stderr]).toEqual([7, said]);
      const pause = await runLine(server, 'pause --all --yes');
      expect(pause.code).toBe(7);
      expect(pause.stderr.endsWith(said)).toBe(true);
      // found by its name among those listed: done, with a warning
      const get = await runLine(server, 'get alpha --json');
      expect(get.code, get.stderr).toBe(0);
      expect(JSON.parse(get.stdout).name).toBe('alpha');
      expect(get.stderr).toBe('! The service left out 1 record it cannot read\n');
      expect(await namesAfterRepair(dataDir, files.beta!)).toEqual(['alpha']);
    },
  );
});
