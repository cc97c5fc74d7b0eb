// The service's failures of its own, told to whoever runs it in-process (the CLI's embedded service)
// as typed events beside its log line, so that no caller has to read its log to know what failed.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServiceFailure } from '../../src/server/index.js';
import { launchAgent } from '../helpers/service.js';
import { perTest } from '../helpers/service-support.js';

const temp = perTest();

describe('onFailure', () => {
  it('a record it cannot read: left out, said as an event with the log line', async () => {
    const failures: ServiceFailure[] = [];
    const log: string[] = [];
    const service = await temp.service({ log: (line) => log.push(line), onFailure: (f) => failures.push(f) });
    const { agent_id } = await launchAgent(service, { name: 'broken' });
    const [file] = fs
      .readdirSync(service.dataDir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith(`${agent_id}.json`));
    const record = path.join(service.dataDir, file!);
    fs.writeFileSync(record, '');
    expect((await service.call('GET', '/v1/superagents')).status).toBe(200);
    const message = `The record ${record} is not valid; move it aside to drop it`;
    expect(failures).toEqual([{ kind: 'left-out', message }]);
    expect(log).toEqual([`left out: ${message}`]);
  });
});
