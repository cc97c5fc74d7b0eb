// A new user's first ten minutes, where only a real terminal shows it (tmux, the built binary):
// tables that fit 80 and 120 columns; the embedded service's banner once per data dir; a spinner on
// a slow service that leaves nothing behind; Ctrl-C in a one-shot chat and at a question; the chat REPL
// (a paste is one message, a multi-line message is one history entry, Tab, --json refused, and a
// reply piped through tee is not overwritten by the prompt). And the README's completion install
// lines in a fresh home.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent, type TestService } from '../helpers/service.js';
import { HAS_TMUX, Pane, type PaneOptions } from '../helpers/tmux.js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
/** the frames of ora's default spinner */
const SPINNER_FRAME = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const scratch = perTest();
const panes: Pane[] = [];
afterEach(() => {
  for (const p of panes.splice(0)) p.close();
});

/** A fresh home (its data dir inside it, as the README's reader has) and config dir. */
function freshHome() {
  const home = scratch.scratch('superagent-home-');
  return { home, configDir: path.join(home, 'config'), dataDir: path.join(home, 'data') };
}

function open(
  service: TestService | undefined,
  args: string[],
  options: PaneOptions & { dirs?: { configDir: string; dataDir: string; home?: string } } = {},
): Pane {
  const dirs = options.dirs ?? freshHome();
  const pane = new Pane(service, args, dirs, {
    ...options,
    env: { ...(dirs.home ? { HOME: dirs.home } : {}), ...options.env },
  });
  panes.push(pane);
  return pane;
}

describe.skipIf(!HAS_TMUX)(
  HAS_TMUX
    ? 'first minutes in a real terminal (tmux)'
    : 'first minutes in a real terminal: SKIPPED, tmux is not installed',
  () => {
    describe('tables fit the terminal', () => {
      const LONG = 'a-very-long-agent-name-that-someone-typed-for-their-btc-swing-trader-x';

      async function agents(service: TestService) {
        expect(LONG).toHaveLength(70);
        const long = await launchAgent(service, { name: LONG });
        const paused = await launchAgent(service, {
          name: 'napper',
          model: 'claude-sonnet-4-20250514',
          model_provider: 'anthropic',
        });
        expect((await service.call('POST', `/v1/superagents/${paused.agent_id}/pause`)).status).toBe(200);
        const demo = await launchAgent(service, { name: 'demo' });
        return [
          { id: long.agent_id, status: 'running' },
          { id: paused.agent_id, status: 'paused' },
          { id: demo.agent_id, status: 'running' },
        ];
      }

      it.each([[80], [120]])(
        'list at %i columns: no line longer than the terminal, the long name cut with …, ids and statuses whole',
        async (width) => {
          const service = await scratch.service();
          const rows = await agents(service);
          const pane = open(service, ['list'], { width });
          expect(await pane.exitCode()).toBe(0);
          const screen = pane.screen(); // wrapped lines joined: a line that did not fit is longer than the width here
          const lines = screen.split('\n');
          for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(width);
          expect(lines[0]).toMatch(/^NAME +ID +STATUS +MODEL +CREATED$/);
          for (const { id, status } of rows) {
            const row = lines.find((l) => l.includes(id.slice(0, 8)));
            expect(row, id).toBeDefined();
            expect(row!.split(/ {2,}/)).toContain(status);
          }
          const longRow = lines.find((l) => l.includes(rows[0]!.id.slice(0, 8)))!;
          expect(longRow).toMatch(/^a-very-long-agent-\S*… +/); // cut before the model is
          expect(longRow).not.toContain(LONG);
        },
      );

      it('piped (list | cat) keeps the whole name', async () => {
        const service = await scratch.service();
        const rows = await agents(service);
        const pane = open(service, ['list'], { width: 80, pipe: '| cat' });
        expect(await pane.exitCode()).toBe(0);
        const lines = pane.screen().split('\n');
        expect(lines.find((l) => l.startsWith(rows[0]!.id))).toContain(LONG);
        expect(pane.screen()).not.toContain('…');
      });
    });

    describe('the banner, once per data dir', () => {
      const LINE_1 = 'Using the embedded local service; its state is in ~/data';
      const LINE_2 = "'superagent login' connects to a hosted one.";

      it(
        'the first command in a fresh data dir says it in two ' + 'lines under 80 columns with ~; the second does not',
        async () => {
          const dirs = freshHome();
          const first = open(undefined, ['list'], { dirs, width: 80 });
          expect(await first.exitCode()).toBe(0);
          const rows = first.rows();
          expect(rows.slice(0, 2)).toEqual([LINE_1, LINE_2]);
          for (const row of rows.slice(0, 2)) expect([...row].length).toBeLessThan(80);
          expect(first.screen().split('\n').slice(0, 2)).toEqual([LINE_1, LINE_2]); // not wrapped either

          const second = open(undefined, ['list'], { dirs, width: 80 });
          expect(await second.exitCode()).toBe(0);
          expect(second.screen()).toBe("No agents yet. Launch one with 'superagent launch --name NAME'.");
        },
      );

      it('launch in a fresh data dir: the banner comes before the first question', async () => {
        const pane = open(undefined, ['launch'], { width: 80 });
        const screen = await pane.waitFor('the Name question', (s) => /Name/.test(s));
        const lines = screen.split('\n');
        expect(lines.slice(0, 2)).toEqual([LINE_1, LINE_2]);
        expect(lines.findIndex((l) => l.includes('Name'))).toBeGreaterThan(1);
        // Ctrl-C at the question: the line ended, nothing more said
        pane.keys('C-c');
        expect(await pane.exitCode()).toBe(130);
        expect(pane.screen()).not.toMatch(/Error|Interrupted/);
      });
    });

    describe('a slow service', () => {
      /** every answer of the service 2 s late, as with `superagent server --fault-latency 2000` */
      const slowService = () => scratch.service({ faults: { latencyMs: 2000 } });

      it.each([
        ['a one-shot chat', ['chat', 'demo', 'hello there'], ['Waiting for demo…', 'Waiting for the service…']],
        ['launch', ['launch', '--name', 'scout'], ['Waiting for the service…']],
      ])(
        '%s shows a spinner on stderr through each wait (the list, then the request), and leaves none behind',
        async (_, args, labels) => {
          const service = await slowService();
          await launchAgent(service, { name: 'demo' });
          const pane = open(service, args, { width: 80 });
          // what the spinner said while the command ran: each wait is 2 s long, the screen is read every 50 ms
          const seen = new Set<string>();
          let exited = false;
          const code = pane.exitCode(20_000).finally(() => (exited = true));
          while (!exited) {
            for (const line of pane.screen().split('\n')) {
              const m = /^(\S) (Waiting for .*…) \d+s$/.exec(line);
              if (m && SPINNER_FRAME.test(m[1]!)) seen.add(m[2]!);
            }
            await sleep(50);
          }
          expect(await code).toBe(0);
          expect([...seen].sort()).toEqual(labels);
          const screen = pane.screen();
          expect(screen).not.toMatch(SPINNER_FRAME);
          expect(screen).not.toContain('Waiting for');
          if (args[0] === 'chat') expect(screen).toMatch(new RegExp(`\\nSession: ${UUID.source}$`));
          else expect(screen).toMatch(/✓ Launched scout/);
        },
      );
    });

    describe('Ctrl-C during a one-shot chat', () => {
      const isText = (l: string) => l.trim() !== '' && !l.startsWith('⚙');

      it.each([
        ['in the middle of a line of the reply', (last: string, x: number) => isText(last) && x > 0],
        [
          'after a tool line, the cursor at the start of a line',
          (last: string, x: number) => last.startsWith('⚙') && x === 0,
        ],
      ])('%s: the session line is a line of its own, ^C not glued to it', async (_, moment) => {
        // pieces a second apart: the moment of the Ctrl-C is certain
        const service = await scratch.service({ tokenDelayMs: 1000 });
        await launchAgent(service, { name: 'demo' });
        const pane = open(service, ['chat', 'demo', 'give me a long market overview']);
        await pane.waitFor('the moment', (s) => moment(s.split('\n').at(-1)!, pane.cursorX()));
        pane.keys('C-c');
        expect(await pane.exitCode()).toBe(130);
        const lines = pane.screen().split('\n');
        expect(lines.at(-1), lines.join('\n')).toMatch(new RegExp(`^Session: ${UUID.source}$`));
        expect(lines.filter((l) => l.includes('Session:'))).toHaveLength(1);
        expect(lines.join('\n')).not.toMatch(/Error|Interrupted/);
      });
    });

    describe('the chat REPL', () => {
      async function repl(
        options: PaneOptions & { args?: string[]; service?: Parameters<typeof scratch.service>[0] } = {},
      ) {
        const service = await scratch.service(options.service);
        const { agent_id: id } = await launchAgent(service, { name: 'demo' });
        service.cliRequests();
        const pane = open(service, ['chat', 'demo', ...(options.args ?? [])], options);
        await pane.waitFor('the prompt', (s) => pane.prompts(s, 'demo') === 1);
        /** the messages the REPL sent, in order */
        const sent = () =>
          service
            .cliRequests()
            .filter((q) => q.method === 'POST' && q.path === `/v1/superagents/${id}/chat`)
            .map((q) => q.body.message as string);
        return { service, pane, sent };
      }

      it('a pasted block of two lines is one message, its echo apart from the reply', async () => {
        const { pane, sent } = await repl();
        pane.paste('what about BTC?\nand ETH?');
        await pane.waitFor('the pasted lines', (s) => s.includes('and ETH?'));
        pane.keys('Enter');
        const screen = await pane.waitFor('the reply', (s) => pane.prompts(s, 'demo') === 2);
        expect(sent()).toEqual(['what about BTC?\nand ETH?']);
        const turn = screen.split('demo› what about BTC?\n')[1]!;
        expect(turn.split('\n')[0]).toMatch(/^(… )?and ETH\?$/);
        pane.keys('C-d');
        expect(await pane.exitCode()).toBe(0);
      });

      it(
        'a message typed over several lines comes back whole ' + 'with the up arrow, and is sent the same again',
        async () => {
          const { pane, sent } = await repl();
          pane.line('first line \\');
          pane.line('second line');
          await pane.waitFor('the reply', (s) => pane.prompts(s, 'demo') === 2);
          pane.keys('Up');
          const recalled = await pane.waitFor('the recalled message', (s) =>
            /demo› .*first line.*second line$/.test(s.split('\n').at(-1)!),
          );
          expect(recalled.split('\n').at(-1)).not.toBe('demo› second line');
          pane.keys('Enter');
          await pane.waitFor('the second reply', (s) => pane.prompts(s, 'demo') >= 3);
          const messages = sent();
          expect(messages).toHaveLength(2);
          expect(messages[0]).toBe('first line \nsecond line');
          expect(messages[1]).toBe(messages[0]);
          pane.keys('C-d');
          expect(await pane.exitCode()).toBe(0);
        },
      );

      it('Tab completes slash commands and skill names; a mistyped command gets a suggestion', async () => {
        const { pane } = await repl();
        const lastLine = (s: string) => s.split('\n').at(-1);
        // each Tab alone in its read, as a user's is: readline completes a Tab only when it is the last
        // key of a read (one followed by more keys in the same read is a paste, and inserted)
        const tab = async (typed: string, completed: string) => {
          pane.type(typed);
          await pane.waitFor(typed, (s) => lastLine(s)!.endsWith(typed));
          pane.keys('Tab');
          await pane.waitFor(completed, (s) => lastLine(s) === completed);
        };
        await tab('/he', 'demo› /help');
        pane.keys('C-u');
        // one command matches: it comes with the space its argument follows (the screen's last line is
        // read without its trailing spaces; the next completion shows the space was there)
        await tab('/ena', 'demo› /enable');
        await tab('hyper', 'demo› /enable hyperliquid');
        pane.keys('Enter');
        // said of the agent by its name, as the CLI says it
        await pane.waitFor('enabled', (s) => s.includes('✓ Enabled hyperliquid on demo'));
        // /disable offers the skills that are on (hyperliquid now), /enable those that are off
        await tab('/disable hyper', 'demo› /disable hyperliquid');
        pane.keys('C-u');
        pane.line('/exi');
        // one line, as every suggestion is
        await pane.waitFor('the suggestion', (s) =>
          /^Unknown command '\/exi' \(did you mean '\/exit'\?\); \/help lists the commands$/m.test(s),
        );
        pane.line('/exit');
        expect(await pane.exitCode()).toBe(0);
      });

      it('chat demo --json on a terminal is refused with a one-line reason, exit 2', async () => {
        const service = await scratch.service();
        await launchAgent(service, { name: 'demo' });
        const pane = open(service, ['chat', 'demo', '--json']);
        expect(await pane.exitCode()).toBe(2);
        const reason =
          "--json is for one message, not the REPL (give the message: superagent chat AGENT --json 'message')";
        // the reason in one line; under --json the same error follows as a JSON object, for scripts
        expect(pane.screen().split('\n')).toEqual([
          `Error: ${reason}`,
          JSON.stringify({ error: { message: reason, exit_code: 2 } }),
        ]);
      });

      it('stdout piped through tee: the prompt never overwrites the reply’s last line', async () => {
        const log = path.join(scratch.scratch('superagent-tee-'), 'reply.log');
        // replies streamed at the default service's pace (20 ms a piece), as the user saw it
        const { pane } = await repl({ pipe: `| tee ${log}`, service: { tokenDelayMs: 20 } });
        const messages = ['what is your view on BTC today?', 'and on ETH?', 'status report', 'what about SOL?'];
        for (const [i, message] of messages.entries()) {
          pane.line(message);
          const lastLine = () => fs.readFileSync(log, 'utf8').trimEnd().split('\n').at(-1)!;
          const screen = await pane.waitFor(
            `reply ${i + 1}`,
            (s) => pane.prompts(s, 'demo') === i + 2 && s.includes(lastLine()),
          );
          const lines = screen.split('\n');
          // every line tee wrote is a whole line on the screen, and the prompt comes after the last one, on its own
          for (const line of fs.readFileSync(log, 'utf8').split('\n').filter(Boolean))
            expect(lines, line).toContain(line);
          expect(lines.slice(-2)).toEqual([lastLine(), 'demo›']);
        }
        pane.keys('C-d');
        expect(await pane.exitCode()).toBe(0);
      });

      it('the REPL continues the last conversation of a one-shot chat; --new starts a fresh one', async () => {
        const dirs = freshHome();
        const service = await scratch.service();
        await launchAgent(service, { name: 'demo' });
        const oneShot = open(service, ['chat', 'demo', 'hello'], { dirs });
        expect(await oneShot.exitCode()).toBe(0);
        const session = oneShot.screen().match(UUID)![0];
        const again = open(service, ['chat', 'demo'], { dirs });
        await again.waitFor('the prompt', (s) => again.prompts(s, 'demo') === 1);
        expect(again.screen()).toContain('Continuing your last conversation; /new starts a fresh one.');
        again.line('/session');
        await again.waitFor('the session', (s) => s.includes(`demo› /session\n${session}`));
        again.keys('C-d');
        expect(await again.exitCode()).toBe(0);
        const fresh = open(service, ['chat', 'demo', '--new'], { dirs });
        await fresh.waitFor('the prompt', (s) => fresh.prompts(s, 'demo') === 1);
        expect(fresh.screen()).not.toContain('Continuing');
        fresh.line('/session');
        await fresh.waitFor('no session yet', (s) => s.includes('No session yet'));
        fresh.keys('C-d');
        expect(await fresh.exitCode()).toBe(0);
      });
    });
  },
);

describe("the README's completion install lines work in a fresh home", () => {
  it('each line of the Shell completion block runs, and leaves the three scripts where it says', () => {
    const readme = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../../README.md'), 'utf8');
    const section = readme.split('## Shell completion')[1]!;
    const block = /```(?:sh|bash|shell)?\n([\s\S]*?)```/.exec(section)![1]!;
    const commands = block.split('\n').filter((l) => l.trim() !== '' && !l.trim().startsWith('#'));
    expect(commands.join('\n')).toContain('superagent completion bash');
    const { home } = freshHome();
    // `superagent` on the PATH is the built binary
    const bin = path.join(home, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'superagent'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`, {
      mode: 0o755,
    });
    const env = {
      PATH: `${bin}:${process.env.PATH}`,
      HOME: home,
      SUPERAGENT_CONFIG_DIR: path.join(home, 'config'),
      SUPERAGENT_DATA_DIR: path.join(home, 'data'),
    };
    for (const command of commands) execFileSync('sh', ['-e', '-c', command], { env, stdio: 'pipe' });
    const written = commands.flatMap((c) =>
      [...c.matchAll(/superagent completion (\w+) > *(~\/\S+)/g)].map(
        (m) => [m[1]!, m[2]!.replace('~', home)] as const,
      ),
    );
    expect(written.map(([shell]) => shell).sort()).toEqual(['bash', 'fish', 'zsh']);
    for (const [shell, file] of written)
      expect(fs.readFileSync(file, 'utf8'), file).toBe(
        execFileSync(process.execPath, [BIN, 'completion', shell], { env, encoding: 'utf8' }),
      );
  });
});
