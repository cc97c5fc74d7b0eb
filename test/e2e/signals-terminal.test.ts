// A SIGTERM or SIGHUP sent from elsewhere (`kill`) leaves the terminal as it was
// found. The REPL switches bracketed paste off again (left on, every later paste into the shell
// arrives wrapped in ESC[200~ … ESC[201~), and a prompt shows the cursor it hid. Only a real
// terminal shows either: the built binary in tmux.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { launchAgent, startTestService, tempDir, type TestService } from '../helpers/service.js';
import { stopService } from '../helpers/service-support.js';
import { HAS_TMUX, Pane } from '../helpers/tmux.js';

describe.skipIf(!HAS_TMUX)(
  HAS_TMUX ? 'signals leave the terminal as it was (tmux)' : 'signals and the terminal: SKIPPED, tmux is not installed',
  () => {
    let service: TestService;
    const panes: Pane[] = [];
    const dirs: string[] = [];

    beforeAll(async () => {
      service = await startTestService({ tokenDelayMs: 0 });
      await launchAgent(service, { name: 'scout' });
    });
    afterAll(async () => {
      await stopService(service);
    });
    afterEach(() => {
      for (const p of panes.splice(0)) p.close();
      for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
    });

    const open = (target: TestService | undefined, args: string[]) => {
      const both = { configDir: tempDir(), dataDir: tempDir() };
      dirs.push(both.configDir, both.dataDir);
      const pane = new Pane(target, args, both);
      panes.push(pane);
      return pane;
    };

    /** After the CLI has exited: a paste into the shell arrives as it is, not wrapped in ESC[200~ … ESC[201~. */
    async function expectPasteUnwrapped(pane: Pane): Promise<void> {
      pane.paste('pasted-after-exit');
      const screen = await pane.waitFor('the paste echoed by the shell', (s) => s.includes('pasted-after-exit'));
      expect(screen).not.toContain('200~');
    }

    it.each([
      ['SIGTERM', 143],
      ['SIGHUP', 129],
      ['SIGINT', 130], // sent to the process (kill -INT): Ctrl-C at the keyboard is a key in the REPL
    ] as const)('the chat REPL ended by %s switches bracketed paste off and exits %i', async (signal, code) => {
      const pane = open(service, ['chat', 'scout']);
      await pane.waitFor('the prompt', (s) => pane.prompts(s, 'scout') === 1);
      pane.signal(signal);
      expect(await pane.exitCode()).toBe(code);
      await expectPasteUnwrapped(pane);
    });

    it('Ctrl-C while the spinner waits for a service that does not answer: its line is erased, exit 130', async () => {
      // a service that takes every request and never answers
      const held: http.ServerResponse[] = [];
      const slow = http.createServer((_req, res) => void held.push(res));
      await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
      try {
        const pane = open(
          {
            url: `http://127.0.0.1:${(slow.address() as AddressInfo).port}`,
            key: 'gb_sk_test_0123456789abcdef',
          } as TestService,
          ['chat', 'scout', 'hi'],
        );
        await pane.waitFor('the spinner', (s) => s.includes('Waiting for the service'));
        pane.keys('C-c');
        expect(await pane.exitCode()).toBe(130);
        expect(pane.screen()).not.toContain('Waiting for the service');
      } finally {
        for (const res of held) res.destroy();
        await new Promise((resolve) => slow.close(resolve));
      }
    });

    it("SIGTERM during the launch wizard's provider question shows the cursor again and exits 143", async () => {
      const pane = open(undefined, ['launch']);
      await pane.waitFor('the name question', (s) => s.includes('Name'));
      pane.line('scout');
      await pane.waitFor('the provider question', (s) => s.includes('Provider') && s.includes('openai'));
      expect(pane.cursorVisible()).toBe(false); // the select prompt hid it
      pane.signal('SIGTERM');
      expect(await pane.exitCode()).toBe(143);
      expect(pane.cursorVisible()).toBe(true);
    });
  },
);
