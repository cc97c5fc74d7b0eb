// SIGHUP to `soul edit` while its editor runs, with real processes in a real terminal (tmux): the
// editor, and what it started, end with the CLI (none left running, orphaned), the CLI exits 129
// saying where the edit is kept, and the next `soul edit` of that agent, on a terminal, offers to
// resume it; yes opens the kept edit, and once it is uploaded nothing is left kept. An editor that
// ignores the signal is killed after a grace. SIGHUP at the upload question keeps the edit the same
// way. The messages and every other case, with fake signals and editors:
// test/commands/soul-edit-hangup.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchAgent, startTestService, tempDir, type TestService } from '../helpers/service.js';
import { stopService } from '../helpers/service-support.js';
import { HAS_TMUX, Pane } from '../helpers/tmux.js';

const START = 'I am demo.\nBe careful.\n';
const BOLD = 'I am demo.\nBe bold.\n';

/** Whether a process runs (a zombie, ended and waiting to be reaped, does not). */
function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!HAS_TMUX || process.platform !== 'linux')(
  HAS_TMUX ? 'SIGHUP during soul edit (tmux)' : 'SIGHUP during soul edit: SKIPPED, tmux is not installed',
  () => {
    let service: TestService;
    let demo: string;
    const panes: Pane[] = [];
    const dirs: string[] = [];
    const pids: number[] = [];

    beforeAll(async () => {
      service = await startTestService();
      demo = (await launchAgent(service, { name: 'demo', soul_md: START })).agent_id;
    });
    afterAll(async () => {
      await stopService(service);
    });
    afterEach(() => {
      for (const pid of pids.splice(0)) if (running(pid)) process.kill(pid, 'SIGKILL');
      for (const p of panes.splice(0)) p.close();
      for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
    });

    const dir = () => {
      const made = tempDir('superagent-hangup-');
      dirs.push(made);
      return made;
    };

    /** An EDITOR script: `body` runs after it wrote its PID to `<scripts>/editor.pid`. */
    function editorScript(scripts: string, name: string, body: string): string {
      const file = path.join(scripts, name);
      fs.writeFileSync(file, `#!/bin/sh\necho $$ > '${scripts}/editor.pid'\n${body}\n`, { mode: 0o755 });
      return file;
    }

    function open(args: string[], both: { configDir: string; dataDir: string }, env: Record<string, string>): Pane {
      const pane = new Pane(service, args, both, { env: { TMPDIR: dir(), ...env } });
      panes.push(pane);
      return pane;
    }

    /** Reads a PID a script wrote, once it is there; remembered, so a test that fails leaves nothing running. */
    async function pidIn(file: string): Promise<number> {
      await until(file, () => fs.existsSync(file) && fs.readFileSync(file, 'utf8').endsWith('\n'));
      const pid = Number(fs.readFileSync(file, 'utf8'));
      pids.push(pid);
      return pid;
    }

    it(
      'the editor and its child end with the CLI (exit 129); the ' +
        'next soul edit offers the kept edit, then uploads it',
      async () => {
        const scripts = dir();
        const both = { configDir: dir(), dataDir: dir() };
        // saves a change, starts a child of its own, and waits for it
        const body = `printf 'I am demo.\\nBe bold.\\n' > "$1"\nsleep 600 &\necho $! > '${scripts}/child.pid'\nwait`;
        const editor = editorScript(scripts, 'slow-editor', body);
        const first = open(['soul', 'edit', 'demo', '--yes'], both, { EDITOR: editor });
        const editorPid = await pidIn(path.join(scripts, 'editor.pid'));
        const childPid = await pidIn(path.join(scripts, 'child.pid'));
        first.signal('SIGHUP');
        expect(await first.exitCode()).toBe(129);
        expect([running(editorPid), running(childPid)]).toEqual([false, false]);
        const screen = first.screen();
        const kept = /your edit is kept in (\S+) /.exec(screen)?.[1];
        expect(kept, screen).toMatch(new RegExp(`^${both.dataDir}/soul-edits/`));
        expect(screen).toContain("('superagent soul edit demo' offers to resume it; to upload it as it is: ");
        expect(fs.readFileSync(kept!, 'utf8')).toBe(BOLD);
        expect((await service.call('GET', `/v1/superagents/${demo}/files`)).json.soul_md).toBe(START);

        // the next run, on a terminal: offered, resumed (the editor sees the kept edit), uploaded
        const seen = path.join(scripts, 'seen.md');
        const look = editorScript(scripts, 'look', `cp "$1" '${seen}'`);
        const second = open(['soul', 'edit', 'demo'], both, { EDITOR: look });
        await second.waitFor('the offer', (s) => s.includes("Resume your edit of demo's soul.md, kept"));
        expect(second.screen()).toContain(`An edit of demo's soul.md that was not uploaded was kept `);
        second.keys('Enter');
        await second.waitFor('the upload question', (s) => s.includes('Upload this soul.md to demo?'));
        expect(fs.readFileSync(seen, 'utf8')).toBe(BOLD);
        second.keys('Enter');
        expect(await second.exitCode()).toBe(0);
        expect((await service.call('GET', `/v1/superagents/${demo}/files`)).json.soul_md).toBe(BOLD);
        expect(fs.readdirSync(path.dirname(path.dirname(kept!)))).toEqual([]);
        await service.call('PUT', `/v1/superagents/${demo}/soul`, { body: { soul_md: START } });
      },
    );

    it('SIGHUP at the upload question: exit 129, the cursor shown again, the edit kept for the next run', async () => {
      const scripts = dir();
      const both = { configDir: dir(), dataDir: dir() };
      const editor = editorScript(scripts, 'quick-editor', `printf 'I am demo.\nBe bold.\n' > "$1"`);
      const pane = open(['soul', 'edit', 'demo'], both, { EDITOR: editor });
      await pane.waitFor('the upload question', (s) => s.includes('Upload this soul.md to demo?'));
      pane.signal('SIGHUP');
      expect(await pane.exitCode()).toBe(129);
      expect(pane.cursorVisible()).toBe(true);
      const kept = /your edit is kept in (\S+) /.exec(pane.screen())?.[1];
      expect(kept, pane.screen()).toMatch(new RegExp(`^${both.dataDir}/soul-edits/`));
      expect(fs.readFileSync(kept!, 'utf8')).toBe(BOLD);
      expect((await service.call('GET', `/v1/superagents/${demo}/files`)).json.soul_md).toBe(START);
    });

    it(
      'an editor that ignores SIGHUP and SIGTERM is killed ' + 'after a grace: exit 129, nothing left running',
      async () => {
        const scripts = dir();
        const both = { configDir: dir(), dataDir: dir() };
        const editor = editorScript(scripts, 'deaf-editor', `trap '' HUP TERM\nwhile :; do sleep 1; done`);
        const pane = open(['soul', 'edit', 'demo', '--yes'], both, { EDITOR: editor });
        const editorPid = await pidIn(path.join(scripts, 'editor.pid'));
        pane.signal('SIGHUP');
        expect(await pane.exitCode(15_000)).toBe(129);
        expect(running(editorPid)).toBe(false);
        expect(pane.screen()).toContain(`your edit is kept in ${both.dataDir}/soul-edits/`);
      },
    );
  },
);
