// `superagent chat <agent> MESSAGE…` one-shot, through the built binary against the embedded
// service (CLI.md `chat`, contract §6, §7): streamed replies, piped stdin, sessions, --json with its
// tool calls, memory, a cut stream (the service's error event: exit 7, partial text kept), a slow
// stream printed as it arrives, Ctrl-C (exit 130).
import { execa } from 'execa';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUT_STREAM_MESSAGE } from '../../src/server/faults.js';
import { splitIntoPieces } from '../../src/server/runtime/replies.js';
import { BIN, cleanEnv, runCli } from '../helpers/cli.js';
import { PROBE_RATE_LIMIT, requestProbe, type RequestProbe } from '../helpers/request-count.js';
import { launchAgent, startTestService, type TestService } from '../helpers/service.js';
import { expectAgentStream, perTest, stopService } from '../helpers/service-support.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const SESSION_LINE = new RegExp(`^Session: (${UUID})\\n$`);

// every run gets a private config and data dir, removed after its test
const scratch = perTest();
const dirs = () => ({ configDir: scratch.scratch('superagent-config-'), dataDir: scratch.scratch('superagent-data-') });
const runIn = (svc: TestService, args: string[], input?: string) => runCli(args, { target: svc, input, ...dirs() });

async function launch(svc: TestService, name: string): Promise<string> {
  return (await launchAgent(svc, { name })).agent_id;
}

/** What the agent answers `message` in a fresh session, asked directly (replies are deterministic). */
async function directReply(svc: TestService, id: string, message: string, sessionId?: string): Promise<string> {
  const r = await svc.call('POST', `/v1/superagents/${id}/chat`, { body: { message, session_id: sessionId } });
  expect(r.status).toBe(200);
  return r.json.content;
}

function sessionFrom(stderr: string): string {
  const m = SESSION_LINE.exec(stderr);
  expect(m, stderr).not.toBeNull();
  return m![1]!;
}

/** The built binary as a child whose stdout can be watched as it arrives. */
function spawnCli(svc: TestService, args: string[]) {
  return execa(process.execPath, [BIN, ...args], {
    env: cleanEnv({ target: svc, ...dirs() }),
    extendEnv: false,
    reject: false,
    input: '',
    stripFinalNewline: false,
    timeout: 30_000,
  });
}

/** Resolves with the stdout text seen so far and the time, at the first chunk. */
function firstChunk(child: ReturnType<typeof spawnCli>): Promise<{ text: string; at: number }> {
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve({ text: d.toString('utf8'), at: Date.now() }));
    child.once('exit', () => reject(new Error('exited before printing anything')));
  });
}

describe('chat one-shot', () => {
  let svc: TestService;
  let probe: RequestProbe;
  let id: string;
  const cli = (args: string[], input?: string) => runIn(svc, args, input);

  beforeAll(async () => {
    svc = await startTestService({ rateLimit: PROBE_RATE_LIMIT });
    probe = await requestProbe(svc);
    id = await launch(svc, 'talker');
  });
  afterAll(async () => {
    await stopService(svc);
  });

  it('a message from the arguments: the reply on stdout with a final newline, the session on stderr', async () => {
    const expected = await directReply(svc, id, 'What do you think of BTC today?');
    const r = await cli(['chat', 'talker', 'What', 'do you think', 'of BTC today?']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`${expected}\n`);
    sessionFrom(r.stderr);
  });

  it('a message piped on stdin (its final newline dropped), the agent named by id prefix', async () => {
    const expected = await directReply(svc, id, 'hello from a pipe');
    const r = await cli(['chat', id.slice(0, 8)], 'hello from a pipe\n');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`${expected}\n`);
    sessionFrom(r.stderr);
  });

  it('--session continues the conversation the first reply reported', async () => {
    const first = await cli(['chat', 'talker', 'How is ETH looking?']);
    const sid = sessionFrom(first.stderr);
    const expected = await directReply(svc, id, 'And SOL?', undefined);
    // the same question inside the session is answered with its history behind it
    const second = await cli(['chat', 'talker', '--session', sid, 'And SOL?']);
    expect(second.exitCode).toBe(0);
    expect(sessionFrom(second.stderr)).toBe(sid);
    expect(second.stdout).not.toBe(`${expected}\n`);
    const session = await svc.call('POST', `/v1/superagents/${id}/chat`, { body: { message: 'ok', session_id: sid } });
    expect(session.json.session_id).toBe(sid);
  });

  it('--json prints { content, session_id, tool_calls } and nothing else; stderr stays empty', async () => {
    // a message the default skills (portfolio-tracker, market-intel) draw tools for
    const message = 'What is the price of SOL, and how is my portfolio?';
    const expected = await directReply(svc, id, message);
    // the same question in a fresh session calls the same tools, with the same ids and results
    const streamed = await svc.call('POST', `/v1/superagents/${id}/chat`, { body: { message, stream: true } });
    const { tools } = expectAgentStream(streamed.text, { agent_id: id, model: 'gpt-4o' });
    expect(tools.length).toBeGreaterThan(0);
    const r = await cli(['chat', 'talker', '--json', message]);
    expect(r.exitCode).toBe(0);
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

  it('tool calls: nothing on stderr when piped; with --verbose one line each (name, arguments, duration), never in the reply', async () => {
    const message = 'What is the price of SOL, and how is my portfolio?';
    const streamed = await svc.call('POST', `/v1/superagents/${id}/chat`, { body: { message, stream: true } });
    const { tools, content } = expectAgentStream(streamed.text, { agent_id: id, model: 'gpt-4o' });
    expect(tools.length).toBeGreaterThan(0);

    const piped = await cli(['chat', 'talker', message]);
    expect(piped.exitCode).toBe(0);
    expect(piped.stdout).toBe(`${content}\n`);
    sessionFrom(piped.stderr);

    const verbose = await cli(['chat', 'talker', '--verbose', message]);
    expect(verbose.exitCode).toBe(0);
    expect(verbose.stdout).toBe(`${content}\n`);
    const lines = verbose.stderr.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.at(-2)).toMatch(new RegExp(`^Session: ${UUID}$`));
    const toolLines = lines.slice(0, -2);
    expect(toolLines).toHaveLength(tools.length);
    tools.forEach((t, i) => {
      const args = Object.entries(t.tool_args).map(([k, v]) => `${k}=${v}`).join(', ');
      const m = /^(.*) ✓ (\d+\.\d) s$/.exec(toolLines[i]!);
      expect(m, toolLines[i]).not.toBeNull();
      expect(m![1]).toBe(`⚙ ${t.tool_name}(${args})`);
      expect(Math.abs(Number(m![2]) - t.metrics.duration)).toBeLessThanOrEqual(0.05 + 1e-9);
    });
    expect(verbose.stdout + verbose.stderr).not.toContain('completed in');

    // --quiet wins: no tool lines, no session line
    expect(await cli(['chat', 'talker', '--verbose', '-q', message])).toEqual({ exitCode: 0, stdout: `${content}\n`, stderr: '' });
  });

  it('--json of a reply that draws on no tool has an empty tool_calls', async () => {
    const expected = await directReply(svc, id, 'status report');
    const r = await cli(['chat', 'talker', '--json', 'status report']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toEqual({ content: expected, session_id: expect.stringMatching(new RegExp(`^${UUID}$`)), tool_calls: [] });
  });

  it('--no-stream prints the same reply from one JSON answer', async () => {
    const expected = await directReply(svc, id, 'quick one');
    const r = await cli(['chat', 'talker', '--no-stream', 'quick one']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`${expected}\n`);
    sessionFrom(r.stderr);
  });

  it('--quiet leaves the session line out', async () => {
    const r = await cli(['chat', 'talker', '-q', 'hi']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.length).toBeGreaterThan(1);
  });

  it('"remember …" writes memory.md', async () => {
    const r = await cli(['chat', 'talker', 'Please remember that I prefer low leverage on SOL']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('I will remember');
    const files = await svc.call('GET', `/v1/superagents/${id}/files`);
    expect(files.json.memory_md).toContain('I prefer low leverage on SOL');
  });

  it('a paused agent: exit 6 with the resume hint, nothing on stdout', async () => {
    const paused = await launch(svc, 'sleepy');
    await svc.call('POST', `/v1/superagents/${paused}/pause`);
    const r = await cli(['chat', 'sleepy', 'hello?']);
    expect(r.exitCode).toBe(6);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe("Error: sleepy is paused (resume it first: superagent resume sleepy)\n");
  });

  it('an unknown session: exit 4 naming it', async () => {
    const sid = randomUUID();
    const r = await cli(['chat', 'talker', '--session', sid, 'hi']);
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`Error: session ${sid} not found (leave out --session to start a new conversation)\n`);
  });

  it('refuses bad input before any request (exit 2)', async () => {
    const cases: Array<[string[], string, string | undefined]> = [
      [['chat', 'talker', '--session', randomUUID(), '--new', 'hi'], 'give --session or --new, not both', undefined],
      [['chat', 'talker', '   '], 'the message is empty', undefined],
      [['chat', 'talker'], 'the message is empty', '\n\n'],
      [['chat', 'talker', '--session', 'not an id', 'hi'], '--session needs a session id', undefined],
      [['chat', 'talker', 'x'.repeat(40_000)], 'at most 32768 are accepted', undefined],
    ];
    for (const [args, message, input] of cases) {
      await probe.since();
      const r = await cli(args, input);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(message);
      expect((await probe.since()).requests).toBe(0);
    }
  });

  it('an unknown agent exits 4', async () => {
    const r = await cli(['chat', 'nobody-here', 'hi']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain("no agent matches 'nobody-here'");
  });
});

describe('chat against a stream cut after 3 pieces (--fault-cut-stream)', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ faults: { cutStreamAfter: 3 } });
  });
  afterAll(async () => {
    await stopService(svc);
  });

  it('keeps the partial text, ends the line, reports the service’s error and the session: exit 7', async () => {
    const id = await launch(svc, 'cutter');
    // JSON answers are not cut: the whole reply, to know its first three pieces
    const whole = await directReply(svc, id, 'tell me about BTC');
    const partial = splitIntoPieces(whole).slice(0, 3).join('');
    expect(partial.length).toBeLessThan(whole.length);
    const r = await runIn(svc, ['chat', 'cutter', 'tell me about BTC']);
    expect(r.exitCode).toBe(7);
    expect(r.stdout).toBe(`${partial}\n`);
    const [sessionLine, errorLine, ...rest] = r.stderr.split('\n');
    expect(sessionLine).toMatch(new RegExp(`^Session: ${UUID}$`));
    // the service's own words from its error event (contract §6), then what became of the text
    expect(errorLine).toBe(`Error: ${CUT_STREAM_MESSAGE} (the reply stopped there; what arrived is kept)`);
    expect(rest).toEqual(['']);
  });
});

describe('chat against a slow stream (--token-delay)', () => {
  const DELAY = 60;
  let svc: TestService;
  let id: string;
  beforeAll(async () => {
    svc = await startTestService({ tokenDelayMs: DELAY });
    id = await launch(svc, 'slowpoke');
  });
  afterAll(async () => {
    await stopService(svc);
  });

  it('the first piece reaches stdout long before the server sends the last', async () => {
    const message = 'walk me through the market';
    const pieces = splitIntoPieces(await directReply(svc, id, message));
    expect(pieces.length).toBeGreaterThan(10);
    const child = spawnCli(svc, ['chat', 'slowpoke', message]);
    const first = await firstChunk(child);
    const r = await child;
    const ended = Date.now();
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`${pieces.join('')}\n`);
    // the first chunk held only the start of the reply, and the rest took the server's pacing
    expect(pieces.join('').startsWith(first.text)).toBe(true);
    expect(first.text.length).toBeLessThan(pieces.slice(0, 3).join('').length + 1);
    expect(ended - first.at).toBeGreaterThan((pieces.length - 4) * DELAY * 0.8);
  });

  it('Ctrl-C mid-reply aborts at once: exit 130, the text so far kept with a final newline', async () => {
    const message = 'give me a long market overview';
    const whole = await directReply(svc, id, message);
    const child = spawnCli(svc, ['chat', 'slowpoke', message]);
    await firstChunk(child);
    const sent = Date.now();
    child.kill('SIGINT');
    const r = await child;
    expect(Date.now() - sent).toBeLessThan(1500);
    expect(r.exitCode).toBe(130);
    expect(r.stdout.endsWith('\n')).toBe(true);
    const printed = r.stdout.slice(0, -1);
    expect(printed.length).toBeGreaterThan(0);
    expect(printed.length).toBeLessThan(whole.length);
    expect(whole.startsWith(printed)).toBe(true);
    expect(r.stderr).toMatch(new RegExp(`^Session: ${UUID}\\n$`));
  });
});
