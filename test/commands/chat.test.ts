// `superagent chat <agent> MESSAGE…` one-shot through the commands layer (docs/cli.md, superagent chat):
// the reply on stdout, the session on stderr, piped stdin, sessions, --json with its tool calls,
// tool lines with --verbose, memory, and the failures that exit before or after the request.
// Streams that break or are interrupted: chat-stream.test.ts.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/context.js';
import { expectAgentStream, stopService } from '../helpers/service-support.js';
import { launchAgent, startTestService, type TestService } from '../helpers/service.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const SESSION_LINE = new RegExp(`^Session: (${UUID})\\n$`);
// a message the default skills (portfolio-tracker, market-intel) draw tools for
const TOOLS_MESSAGE = 'What is the price of SOL, and how is my portfolio?';

let service: TestService;
let id: string;
const cli = cliFor(() => service);

beforeAll(async () => {
  service = await startTestService();
  id = (await launchAgent(service, { name: 'talker' })).agent_id;
});
afterAll(async () => {
  await stopService(service);
});
beforeEach(() => {
  service.exchanges.splice(0);
});

/** What the agent answers `message` in a fresh session, asked directly (replies are deterministic). */
async function directReply(message: string, agent = id): Promise<string> {
  const r = await service.call('POST', `/v1/superagents/${agent}/chat`, { body: { message } });
  expect(r.status).toBe(200);
  return r.json.content;
}

/** The streamed answer to `message` in a fresh session: its text and the tools it called. */
async function directStream(message: string) {
  const streamed = await service.call('POST', `/v1/superagents/${id}/chat`, { body: { message, stream: true } });
  return expectAgentStream(streamed.text, { agent_id: id, model: 'gpt-4o' });
}

function sessionFrom(stderr: string): string {
  const m = SESSION_LINE.exec(stderr);
  expect(m, stderr).not.toBeNull();
  return m![1]!;
}

/** The CLI's chat requests since the last look (the list that resolves a name is left out). */
function chatRequests() {
  return service.cliRequests().filter((r) => r.path.endsWith('/chat'));
}

describe('chat one-shot', () => {
  it('a message from the arguments: the reply on stdout with a final newline, the session on stderr', async () => {
    const expected = await directReply('What do you think of BTC today?');
    const r = await cli(['chat', 'talker', 'What', 'do you think', 'of BTC today?']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${expected}\n`);
    sessionFrom(r.stderr);
    // the words joined by spaces, streamed
    expect(chatRequests()).toEqual([
      {
        method: 'POST',
        path: `/v1/superagents/${id}/chat`,
        body: { message: 'What do you think of BTC today?', stream: true },
      },
    ]);
  });

  it('a message piped on stdin (its final newline dropped), the agent named by id prefix', async () => {
    const expected = await directReply('hello from a pipe');
    const r = await cli(['chat', id.slice(0, 8)], { input: 'hello from a pipe\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${expected}\n`);
    sessionFrom(r.stderr);
    expect(chatRequests().map((q) => q.body.message)).toEqual(['hello from a pipe']);
  });

  it('a message piped with a NUL byte in it: exit 2, nothing sent', async () => {
    const r = await cli(['chat', 'talker'], { input: 'hello\0 there\n' });
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/^Error: the message on standard input contains a NUL byte \(\\0\), on line 1 \(.+\)\n$/);
    expect(chatRequests()).toEqual([]);
  });

  it('--session continues the conversation the first reply reported', async () => {
    const first = await cli(['chat', 'talker', 'How is ETH looking?']);
    const sid = sessionFrom(first.stderr);
    const fresh = await directReply('And SOL?');
    // the same question inside the session is answered with its history behind it
    const second = await cli(['chat', 'talker', '--session', sid, 'And SOL?']);
    expect(second.code).toBe(0);
    expect(sessionFrom(second.stderr)).toBe(sid);
    expect(second.stdout).not.toBe(`${fresh}\n`);
    expect(chatRequests().at(-1)!.body).toEqual({ message: 'And SOL?', session_id: sid, stream: true });
    const session = await service.call('POST', `/v1/superagents/${id}/chat`, {
      body: { message: 'ok', session_id: sid },
    });
    expect(session.json.session_id).toBe(sid);
  });

  it('--json prints { content, session_id, tool_calls } and nothing else; stderr stays empty', async () => {
    const expected = await directReply(TOOLS_MESSAGE);
    // the same question in a fresh session calls the same tools, with the same ids and results
    const { tools } = await directStream(TOOLS_MESSAGE);
    expect(tools.length).toBeGreaterThan(0);
    const r = await cli(['chat', 'talker', '--json', TOOLS_MESSAGE]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const body = JSON.parse(r.stdout);
    expect(Object.keys(body)).toEqual(['content', 'session_id', 'tool_calls']);
    expect(body.content).toBe(expected);
    expect(body.session_id).toMatch(new RegExp(`^${UUID}$`));
    expect(body.tool_calls).toEqual(
      tools.map((t) => ({
        id: t.tool_call_id,
        name: t.tool_name,
        arguments: t.tool_args,
        status: 'done',
        result: t.result,
        duration_ms: t.metrics.duration * 1000,
      })),
    );
  });

  it(
    'tool calls: nothing on stderr when piped; with --verbose one ' +
      'line each (name, arguments, duration), never in the reply',
    async () => {
      const { tools, content } = await directStream(TOOLS_MESSAGE);
      expect(tools.length).toBeGreaterThan(0);

      const piped = await cli(['chat', 'talker', TOOLS_MESSAGE]);
      expect(piped.code).toBe(0);
      expect(piped.stdout).toBe(`${content}\n`);
      sessionFrom(piped.stderr);

      const verbose = await cli(['chat', 'talker', '--verbose', TOOLS_MESSAGE]);
      expect(verbose.code).toBe(0);
      expect(verbose.stdout).toBe(`${content}\n`);
      const lines = verbose.stderr.split('\n');
      expect(lines.at(-1)).toBe('');
      expect(lines.at(-2)).toMatch(new RegExp(`^Session: ${UUID}$`));
      const toolLines = lines.slice(0, -2);
      expect(toolLines).toHaveLength(tools.length);
      tools.forEach((t, i) => {
        const args = Object.entries(t.tool_args)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ');
        const m = /^(.*) ✓ (\d+\.\d) s$/.exec(toolLines[i]!);
        expect(m, toolLines[i]).not.toBeNull();
        expect(m![1]).toBe(`⚙ ${t.tool_name}(${args})`);
        // the service's duration, rounded to a tenth of a second
        expect(Math.abs(Number(m![2]) - t.metrics.duration)).toBeLessThanOrEqual(0.05 + 1e-9);
      });
      expect(verbose.stdout + verbose.stderr).not.toContain('completed in');

      // --quiet wins: no tool lines, no session line
      const quiet = await cli(['chat', 'talker', '--verbose', '-q', TOOLS_MESSAGE]);
      expect(quiet).toMatchObject({ code: 0, stdout: `${content}\n`, stderr: '' });
    },
  );

  it('--json of a reply that draws on no tool has an empty tool_calls', async () => {
    const expected = await directReply('status report');
    const r = await cli(['chat', 'talker', '--json', 'status report']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({
      content: expected,
      session_id: expect.stringMatching(new RegExp(`^${UUID}$`)),
      tool_calls: [],
    });
  });

  it('--no-stream prints the same reply from one JSON answer', async () => {
    const expected = await directReply('quick one');
    const r = await cli(['chat', 'talker', '--no-stream', 'quick one']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${expected}\n`);
    sessionFrom(r.stderr);
    expect(chatRequests()).toEqual([
      { method: 'POST', path: `/v1/superagents/${id}/chat`, body: { message: 'quick one', stream: false } },
    ]);
  });

  it('--quiet leaves the session line out', async () => {
    const expected = await directReply('hi');
    const r = await cli(['chat', 'talker', '-q', 'hi']);
    expect(r).toMatchObject({ code: 0, stdout: `${expected}\n`, stderr: '' });
  });

  it('"remember …" writes memory.md', async () => {
    const r = await cli(['chat', 'talker', 'Please remember that I prefer low leverage on SOL']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('I will remember');
    const files = await service.call('GET', `/v1/superagents/${id}/files`);
    expect(files.json.memory_md).toContain('I prefer low leverage on SOL');
  });
});

describe('chat one-shot failures', () => {
  it('a paused agent: exit 6 with the resume hint, nothing on stdout', async () => {
    const paused = (await launchAgent(service, { name: 'sleepy' })).agent_id;
    await service.call('POST', `/v1/superagents/${paused}/pause`);
    const r = await cli(['chat', 'sleepy', 'hello?']);
    expect(r).toMatchObject({
      code: 6,
      stdout: '',
      stderr: 'Error: sleepy is paused (resume it first: superagent resume sleepy)\n',
    });
    await service.call('DELETE', `/v1/superagents/${paused}`);
  });

  it('an unknown session: exit 4 naming it', async () => {
    const sid = randomUUID();
    const r = await cli(['chat', 'talker', '--session', sid, 'hi']);
    expect(r).toMatchObject({
      code: 4,
      stdout: '',
      stderr: `Error: session ${sid} not found (leave out --session to start a new conversation)\n`,
    });
  });

  it.each<[string, string[], string | undefined, string]>([
    [
      '--session with --new',
      ['talker', '--session', randomUUID(), '--new', 'hi'],
      undefined,
      'Error: give one of --session, --continue and --new\n',
    ],
    [
      'a blank message',
      ['talker', '   '],
      undefined,
      "Error: the message is empty (give it as arguments, superagent chat AGENT 'message', or pipe it on stdin)\n",
    ],
    [
      'blank stdin',
      ['talker'],
      '\n\n',
      "Error: the message is empty (give it as arguments, superagent chat AGENT 'message', or pipe it on stdin)\n",
    ],
    [
      'a --session that cannot be an id',
      ['talker', '--session', 'not an id', 'hi'],
      undefined,
      "Error: --session needs a session id as printed by an earlier reply, not 'not an id'\n",
    ],
    [
      'a message over the limit',
      ['talker', 'x'.repeat(40_000)],
      undefined,
      'Error: the message is 40000 characters; at most 32768 are accepted\n',
    ],
    ['no agent', [], undefined, 'Error: missing <agent> (usage: superagent chat <agent> [message...] [options])\n'],
  ])('refuses %s before any request (exit 2)', async (_, args, input, message) => {
    const r = await cli(['chat', ...args], { input });
    expect(r).toMatchObject({ code: 2, stdout: '', stderr: message });
    expect(service.cliRequests()).toEqual([]);
  });

  it('stdin that never ends is read no further than the limit allows, then refused (exit 2)', async () => {
    let taken = 0;
    async function* endless() {
      for (; taken < 16 * 1024 * 1024; taken += 64 * 1024) yield Buffer.alloc(64 * 1024, 'y');
    }
    const r = await cli(['chat', 'talker'], { input: endless() });
    expect(taken).toBeLessThan(1024 * 1024);
    expect(r).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'Error: the message is over 32768 characters; at most 32768 are accepted\n',
    });
    expect(service.cliRequests()).toEqual([]);
  });

  it('an unknown agent exits 4', async () => {
    const r = await cli(['chat', 'nobody-here', 'hi']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Error: no agent matches 'nobody-here'/);
    expect(chatRequests()).toEqual([]);
  });
});
