// The embedded service when its data dir's disk fills up while it runs (a small tmpfs this file
// mounts): a write it cannot make is 500 saying why in words (the hosted document allows no 507),
// its log names the file in one line, nothing is half-written, and the service keeps answering.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchAgent } from '../helpers/service.js';
import { perTest } from '../helpers/service-support.js';
import { filesUnder, smallFs, whyNoMounts } from '../helpers/small-fs.js';

const temp = perTest();
const noMounts = whyNoMounts();
if (noMounts) console.warn(`storage-failures.test: a real full file system is skipped: ${noMounts}`);

describe.skipIf(noMounts)(`a data dir whose disk is full${noMounts ? ` (skipped: ${noMounts})` : ''}`, () => {
  it('launch and pause: 500 in words, the file in the log, the records as they were, still up', async () => {
    const disk = smallFs();
    const log: string[] = [];
    const service = await temp.service({ dataDir: path.join(disk.dir, 'data'), log: (line) => log.push(line) });
    const first = await launchAgent(service, { name: 'first' });
    const before = filesUnder(disk.dir);
    disk.fill();

    const message = 'The service cannot use its data dir: the disk is full';
    const body = { statusCode: 500, message, error: 'Internal Server Error' };
    const second = { name: 'second', model: 'gpt-4o', model_provider: 'openai' };
    const launch = await service.call('POST', '/v1/superagents', { body: second });
    expect([launch.status, launch.json]).toEqual([500, body]);
    const pause = await service.call('POST', `/v1/superagents/${first.agent_id}/pause`);
    expect([pause.status, pause.json]).toEqual([500, body]);
    expect(log).toHaveLength(2);
    const words = 'the disk is full \\(free some space on it, then try again\\)';
    const said = new RegExp(`^storage: cannot write ${service.dataDir}/records/\\S+: ${words}$`);
    for (const line of log) expect(line).toMatch(said);
    expect(filesUnder(disk.dir)).toEqual(before);

    const list = await service.call('GET', '/v1/superagents');
    const agents = list.json.agents.map((a: { name: string; status: string }) => [a.name, a.status]);
    expect([list.status, agents]).toEqual([200, [['first', 'running']]]);
    disk.unfill();
    expect((await service.call('POST', `/v1/superagents/${first.agent_id}/pause`)).status).toBe(200);
  });
});
