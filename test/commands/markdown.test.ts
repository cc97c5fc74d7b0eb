// Replies, soul.md and memory.md rendered as Markdown on a terminal, as the reply streams;
// piped output, --json and --fields byte for byte as before; --raw, the profile's `render raw` and
// TERM=dumb turn it off; NO_COLOR keeps the layout without colour. Against a loopback stand-in for
// the hosted service that streams a fixture reply in pieces.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFor, MemoryConfig, type RunOptions } from '../helpers/context.js';
import { HOSTED_AGENT, startHostedMock, type HostedMock } from '../helpers/hosted-mock.js';
import { fixture, renderWhole } from '../helpers/markdown.js';
import { screenText } from '../helpers/screen.js';

const ID = HOSTED_AGENT.agent_id;
const REPLY = fixture('trade-setup');
const TABLE = fixture('squeeze-scan');
const JSON_ANSWER = '{\n  "symbol": "ETH",\n  "direction": "long",\n  "comment": "**not** Markdown"\n}';

/** The reply as an Agno stream cut into pieces of `size`; `tool`: with a tool call after the first piece. */
function stream(text: string, tool = false, size = 37): string {
  const events: unknown[] = [];
  for (let i = 0; i < text.length; i += size)
    events.push({ event: 'RunContent', content: text.slice(i, i + size), session_id: 's-1' });
  if (tool)
    events.splice(
      1,
      0,
      { event: 'ToolCallStarted', tool: { tool_call_id: 't1', tool_name: 'get_price', tool_args: { symbol: 'ETH' } } },
      {
        event: 'ToolCallCompleted',
        tool: { tool_call_id: 't1', tool_name: 'get_price', result: '3362', tool_call_error: false },
      },
    );
  events.push({ event: 'RunCompleted', content: text, session_id: 's-1' });
  return events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + 'data: [DONE]\n\n';
}

let mock: HostedMock;
beforeAll(async () => {
  mock = await startHostedMock(({ method, path, body }) => {
    if (method === 'GET' && path === `/v1/superagents/${ID}`) return { json: HOSTED_AGENT };
    if (method === 'GET' && path === `/v1/superagents/${ID}/files`)
      return { json: { agent_id: ID, soul_md: `${TABLE}\n`, memory_md: REPLY } };
    if (method === 'POST' && path === `/v1/superagents/${ID}/chat`)
      return { sse: stream(REPLY, String(body?.message).includes('tools')) };
    if (method === 'POST' && path === '/v1/chat')
      return { sse: stream(/respond as json/i.test(String(body?.message)) ? JSON_ANSWER : TABLE) };
    return undefined;
  });
});
afterAll(async () => {
  await mock.close();
});

const cli = cliFor(() => ({ url: mock.url, key: 'gb_sk_test_0123456789abcdef' }));
/** a terminal that shows layout without colour (or, `colour`, with it) */
const tty = (columns: number, env: Record<string, string> = {}, colour = false): RunOptions => ({
  tty: { stdout: true, stderr: true, columns },
  env: { TERM: 'xterm-256color', ...(colour ? {} : { NO_COLOR: '1' }), ...env },
});

describe('on a terminal, rendered as it streams', () => {
  it.each([80, 120])('chat at %i columns: the screen is the rendered reply, tool line aside', async (columns) => {
    const r = await cli(['chat', ID, 'plan? use your tools'], tty(columns));
    expect(r.code, r.stderr).toBe(0);
    expect(await screenText(r.stdout, columns)).toBe(await screenText(renderWhole(REPLY, columns), columns));
    expect(r.stderr).toContain('get_price(symbol=ETH)');
  });

  it('assistant ask: a table laid out to the width', async () => {
    const r = await cli(['assistant', 'ask', 'squeeze scan'], tty(80));
    expect(r.code, r.stderr).toBe(0);
    const screen = await screenText(r.stdout, 80);
    expect(screen).toBe(await screenText(renderWhole(TABLE, 80), 80));
    expect(screen).toContain('1 │ WIF    │      $2.91 │ +4.2% │');
  });

  it('with colour: our escapes (SGR), the layout the same', async () => {
    const r = await cli(['chat', ID, 'plan?'], tty(80, {}, true));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('\u001b[1;35mETH trade setup (simulated)\u001b[0m');
    expect(await screenText(r.stdout, 80)).toBe(await screenText(renderWhole(REPLY, 80, { colour: true }), 80));
  });

  it('soul show and memory: the file rendered', async () => {
    const soul = await cli(['soul', 'show', ID], tty(120));
    expect(soul.stdout).toBe(renderWhole(`${TABLE}\n`, 120));
    const memory = await cli(['memory', ID], tty(80));
    expect(memory.stdout).toBe(renderWhole(REPLY, 80));
    expect(memory.stdout).toContain('• a BTC flush drags ETH with it'.replace('•', '◦'));
  });
});

describe('raw, byte for byte', () => {
  // the fixtures end with a line break: nothing is added to them
  it('piped: the reply as the service sent it, exactly as before', async () => {
    const r = await cli(['chat', ID, 'plan?']);
    expect(r.stdout).toBe(REPLY);
    expect((await cli(['memory', ID])).stdout).toBe(REPLY);
    expect((await cli(['soul', 'show', ID])).stdout).toBe(`${TABLE}\n`);
  });

  it.each([
    ['--raw', ['--raw'], {}],
    ['the profile setting render raw', [], { config: true }],
    ['TERM=dumb (a terminal that cannot move its cursor)', [], { env: { TERM: 'dumb' } }],
  ])('on a terminal with %s', async (_name, flags, o: { config?: boolean; env?: Record<string, string> }) => {
    const config = o.config ? new MemoryConfig({ profiles: { default: { render: 'raw' } } }) : undefined;
    const base = tty(80, o.env);
    const run = (argv: string[]) => cli([...argv, ...flags], { ...base, config });
    expect((await run(['chat', ID, 'plan?'])).stdout).toBe(REPLY);
    expect((await run(['memory', ID])).stdout).toBe(REPLY);
    expect((await run(['assistant', 'ask', 'squeeze scan'])).stdout).toBe(TABLE);
  });

  it('--json: the reply in its JSON, untouched', async () => {
    const r = await cli(['chat', ID, 'plan?', '--json'], tty(80));
    expect(JSON.parse(r.stdout).content).toBe(REPLY);
  });

  it('an answer asked for as JSON is not Markdown: shown as it came, and --fields parses it as before', async () => {
    const asked = await cli(['assistant', 'ask', 'ETH? Respond as JSON with: symbol, direction, comment'], tty(80));
    expect(asked.stdout).toBe(`${JSON_ANSWER}\n`);
    const fields = await cli(['assistant', 'ask', 'ETH?', '--fields', 'symbol,direction,comment'], tty(80));
    expect(JSON.parse(fields.stdout)).toEqual(JSON.parse(JSON_ANSWER));
  });
});
