// The terminal closed under the CLI (a real hang-up: the tmux window killed, its pty gone), with the
// CLI typed at an interactive bash's prompt as a person runs it. SIGHUP then comes more than once at
// nearly the same time (bash passes it on to its job, the kernel sends it again as bash exits), and
// the terminal can no longer be written to or have its modes set back. Each case runs several rounds,
// as what goes wrong depends on which of those comes first: every round must keep the edit (`soul
// edit`) and end with 129, as a hung-up process does, not with Node's abort (134) or a crash (139).
// A SIGHUP sent with the terminal still there: soul-hangup.test.ts, signals-terminal.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchAgent, startTestService, tempDir, type TestService } from '../helpers/service.js';
import { stopService } from '../helpers/service-support.js';
import { HAS_TMUX, Pane } from '../helpers/tmux.js';

const START = 'I am demo.\nBe careful.\n';
const BOLD = 'I am demo.\nBe bold.\n';
const ROUNDS = 8;

async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Files under `dir`, relative to it. */
const filesUnder = (dir: string) => (fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true }) as string[]) : []);

describe.skipIf(!HAS_TMUX || process.platform !== 'linux')(
  HAS_TMUX ? 'the terminal closed under the CLI (tmux)' : 'the terminal closed: SKIPPED, tmux is not installed',
  () => {
    let service: TestService;
    let demo: string;
    const panes: Pane[] = [];
    const dirs: string[] = [];

    beforeAll(async () => {
      service = await startTestService({ tokenDelayMs: 0 });
      demo = (await launchAgent(service, { name: 'demo', soul_md: START })).agent_id;
    });
    afterAll(async () => {
      await stopService(service);
    });
    afterEach(() => {
      for (const p of panes.splice(0)) p.close();
      for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
    });

    const dir = () => {
      const made = tempDir('superagent-closed-');
      dirs.push(made);
      return made;
    };

    /** The CLI typed at a shell prompt in a terminal of its own, with dirs of its own. */
    function atPrompt(args: string[], env: Record<string, string> = {}) {
      const both = { configDir: dir(), dataDir: dir() };
      const tmp = dir();
      const pane = new Pane(service, args, both, { atPrompt: true, env: { TMPDIR: tmp, ...env } });
      panes.push(pane);
      return { pane, dataDir: both.dataDir, tmp };
    }

    it(`soul edit with the editor open: the edit kept in the data dir, exit 129 (${ROUNDS} rounds)`, async () => {
      const scripts = dir();
      const editor = path.join(scripts, 'editor');
      // saves a change, tells the test, and stays open (with a child of its own) until it is ended
      const body = `printf '${BOLD.replace(/\n/g, '\\n')}' > "$1"\nsleep 600 &\necho $$ > "$1.pid"\nwait`;
      fs.writeFileSync(editor, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
      const rounds: string[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const { pane, dataDir, tmp } = atPrompt(['soul', 'edit', 'demo', '--yes'], { EDITOR: editor });
        await until('the editor', () => filesUnder(tmp).some((f) => f.endsWith('.soul.md.pid')));
        pane.hangUp();
        const code = await pane.exitCode();
        const kept = filesUnder(path.join(dataDir, 'soul-edits')).filter((f) => f.endsWith('/demo.soul.md'));
        const keptText = kept.map((f) => fs.readFileSync(path.join(dataDir, 'soul-edits', f), 'utf8'));
        const left = filesUnder(tmp).filter((f) => f.endsWith('.soul.md'));
        rounds.push(`exit ${code}, kept ${JSON.stringify(keptText)}, left in TMPDIR ${left.length}`);
        pane.close();
      }
      expect(rounds).toEqual(Array(ROUNDS).fill(`exit 129, kept ${JSON.stringify([BOLD])}, left in TMPDIR 0`));
      expect((await service.call('GET', `/v1/superagents/${demo}/files`)).json.soul_md).toBe(START);
    });

    it(`soul edit at the upload question: the edit kept, exit 129 (${ROUNDS / 2} rounds)`, async () => {
      const scripts = dir();
      const editor = path.join(scripts, 'editor');
      fs.writeFileSync(editor, `#!/bin/sh\nprintf '${BOLD.replace(/\n/g, '\\n')}' > "$1"\n`, { mode: 0o755 });
      const rounds: string[] = [];
      for (let round = 1; round <= ROUNDS / 2; round++) {
        const { pane, dataDir } = atPrompt(['soul', 'edit', 'demo'], { EDITOR: editor });
        await pane.waitFor('the upload question', (s) => s.includes('Upload this soul.md to demo?'));
        pane.hangUp();
        const code = await pane.exitCode();
        const kept = filesUnder(path.join(dataDir, 'soul-edits')).filter((f) => f.endsWith('/demo.soul.md'));
        rounds.push(`exit ${code}, kept ${kept.length}`);
        pane.close();
      }
      expect(rounds).toEqual(Array(ROUNDS / 2).fill('exit 129, kept 1'));
    });

    it.each([
      ['chat', ['chat', 'demo'], 'demo'],
      ['assistant', ['assistant'], 'assistant'],
    ])(`the %s REPL: exit 129 (${ROUNDS / 2} rounds)`, async (_name, args, label) => {
      const codes: number[] = [];
      for (let round = 1; round <= ROUNDS / 2; round++) {
        const { pane } = atPrompt(args);
        await pane.waitFor('the prompt', (s) => pane.prompts(s, label) === 1);
        pane.hangUp();
        codes.push(await pane.exitCode());
        pane.close();
      }
      expect(codes).toEqual(Array(ROUNDS / 2).fill(129));
    });

    it.each([
      ['/exit', 0],
      ['SIGHUP sent from elsewhere (the terminal still there)', 129],
    ])('the REPL left by %s gives the terminal back as it found it (exit %i)', async (how, code) => {
      const { pane } = atPrompt(['chat', 'demo']);
      await pane.waitFor('the prompt', (s) => pane.prompts(s, 'demo') === 1);
      if (how === '/exit') pane.line('/exit');
      else pane.signal('SIGHUP');
      expect(await pane.exitCode()).toBe(code);
      // the shell's own settings: cooked and echoing, as the CLI found them (raw mode left behind shows -icanon -echo)
      const settings = `stty -a | tr -s ' ;' '\\n\\n' | grep -x -e '-*icanon' -e '-*echo' | sort | tr '\\n' ' '`;
      pane.line(`${settings}; echo ':mo''des'`);
      const modes = /^(-?\w+ -?\w+) :modes$/m;
      const screen = await pane.waitFor('the modes', (s) => modes.test(s));
      expect(modes.exec(screen)?.[1]).toBe('echo icanon');
    });
  },
);
