// The REPL through a real pseudo-terminal: the built binary inside tmux against the embedded service
// (test/helpers/tmux.ts). The service's address, key and directories reach the CLI through an env
// file the pane's shell sources, so the key is in no process's arguments (checked below).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { launchAgent, startTestService, tempDir, type TestService } from '../helpers/service.js';
import { expectAgentStream, stopService } from '../helpers/service-support.js';
import { HAS_TMUX, Pane } from '../helpers/tmux.js';
import { renderWhole } from '../helpers/markdown.js';
import { screenText } from '../helpers/screen.js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(!HAS_TMUX)(
  HAS_TMUX ? 'the REPL in a real terminal (tmux)' : 'the REPL in a real terminal: SKIPPED, tmux is not installed',
  () => {
    let fast: TestService;
    let slow: TestService;
    let panes: Pane[] = [];
    let dirs: { configDir: string; dataDir: string };

    beforeAll(async () => {
      fast = await startTestService({ tokenDelayMs: 0 });
      slow = await startTestService({ tokenDelayMs: 150 });
    });
    afterAll(async () => {
      await stopService(fast);
      await stopService(slow);
    });
    afterEach(() => {
      for (const p of panes) p.close();
      panes = [];
      if (dirs) for (const dir of [dirs.configDir, dirs.dataDir]) fs.rmSync(dir, { recursive: true, force: true });
    });

    const open = (service: TestService, args: string[]) => {
      const pane = new Pane(service, args, dirs);
      panes.push(pane);
      return pane;
    };

    const launch = async (service: TestService, name: string): Promise<string> =>
      (await launchAgent(service, { name })).agent_id;

    const memory = async (service: TestService, id: string) =>
      (await service.call('GET', `/v1/superagents/${id}/files`)).json.memory_md as string;

    it(
      'chat: a message and its reply, one session across turns, ' +
        '/new changes it, history kept 0600, Ctrl-D exits 0',
      async () => {
        dirs = { configDir: tempDir(), dataDir: tempDir() };
        const id = await launch(fast, 'scout');
        const pane = open(fast, ['chat', 'scout']);
        await pane.waitFor('the prompt', (s) => pane.prompts(s, 'scout') === 1);
        expect(pane.processArgs().join('\n')).not.toContain(fast.key);

        pane.line('remember that I prefer SOL');
        let screen = await pane.waitFor('the reply', (s) => pane.prompts(s, 'scout') === 2);
        expect(screen).toContain('scout› remember that I prefer SOL\n');
        expect(screen).toContain('Noted, I will remember: "I prefer SOL"');
        expect(await memory(fast, id)).toContain('I prefer SOL');

        pane.line('and what about ETH?');
        await pane.waitFor('the second reply', (s) => pane.prompts(s, 'scout') === 3);
        pane.line('/session');
        screen = await pane.waitFor('the session id', (s) => pane.prompts(s, 'scout') === 4);
        const first = screen.split('scout› /session\n')[1]!.match(UUID)![0];

        pane.line('/new');
        await pane.waitFor('/new', (s) => s.includes('New session'));
        pane.line('hello again');
        await pane.waitFor('the third reply', (s) => pane.prompts(s, 'scout') === 6);
        pane.line('/session');
        screen = await pane.waitFor('the new session id', (s) => pane.prompts(s, 'scout') === 7);
        const second = screen.split('scout› /session\n')[2]!.match(UUID)![0];
        expect(second).not.toBe(first);
        // memory.md holds what matters (the launch, what to remember), not one line per session
        const mem = await memory(fast, id);
        expect(
          mem
            .split('\n')
            .filter((l) => l.startsWith('- '))
            .map((l) => l.replace(/^- \d{4}-\d{2}-\d{2}: /, '')),
        ).toEqual([expect.stringMatching(/^launched on /), expect.stringContaining('I prefer SOL')]);

        pane.keys('C-d');
        expect(await pane.exitCode()).toBe(0);

        const history = path.join(dirs.dataDir, 'history', `chat-${id}`);
        expect(fs.statSync(history).mode & 0o777).toBe(0o600);
        expect(fs.readFileSync(history, 'utf8')).toBe(
          'remember that I prefer SOL\nand what about ETH?\n/new\nhello again\n/session\n',
        ); // a repeat moves to the end

        // the next run recalls it with the arrow keys
        const again = open(fast, ['chat', id.slice(0, 8)]);
        await again.waitFor('the prompt', (s) => again.prompts(s, 'scout') === 1);
        again.keys('Up', 'Up');
        await again.waitFor('the recalled line', (s) => s.endsWith('scout› hello again'));
        again.keys('C-c');
        await again.waitFor('a fresh prompt', (s) => s.endsWith('scout›'));
        again.keys('C-d');
        expect(await again.exitCode()).toBe(0);
      },
    );

    it('chat: Ctrl-C mid-reply cancels only that reply; Ctrl-C twice at an empty prompt leaves with 0', async () => {
      dirs = { configDir: tempDir(), dataDir: tempDir() };
      await launch(slow, 'slowpoke');
      const pane = open(slow, ['chat', 'slowpoke']);
      await pane.waitFor('the prompt', (s) => pane.prompts(s, 'slowpoke') === 1);
      pane.line('give me a full market overview');
      // some text arrived, and the reply (150 ms a piece) is far from over
      await pane.waitFor('the first pieces', (s) => s.split('give me a full market overview\n')[1]?.trim().length > 0);
      pane.keys('C-c');
      const cancelled = await pane.waitFor('(cancelled)', (s) => /\(cancelled\)\nslowpoke›$/.test(s));
      await sleep(600); // four more pieces' worth: nothing more may arrive
      expect(pane.screen()).toBe(cancelled);

      pane.line('/session'); // the REPL goes on, in the session the cancelled turn started
      await pane.waitFor('the session id', (s) => UUID.test(s.split('slowpoke› /session\n')[1] ?? ''));

      pane.keys('C-c');
      await pane.waitFor('the hint', (s) => s.includes('(Press Ctrl-C again or Ctrl-D to leave)'));
      pane.keys('C-c');
      expect(await pane.exitCode()).toBe(0);
    });

    it('chat: a paused agent gets a hint to resume it, and the REPL goes on after the failed turn', async () => {
      dirs = { configDir: tempDir(), dataDir: tempDir() };
      const id = await launch(fast, 'napper');
      expect((await fast.call('POST', `/v1/superagents/${id}/pause`)).status).toBe(200);
      const pane = open(fast, ['chat', 'napper']);
      await pane.waitFor('the prompt', (s) => pane.prompts(s, 'napper') === 1);
      expect(pane.screen()).toContain("napper is paused: run 'superagent resume napper'");
      pane.line('are you there?');
      await pane.waitFor(
        'the error',
        (s) =>
          s.includes('Error: napper is paused (resume it first: superagent resume napper)') &&
          pane.prompts(s, 'napper') === 2,
      );
      expect((await fast.call('POST', `/v1/superagents/${id}/resume`)).status).toBe(200);
      pane.line('are you there now?');
      const screen = await pane.waitFor('the reply', (s) => pane.prompts(s, 'napper') === 3);
      expect(screen.split('are you there now?\n')[1]).toMatch(/napper/);
      pane.line('/exit');
      expect(await pane.exitCode()).toBe(0);
    });

    it(
      'chat: each tool call the reply draws on shows as one ' + 'line on the terminal, and never inside the reply',
      async () => {
        dirs = { configDir: tempDir(), dataDir: tempDir() };
        const id = await launch(fast, 'toolie');
        // a message the default skills (portfolio-tracker, market-intel) draw tools for; a fresh
        // session asked directly calls the same tools
        const message = 'What is the price of SOL, and how is my portfolio?';
        const streamed = await fast.call('POST', `/v1/superagents/${id}/chat`, { body: { message, stream: true } });
        const { tools, content } = expectAgentStream(streamed.text, { agent_id: id, model: 'gpt-4o' });
        expect(tools.length).toBeGreaterThan(0);
        const pane = open(fast, ['chat', 'toolie']);
        await pane.waitFor('the prompt', (s) => pane.prompts(s, 'toolie') === 1);
        pane.line(message);
        const screen = await pane.waitFor('the reply', (s) => pane.prompts(s, 'toolie') === 2);
        const turn = screen.split(`toolie› ${message}\n`)[1]!.split('\ntoolie›')[0]!;
        const lines = turn.split('\n');
        const toolLines = lines.filter((l) => l.startsWith('⚙ '));
        // name(args), then its duration to a tenth of a second
        expect(toolLines).toHaveLength(tools.length);
        tools.forEach((t, i) => {
          const args = Object.entries(t.tool_args)
            .map(([k, v]) => `${k}=${v}`)
            .join(', ');
          const m = /^(.*) ✓ (\d+\.\d) s$/.exec(toolLines[i]!);
          expect(m, toolLines[i]).not.toBeNull();
          expect(m![1]).toBe(`⚙ ${t.tool_name}(${args})`);
          expect(Math.abs(Number(m![2]) - t.metrics.duration)).toBeLessThanOrEqual(0.05 + 1e-9);
        });
        // the reply itself, once (rendered as Markdown), without the tool lines or Agno's "completed in" text
        expect(lines.filter((l) => !l.startsWith('⚙ ')).join('\n')).toBe(
          await screenText(renderWhole(content, 120, { colour: true }), 120),
        );
        expect(turn).not.toContain('completed in');
        pane.keys('C-d');
        expect(await pane.exitCode()).toBe(0);
      },
    );

    it('assistant: the same REPL against the assistant', async () => {
      dirs = { configDir: tempDir(), dataDir: tempDir() };
      const pane = open(fast, ['assistant']);
      await pane.waitFor('the prompt', (s) => pane.prompts(s, 'assistant') === 1);
      pane.line('What is moving SOL today?');
      const screen = await pane.waitFor('the answer', (s) => pane.prompts(s, 'assistant') === 2);
      expect(screen.split('What is moving SOL today?\n')[1]).toContain('SOL');
      pane.line('/help');
      await pane.waitFor('the help', (s) => s.includes('/session') && pane.prompts(s, 'assistant') === 3);
      pane.keys('C-d');
      expect(await pane.exitCode()).toBe(0);
      expect(fs.readFileSync(path.join(dirs.dataDir, 'history', 'assistant'), 'utf8')).toBe(
        'What is moving SOL today?\n/help\n',
      );
    });
  },
);

describe('assistant without a terminal', () => {
  let service: TestService;
  let dirs: { configDir: string; dataDir: string };
  beforeAll(async () => {
    service = await startTestService();
    dirs = { configDir: tempDir(), dataDir: tempDir() };
  });
  afterAll(async () => {
    await stopService(service);
    for (const dir of [dirs.configDir, dirs.dataDir]) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('piped: each line a question, as chat reads a piped message; exit 0 at the end of the input', async () => {
    const r = await runCli(['assistant'], { target: service, ...dirs, input: 'What is moving SOL?\n' });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain('SOL');
  });

  it('checks --provider and --session before anything else', async () => {
    const bad = await runCli(['assistant', '--model', 'gpt-4o', '--provider', 'nope'], { target: service, ...dirs });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('nope');
    const lone = await runCli(['assistant', '--provider', 'openai'], { target: service, ...dirs });
    expect(lone.exitCode).toBe(2);
    expect(lone.stderr).toContain('--provider needs --model');
  });
});
