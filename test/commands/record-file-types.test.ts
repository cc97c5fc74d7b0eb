// A device where the data dir keeps an agent's record (here a symlink to /dev/null: reading a device
// may never end, as /dev/zero's does) is left out like any unreadable record and named, never read.
// A FIFO, which would block the reading process, is tried with real processes: test/e2e/record-file-types.test.ts.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEFT_OUT_HEADER } from '../../src/contract.js';
import { runLine } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';

const temp = perTest();

const embedded = (dataDir: string, argv: string) => runLine(undefined, argv, { env: { SUPERAGENT_DATA_DIR: dataDir } });

/** A data dir with one agent, alpha, launched; and the path another agent's record would have there. */
async function withAlpha(): Promise<{ dataDir: string; otherRecord: string }> {
  const dataDir = temp.scratch();
  const launched = await embedded(dataDir, 'launch --name alpha --json');
  expect(launched.code, launched.stderr).toBe(0);
  const id = JSON.parse(launched.stdout).agent_id as string;
  const under = fs.readdirSync(dataDir, { recursive: true, encoding: 'utf8' });
  const record = under.find((f) => f.endsWith(`agent.${id}.json`))!;
  return { dataDir, otherRecord: path.join(dataDir, path.dirname(record), `agent.${randomUUID()}.json`) };
}

const listedNames = (stdout: string) =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t')[1]);

describe('a device in place of an agent record', () => {
  it('list leaves it out and names it (exit 2); a `superagent server` counts it in x-superagent-left-out', async () => {
    const { dataDir, otherRecord: device } = await withAlpha();
    fs.symlinkSync('/dev/null', device);

    const list = await embedded(dataDir, 'list');
    expect(listedNames(list.stdout)).toEqual(['alpha']);
    expect([list.code, list.stderr]).toEqual([
      2,
      `Error: the embedded service left out a record it cannot read: the record ${device} is ` +
        `a character device, not a regular file; move it aside to drop it\n`,
    ]);

    const key = fs.readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim();
    const server = await temp.serviceOn(dataDir, { keys: [key] });
    const answer = await server.call('GET', '/v1/superagents');
    expect([answer.status, answer.headers.get(LEFT_OUT_HEADER), answer.json.agents.length]).toEqual([200, '1', 1]);
  });
});

describe('a record far larger than any the store writes', () => {
  it('is left out and named from its size, never read whole (a 3 GiB file was read on every request)', async () => {
    const { dataDir, otherRecord: huge } = await withAlpha();
    fs.writeFileSync(huge, '');
    fs.truncateSync(huge, 3 * 1024 ** 3); // sparse: no disk used, but 3 GiB to read

    const list = await embedded(dataDir, 'list');
    expect(listedNames(list.stdout)).toEqual(['alpha']);
    expect([list.code, list.stderr]).toEqual([
      2,
      `Error: the embedded service left out a record it cannot read: the record ${huge} is 3,072 MiB, ` +
        `larger than any record the store writes (at most 8 MiB); move it aside to drop it\n`,
    ]);
  });
});
