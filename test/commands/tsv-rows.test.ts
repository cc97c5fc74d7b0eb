// What the service sends may hold tabs, line breaks and control characters: piped, every command's
// tab-separated rows keep their shape (one line a record, the columns the help names), the values
// escaped (test/unit/tsv.test.ts); on a terminal, a table's row stays one row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/context.js';
import { HOSTED_AGENT, startHostedMock, type HostedMock } from '../helpers/hosted-mock.js';

const ID = HOSTED_AGENT.agent_id;
const NAME = 'evil\tname\nfake-id\tx\\y\r\u001b[2J';
const NAME_TSV = 'evil\\tname\\nfake-id\\tx\\\\y\\r\\x1b[2J';
const agent = { ...HOSTED_AGENT, name: NAME, model: 'gpt\t4o', description: 'line one\nline two' };

let mock: HostedMock;
beforeAll(async () => {
  mock = await startHostedMock(({ method, path }) => {
    if (method === 'GET' && path === '/v1/superagents') return { json: { agents: [agent] } };
    if (method === 'GET' && path === `/v1/superagents/${ID}`) return { json: agent };
    if (method === 'POST' && path === `/v1/superagents/${ID}/pause`)
      return { json: { agent_id: ID, status: 'paused\nx' } };
    const skills = [{ name: 'sk\tone', description: 'does\na thing', enabled: true }];
    if (method === 'GET' && path === `/v1/superagents/${ID}/skills`) return { json: { agent_id: ID, skills } };
    return undefined;
  });
});
afterAll(async () => {
  await mock.close();
});

const cli = cliFor(() => ({ url: mock.url, key: 'gb_sk_test_0123456789abcdef' }));
const lines = (stdout: string) => stdout.replace(/\n$/, '').split('\n');

describe('piped rows keep their shape', () => {
  it.each([
    ['list', ['list'], [[ID, NAME_TSV, 'running', 'gpt\\t4o', HOSTED_AGENT.created_at]]],
    ['skills', ['skills', ID], [['sk\\tone', 'on']]],
    ['model', ['model', ID], [['gpt\\t4o']]],
    ['pause (the agent named by its id)', ['pause', ID], [[ID, '', 'paused\\nx', 'done']]],
  ])('%s', async (_what, argv, rows) => {
    const r = await cli(argv as string[]);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout).map((l) => l.split('\t'))).toEqual(rows);
  });

  it('get: one `field<TAB>value` line a field', async () => {
    const r = await cli(['get', ID]);
    expect(lines(r.stdout)).toContain(`name\t${NAME_TSV}`);
    expect(lines(r.stdout)).toContain('description\tline one\\nline two');
    for (const line of lines(r.stdout)) expect(line.split('\t')).toHaveLength(2);
  });
});

describe('on a terminal', () => {
  it("a table's row stays one row: a tab and a line break in a cell are shown", async () => {
    const r = await cli(['list'], { tty: true, env: { COLUMNS: '200' } });
    expect(lines(r.stdout)).toHaveLength(2);
    expect(r.stdout).toContain('evil^Iname^Jfake-id^Ix\\y^M^[[2J');
  });
});
