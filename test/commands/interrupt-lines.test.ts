// Ctrl-C or SIGTERM mid-reply on a terminal ends the lines it cut once, never with a blank line more:
// after an open tool line (the ^C echoed on it is ended with it), after a rendered
// reply (its redraw took the ^C with the tail), and after the Session line of a SIGTERM.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFor, FakeSignals, type RunOptions } from '../helpers/context.js';
import { HOSTED_AGENT, startHostedMock, type HostedMock } from '../helpers/hosted-mock.js';

const ID = HOSTED_AGENT.agent_id;
const frame = (e: unknown) => `data: ${JSON.stringify(e)}\n\n`;
const STARTED = frame({
  event: 'ToolCallStarted',
  tool: { tool_call_id: 't1', tool_name: 'get_price', tool_args: { symbol: 'ETH' } },
});

let mock: HostedMock;
beforeAll(async () => {
  mock = await startHostedMock(({ method, path, body }) => {
    if (method === 'GET' && path === `/v1/superagents/${ID}`) return { json: HOSTED_AGENT };
    if (method !== 'POST' || path !== `/v1/superagents/${ID}/chat`) return undefined;
    // text, then a tool call that stays open, then nothing for a long while
    const pieces = [
      frame({ event: 'RunContent', content: 'Looking at ETH now.\n', session_id: 's-1' }),
      ...(body?.message === 'tool' ? [STARTED] : []),
      ...Array(40).fill(': ping\n\n'),
    ];
    return { sse: pieces, delayMs: 50 };
  });
});
afterAll(async () => {
  await mock.close();
});

const cli = cliFor(() => ({ url: mock.url, key: 'gb_sk_test_0123456789abcdef' }));
const TTY: RunOptions = {
  tty: { stdout: true, stderr: true, columns: 80 },
  env: { TERM: 'xterm-256color', NO_COLOR: '1' },
};

describe('an interrupted reply ends its lines once', () => {
  it('Ctrl-C while a tool line is open (--raw): the tool line ends, no blank line on stdout', async () => {
    const signals = new FakeSignals();
    let seen = false;
    let pressed = false;
    // pressed just after the tool line is drawn, as a key comes: apart from the write (the stream
    // then only pings for two seconds)
    const onStderr = (_c: string, all: string) => {
      if (seen || !all.includes('get_price(')) return;
      seen = true;
      setImmediate(() => (pressed = signals.interrupt()));
    };
    const r = await cli(['chat', ID, 'tool', '--raw'], { ...TTY, signals, onStderr });
    expect(pressed, r.stderr).toBe(true);
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('Looking at ETH now.\n');
    expect(r.stderr).toMatch(/get_price\(symbol=ETH\)[^\n]*\nSession: s-1\n$/);
  });

  it('SIGTERM: the Session line is the last, with no blank line after it', async () => {
    const signals = new FakeSignals();
    let sent = false;
    const r = await cli(['chat', ID, 'plain'], {
      ...TTY,
      signals,
      onStdout: (_c, all) => void (all.includes('ETH now') && !sent && (sent = signals.terminate())),
    });
    expect(sent).toBe(true);
    expect(r.code).toBe(143);
    expect(r.stderr.endsWith('Session: s-1\n')).toBe(true);
  });
});
