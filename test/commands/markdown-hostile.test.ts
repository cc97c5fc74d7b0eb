// Replies that broke the streaming renderer on a terminal. A fence the
// stream did not hold back for the highlighter (in a list in a quote), a character split between two
// pieces, code past what one reply may colour, Ctrl-C while a reply that had all arrived was still
// being drawn, SIGTERM mid-reply, a terminal too small to lay out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFor, FakeSignals, type RunOptions } from '../helpers/context.js';
import { HOSTED_AGENT, startHostedMock, type HostedMock } from '../helpers/hosted-mock.js';
import { screenText } from '../helpers/screen.js';

const ID = HOSTED_AGENT.agent_id;
const events = (pieces: string[]) =>
  [
    ...pieces.map((content) => ({ event: 'RunContent', content, session_id: 's-1' })),
    { event: 'RunCompleted', content: pieces.join(''), session_id: 's-1' },
  ]
    .map((e) => `data: ${JSON.stringify(e)}\n\n`)
    .join('') + 'data: [DONE]\n\n';

const CODE_LINE = 'def step(n): return "s" + str(n)  # a comment';
/** ~80 KiB of python in fences of 100 lines, then one last fence whose line is findable */
const LOTS_OF_CODE =
  Array.from({ length: 18 }, () => '```python\n' + `${CODE_LINE}\n`.repeat(100) + '```\n\n').join('') +
  '```python\ndef last_one(): return 1\n```\n';

const REPLIES: Record<string, { pieces: string[]; delayMs?: number }> = {
  'nested fence': { pieces: ['> - a\n>   - b\n>     ~~~\n>     code here\n>     ~~~\n\nafter\n'] },
  'split character': { pieces: ['smile \ud83d', '\ude00 done\n'] },
  'lots of code': { pieces: [LOTS_OF_CODE] },
  slow: { pieces: ['| a | b |\n', '|---|---|\n', '| 1 | 2 |\n', '| 3 | 4 |\n', 'more words\n'], delayMs: 30 },
};

let mock: HostedMock;
beforeAll(async () => {
  mock = await startHostedMock(({ method, path, body }) => {
    if (method === 'GET' && path === `/v1/superagents/${ID}`) return { json: HOSTED_AGENT };
    const reply = REPLIES[String(body?.message)];
    if (method === 'POST' && path === `/v1/superagents/${ID}/chat` && reply)
      return {
        sse: reply.delayMs ? events(reply.pieces).split(/(?<=\n\n)/) : events(reply.pieces),
        delayMs: reply.delayMs,
      };
    return undefined;
  });
});
afterAll(async () => {
  await mock.close();
});

const cli = cliFor(() => ({ url: mock.url, key: 'gb_sk_test_0123456789abcdef' }));
const tty = (extra: Partial<RunOptions> = {}, colour = false): RunOptions => ({
  tty: { stdout: true, stderr: true, columns: 80 },
  env: { TERM: 'xterm-256color', ...(colour ? {} : { NO_COLOR: '1' }) },
  ...extra,
});

describe('hostile replies on a terminal', () => {
  it('a fence in a list in a quote (held back by nothing) renders, exit 0, not "This is a bug"', async () => {
    const r = await cli(['chat', ID, 'nested fence'], tty());
    expect([r.code, r.stderr]).toEqual([0, 'Session: s-1\n']);
    const screen = await screenText(r.stdout, 80);
    expect(screen).toContain('code here');
    expect(screen).toMatch(/\nafter$/);
    expect(screen).not.toContain('> -');
  });

  it('a character split between two pieces is shown whole, with no stale row', async () => {
    const r = await cli(['chat', ID, 'split character'], tty());
    expect(r.code, r.stderr).toBe(0);
    expect(await screenText(r.stdout, 80)).toBe('smile 😀 done');
  });

  it('code past what one reply may colour is shown uncoloured (highlighting has a cost per character)', async () => {
    const r = await cli(['chat', ID, 'lots of code'], tty({}, true));
    expect(r.code, r.stderr).toBe(0);
    // the plain tail came first; what stays is drawn after it: the last of each line written
    const lines = r.stdout.split('\n');
    expect(r.stdout).toMatch(/\u001b\[[0-9;]*mdef\b/); // the first blocks are coloured
    const last = lines.findLast((l) => l.includes('last_one'))!;
    expect(last).toBe('def last_one(): return 1');
  });

  it('Ctrl-C while a reply that had all arrived is being drawn: exit 130, not 0', async () => {
    const signals = new FakeSignals();
    let pressed = false;
    const r = await cli(
      ['chat', ID, 'lots of code'],
      tty({ signals, onStdout: () => void (pressed ||= signals.interrupt()) }),
    );
    expect(pressed).toBe(true);
    expect(r.code).toBe(130);
  });

  it(
    'SIGTERM mid-reply (timeout 60 superagent chat …): what ' + 'came is drawn rendered, the session said, exit 143',
    async () => {
      const signals = new FakeSignals();
      let sent = false;
      const r = await cli(
        ['chat', ID, 'slow'],
        tty({
          signals,
          onStdout: (_chunk, all) =>
            void (all.includes('| 3 |') || all.includes('3 │') ? (sent ||= signals.terminate()) : undefined),
        }),
      );
      expect(sent).toBe(true);
      expect(r.code).toBe(143);
      expect(r.stderr).toContain('Session: s-1\n');
      const screen = await screenText(r.stdout, 80);
      expect(screen).not.toContain('|---|');
      expect(screen).toMatch(/^ *a │ b/m);
    },
  );

  it.each([
    ['9 columns', { columns: 9 }],
    ['1 row', { columns: 80, rows: 1 }],
  ])('a terminal of %s gets the text as it came, not a layout for 80×24', async (_name, size) => {
    const r = await cli(['chat', ID, 'nested fence'], { ...tty(), tty: { stdout: true, stderr: true, ...size } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(REPLIES['nested fence']!.pieces.join(''));
  });
});
