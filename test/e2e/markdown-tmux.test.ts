// Replies rendered as Markdown in a real terminal: the built binary in tmux, a reply with a list, a table and a code
// block streaming in slowly from a loopback stand-in for the hosted service. While it streams, the
// blocks already complete are on the screen rendered; at the end, the screen is the whole reply
// rendered, at 80 and at 120 columns. With --raw, and piped, the reply's bytes as before.
import fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { HOSTED_AGENT, startHostedMock, type HostedMock } from '../helpers/hosted-mock.js';
import { fixture, renderWhole } from '../helpers/markdown.js';
import { screenText } from '../helpers/screen.js';
import { tempDir } from '../helpers/service.js';
import { HAS_TMUX, Pane } from '../helpers/tmux.js';

const ID = HOSTED_AGENT.agent_id;
const REPLY = fixture('streamed');
const KEY = 'gb_sk_test_0123456789abcdef';
const PIECE_MS = 40;

/** The reply in pieces of a few characters, as an Agno stream, a piece every PIECE_MS. */
function pieces(text: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += 9)
    out.push(`data: ${JSON.stringify({ event: 'RunContent', content: text.slice(i, i + 9), session_id: 's-1' })}\n\n`);
  out.push(`data: ${JSON.stringify({ event: 'RunCompleted', content: text, session_id: 's-1' })}\n\ndata: [DONE]\n\n`);
  return out;
}

let mock: HostedMock;
let panes: Pane[] = [];
let dirs: { configDir: string; dataDir: string } | undefined;

beforeAll(async () => {
  mock = await startHostedMock(({ method, path }) => {
    if (method === 'GET' && path === `/v1/superagents/${ID}`) return { json: HOSTED_AGENT };
    if (method === 'POST' && path === `/v1/superagents/${ID}/chat`) return { sse: pieces(REPLY), delayMs: PIECE_MS };
    return undefined;
  });
});
afterAll(async () => {
  await mock.close();
});
afterEach(() => {
  for (const p of panes) p.close();
  panes = [];
  // a test that opened no pane (the piped one) made no dirs: nothing to remove, whatever ran before
  for (const dir of dirs ? [dirs.configDir, dirs.dataDir] : []) fs.rmSync(dir, { recursive: true, force: true });
  dirs = undefined;
});

const open = (args: string[], columns: number) => {
  dirs = { configDir: tempDir(), dataDir: tempDir() };
  const pane = new Pane({ url: mock.url, key: KEY }, args, dirs, { width: columns, height: 40 });
  panes.push(pane);
  return pane;
};

/** The screen without the stderr lines (the session id) after the reply. */
const replyOf = (screen: string) => screen.replace(/\n?Session: s-1$/, '');

describe.skipIf(!HAS_TMUX)(
  HAS_TMUX
    ? 'a streamed reply in a real terminal (tmux)'
    : 'a streamed reply in a real terminal: SKIPPED, tmux is not installed',
  () => {
    it.each([80, 120])(
      'at %i columns: rendered block by block while it streams, the whole reply rendered at the end',
      async (columns) => {
        const expected = await screenText(renderWhole(REPLY, columns, { colour: true }), columns);
        const pane = open(['chat', ID, 'SOL setup?'], columns);
        // the list is drawn rendered (its bullets) while the end of the reply has not arrived yet
        const early = await pane.waitFor('the list, rendered', (s) =>
          s.includes('• Open interest rose 22.9% in a day'),
        );
        expect(early).not.toContain('Simulation only');
        expect(early).not.toContain('**Funding**');
        expect(await pane.exitCode(20_000)).toBe(0);
        const screen = replyOf(pane.screen());
        expect(screen).toBe(expected);
        expect(screen).toContain('Entry  │ $185.10 │ after a retest of the breakout');
        expect(screen).toContain('def size(balance, risk=0.01, stop=0.03):');
        expect(screen).not.toContain('|--');
      },
    );

    it('--raw: the reply as the service sent it, line for line', async () => {
      const pane = open(['chat', ID, 'SOL setup?', '--raw'], 120);
      expect(await pane.exitCode(20_000)).toBe(0);
      expect(replyOf(pane.screen())).toBe(REPLY.trimEnd());
    });

    it('piped: byte for byte what the service sent', async () => {
      const r = await runCli(['chat', ID, 'SOL setup?'], {
        target: { url: mock.url, key: KEY },
        env: { TERM: 'xterm-256color' },
      });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toBe(REPLY);
    });
  },
);
