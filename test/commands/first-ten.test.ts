// A new user's first ten minutes on a fresh clone and home: narrow terminals, piped rows, fleet
// tokens from the environment, what `get` shows after `launch`, the assistant's unknown fields.
import { beforeEach, describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent, type TestService } from '../helpers/service.js';

let service: TestService;
const scratch = perTest();
const cli = cliFor(() => service);

beforeEach(async () => {
  service = await scratch.service();
  await launchAgent(service, { name: 'demo' });
  service.cliRequests();
});

describe('item 1: narrow terminals leave columns out, never wrap them', () => {
  const heads = async (words: string, columns: number) => {
    const r = await cli(words, { tty: { stdout: true, stderr: true, columns } });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line.length).toBeLessThan(columns);
    // no cell of its own on a line (a wrapped `…` or half a header)
    for (const line of lines.slice(1)) expect(line.split(/\s{2,}/).length).toBe(lines[0]!.split(/\s{2,}/).length);
    return lines[0]!.split(/\s+/);
  };

  it('list: CREATED goes first, then the id, then the model', async () => {
    expect(await heads('list', 40)).toEqual(['NAME', 'ID', 'STATUS', 'MODEL']);
    expect(await heads('list', 30)).toEqual(['NAME', 'STATUS', 'MODEL']);
  });

  it('skills: the description goes; at 30 columns a long name is cut with …', async () => {
    expect(await heads('skills demo', 40)).toEqual(['NAME', 'ENABLED']);
    expect(await heads('skills demo', 30)).toEqual(['NAME', 'ENABLED']);
  });
});
