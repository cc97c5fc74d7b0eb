// `superagent chat` against streams that do not simply end (docs/api.md, Streaming replies): a stream the
// service cuts (its error event: exit 7, the partial text kept, also under --json), a slow stream
// printed piece by piece as it arrives, and Ctrl-C mid-reply (exit 130, the text so far kept).
// Ctrl-C here is FakeSignals; a real SIGINT to the binary is test/e2e/chat-sigint.test.ts.
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { InStream } from '../../src/cli/context.js';
import { run } from '../../src/cli/run.js';
import { CUT_STREAM_MESSAGE } from '../../src/server/faults.js';
import { splitIntoPieces } from '../../src/server/runtime/replies.js';
import {
  Capture,
  FakeSignals,
  MemoryConfig,
  ScriptedPrompter,
  cliFor,
  fakeEditor,
  runLine,
  testEnv,
} from '../helpers/context.js';
import { stopService } from '../helpers/service-support.js';
import { launchAgent, startTestService, type TestService } from '../helpers/service.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** What the agent answers `message` in a fresh session, asked directly (JSON answers are never cut or slowed). */
async function directReply(svc: TestService, id: string, message: string): Promise<string> {
  const r = await svc.call('POST', `/v1/superagents/${id}/chat`, { body: { message } });
  expect(r.status).toBe(200);
  return r.json.content;
}

/** A stdout that tells the test of every write the moment the command makes it. */
class WatchedStdout extends Capture {
  constructor(private readonly onWrite: (chunk: string) => void) {
    super(false);
  }

  override write(chunk: string): boolean {
    super.write(chunk);
    this.onWrite(chunk);
    return true;
  }
}

/**
 * A command line as `runLine` runs it (piped, no prompts, no editor), with stdout watched: what
 * runLine cannot do, since it makes its streams itself.
 */
async function runWatched(
  svc: TestService,
  argv: string[],
  onWrite: (chunk: string) => void,
  signals = new FakeSignals(),
) {
  const stdout = new WatchedStdout(onWrite);
  const stderr = new Capture(false);
  const stdin = Readable.from([]) as unknown as InStream;
  const code = await run(
    argv,
    testEnv(svc),
    { stdout, stderr, stdin },
    {
      config: new MemoryConfig(),
      prompter: new ScriptedPrompter(),
      editor: fakeEditor(() => {
        throw new Error('no editor here');
      }),
      signals,
      spinner: () => ({ stop() {} }),
    },
  );
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** The chat exchanges the service has finished (an exchange is recorded when its response closes). */
function chatsDone(svc: TestService, id: string) {
  return svc.exchanges.filter((e) => e.method === 'POST' && e.path === `/v1/superagents/${id}/chat`);
}

describe('chat against a stream cut after 3 pieces (--fault-cut-stream)', () => {
  let svc: TestService;
  let id: string;
  let partial: string;
  const cli = cliFor(() => svc);

  beforeAll(async () => {
    svc = await startTestService({ faults: { cutStreamAfter: 3 } });
    id = (await launchAgent(svc, { name: 'cutter' })).agent_id;
    // JSON answers are not cut: the whole reply, to know its first three pieces
    const whole = await directReply(svc, id, 'tell me about BTC');
    partial = splitIntoPieces(whole).slice(0, 3).join('');
    expect(partial.length).toBeGreaterThan(0);
    expect(partial.length).toBeLessThan(whole.length);
  });
  afterAll(async () => {
    await stopService(svc);
  });

  it('keeps the partial text, ends the line, reports the service’s error and the session: exit 7', async () => {
    const r = await cli(['chat', 'cutter', 'tell me about BTC']);
    expect(r.code).toBe(7);
    expect(r.stdout).toBe(`${partial}\n`);
    const [sessionLine, errorLine, ...rest] = r.stderr.split('\n');
    expect(sessionLine).toMatch(new RegExp(`^Session: ${UUID}$`));
    // the service's own words from its error event, then what became of the text
    expect(errorLine).toBe(`Error: ${CUT_STREAM_MESSAGE} (the reply stopped there; what arrived is kept)`);
    expect(rest).toEqual(['']);
  });

  it('under --json still prints what arrived, with the error, as JSON', async () => {
    const r = await cli(['chat', id, 'tell me about BTC', '--json']);
    expect(r.code).toBe(7);
    const out = JSON.parse(r.stdout);
    expect(out).toEqual({
      content: partial,
      session_id: expect.stringMatching(new RegExp(`^${UUID}$`)),
      tool_calls: [],
      error: { message: CUT_STREAM_MESSAGE, exit_code: 7 },
    });
    // stderr: the error line, then the same error as JSON (no session line under --json)
    const message = `${CUT_STREAM_MESSAGE} (the reply stopped there; what arrived is kept)`;
    expect(r.stderr).toBe(`Error: ${message}\n` + `${JSON.stringify({ error: { message, exit_code: 7 } })}\n`);
  });
});

describe('chat against a slow stream (--token-delay)', () => {
  let svc: TestService;
  let id: string;
  beforeAll(async () => {
    svc = await startTestService({ tokenDelayMs: 20 });
    id = (await launchAgent(svc, { name: 'slowpoke' })).agent_id;
  });
  afterAll(async () => {
    await stopService(svc);
  });

  it('each piece reaches stdout as it arrives, the first one before the service has sent the rest', async () => {
    const message = 'walk me through the market';
    const pieces = splitIntoPieces(await directReply(svc, id, message));
    expect(pieces.length).toBeGreaterThan(10);
    svc.exchanges.splice(0);
    const writes: Array<{ chunk: string; streamDone: boolean }> = [];
    const r = await runWatched(svc, ['chat', 'slowpoke', message], (chunk) =>
      writes.push({ chunk, streamDone: chatsDone(svc, id).length > 0 }),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${pieces.join('')}\n`);
    // one write per piece, then the final newline: nothing held back to be printed together
    expect(writes.map((w) => w.chunk)).toEqual([...pieces, '\n']);
    // when the first piece was printed the service was still streaming
    expect(writes[0]!.streamDone).toBe(false);
    expect(chatsDone(svc, id)).toHaveLength(1);
  });

  it('Ctrl-C mid-reply aborts the request: exit 130, the text so far kept with a final newline', async () => {
    const message = 'give me a long market overview';
    const whole = await directReply(svc, id, message);
    svc.exchanges.splice(0);
    const signals = new FakeSignals();
    let pressed: boolean | undefined;
    // Ctrl-C once the first piece of the reply is on stdout (a real one comes between events)
    const pressOnce = () => {
      if (pressed !== undefined) return;
      pressed = false;
      queueMicrotask(() => (pressed = signals.interrupt()));
    };
    const r = await runWatched(svc, ['chat', 'slowpoke', message], pressOnce, signals);
    expect(pressed).toBe(true); // the command was listening
    expect(r.code).toBe(130);
    expect(r.stdout.endsWith('\n')).toBe(true);
    const printed = r.stdout.slice(0, -1);
    expect(printed.length).toBeGreaterThan(0);
    expect(printed.length).toBeLessThan(whole.length);
    expect(whole.startsWith(printed)).toBe(true);
    expect(r.stderr).toMatch(new RegExp(`^Session: ${UUID}\\n$`));
    // the connection was dropped mid-stream: the service never got to send its end
    await vi.waitFor(() => expect(chatsDone(svc, id)).toHaveLength(1));
    const body = chatsDone(svc, id)[0]!.responseBody;
    expect(body).toContain('RunContent');
    expect(body).not.toContain('[DONE]');
  });

  it.each([
    ['at the start of a line', (all: string) => all.endsWith('\n')],
    ['mid-line', (all: string) => !all.endsWith('\n')],
  ])('on a terminal, Ctrl-C %s: the line the terminal echoed ^C on is ended before Session:', async (_, when) => {
    const signals = new FakeSignals();
    let atPress: string | undefined;
    const r = await runLine(svc, ['chat', 'slowpoke', 'give me a long market overview'], {
      tty: true,
      signals,
      onStdout: (_chunk, all) => {
        if (atPress !== undefined || all === '' || !when(all)) return;
        atPress = all;
        queueMicrotask(() => signals.interrupt());
      },
    });
    expect(r.code).toBe(130);
    expect(atPress).toBeDefined();
    // one newline ends the ^C line: no blank line, no Session: glued after ^C (tool lines come before it)
    expect(r.stdout).toBe(`${atPress}\n`);
    expect(r.stderr).toMatch(new RegExp(`(^|\\n)Session: ${UUID}\\n$`));
  });
});
