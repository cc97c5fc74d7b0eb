// `superagent top` in a real terminal (tmux, the built binary) against the embedded service: every
// agent on a full screen, p pauses the selected one (the service says so to `get`), q gives the shell
// back with the alternate screen gone. No sleep is an assertion: the screen is polled.
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent } from '../helpers/service.js';
import { HAS_TMUX, Pane } from '../helpers/tmux.js';

const scratch = perTest();
const panes: Pane[] = [];
afterEach(() => {
  for (const p of panes.splice(0)) p.close();
});

const NAMES = ['alpha', 'beta', 'gamma'];

describe.skipIf(!HAS_TMUX)(HAS_TMUX ? 'top in tmux' : 'top in tmux: SKIPPED, tmux is not installed', () => {
  it('shows every agent; p pauses the selected one; q gives the shell back, the alternate screen gone', async () => {
    const svc = await scratch.service();
    for (const name of NAMES) await launchAgent(svc, { name });
    const dirs = { configDir: scratch.scratch('top-config-'), dataDir: scratch.scratch('top-data-') };
    const pane = new Pane(svc, ['top', '--interval', '1'], dirs, { atPrompt: true, width: 120, height: 30 });
    panes.push(pane);
    const shown = await pane.waitFor('every agent, one selected', (s) =>
      NAMES.every((n) => new RegExp(`^[› ] ${n} +running`, 'm').test(s)),
    );
    expect(pane.alternateOn()).toBe(true);
    expect(shown).toMatch(/^ {2}NAME +STATUS +HEALTH +VALUE +PNL 24H +OPEN +MODEL/m);
    const selected = /^› (\w+)/m.exec(shown)![1]!;
    pane.type('p');
    await pane.waitFor('the pause said', (s) => s.includes(`${selected} paused`));
    const got = await runCli(['get', selected, '--json'], { target: svc });
    expect(JSON.parse(got.stdout).status).toBe('paused');
    pane.type('q');
    expect(await pane.exitCode()).toBe(0);
    const after = await pane.waitFor('the prompt back', (s) => /\n\$ ?$/.test(s));
    expect(pane.alternateOn()).toBe(false);
    // the view was on the alternate screen: nothing of it is left on the shell's
    expect(after).not.toContain('PNL 24H');
  });

  it('Enter shows the positions and Esc comes back; P asks, y pauses every agent', async () => {
    const svc = await scratch.service();
    for (const name of NAMES.slice(0, 2)) await launchAgent(svc, { name });
    const dirs = { configDir: scratch.scratch('top-config-'), dataDir: scratch.scratch('top-data-') };
    const pane = new Pane(svc, ['top'], dirs, { width: 100, height: 24 });
    panes.push(pane);
    const shown = await pane.waitFor('the agents', (s) => /^› \w+ +running/m.test(s) && /^ {2}\w+ +running/m.test(s));
    const selected = /^› (\w+)/m.exec(shown)![1]!;
    pane.keys('Enter');
    await pane.waitFor('the positions', (s) => s.includes(`Positions of ${selected}`) && s.includes('Polymarket'));
    pane.keys('Escape');
    await pane.waitFor('the table again', (s) => /^ {2}NAME +STATUS/m.test(s));
    pane.type('P');
    await pane.waitFor('the question', (s) => s.includes('Pause all 2 running agents? y/n'));
    pane.type('y');
    await pane.waitFor('said', (s) => s.includes('2 agents paused'));
    for (const name of NAMES.slice(0, 2)) {
      const got = await runCli(['get', name, '--json'], { target: svc });
      expect(JSON.parse(got.stdout).status).toBe('paused');
    }
    pane.type('q');
    expect(await pane.exitCode()).toBe(0);
  });

  it('Ctrl-C leaves with 130 and SIGTERM with 143, the terminal given back each time', async () => {
    const svc = await scratch.service();
    await launchAgent(svc, { name: 'solo' });
    for (const [stop, code] of [
      ['C-c', 130],
      ['SIGTERM', 143],
    ] as const) {
      const dirs = { configDir: scratch.scratch('top-config-'), dataDir: scratch.scratch('top-data-') };
      const pane = new Pane(svc, ['top'], dirs, { width: 100, height: 20 });
      panes.push(pane);
      await pane.waitFor('the agent', (s) => /^› solo +running/m.test(s));
      if (stop === 'C-c') pane.keys('C-c');
      else pane.signal('SIGTERM');
      expect(await pane.exitCode()).toBe(code);
      expect([pane.alternateOn(), pane.cursorVisible()]).toEqual([false, true]);
    }
  });

  it('c opens the chat with the selected agent and comes back; a narrower terminal drops columns', async () => {
    const svc = await scratch.service();
    await launchAgent(svc, { name: 'solo' });
    const dirs = { configDir: scratch.scratch('top-config-'), dataDir: scratch.scratch('top-data-') };
    const pane = new Pane(svc, ['top', '--interval', '1'], dirs, { width: 120, height: 30 });
    panes.push(pane);
    await pane.waitFor('the agent', (s) => /^› solo +running/m.test(s));
    pane.type('c');
    await pane.waitFor('the chat', (s) => s.includes('Chatting with solo'));
    expect(pane.alternateOn()).toBe(false);
    pane.line('/exit');
    await pane.waitFor('the view again', (s) => /^› solo +running/m.test(s) && pane.alternateOn());
    pane.resize(50, 30);
    const narrow = await pane.waitFor('no model column', (s) => /^ {2}NAME +STATUS/m.test(s) && !s.includes('MODEL'));
    expect(narrow.split('\n').every((l) => l.length <= 50)).toBe(true);
    pane.type('q');
    expect(await pane.exitCode()).toBe(0);
  });

  it('Ctrl-Z stops top as a job, the shell back; fg takes the screen again', async () => {
    const svc = await scratch.service();
    await launchAgent(svc, { name: 'solo' });
    const dirs = { configDir: scratch.scratch('top-config-'), dataDir: scratch.scratch('top-data-') };
    const pane = new Pane(svc, ['top'], dirs, { atPrompt: true, width: 100, height: 20 });
    panes.push(pane);
    await pane.waitFor('the agent', (s) => /^› solo +running/m.test(s));
    pane.keys('C-z');
    await pane.waitFor('the job stopped', (s) => /Stopped/.test(s) && /\n\$ ?$/.test(s));
    expect([pane.alternateOn(), pane.cursorVisible()]).toEqual([false, true]);
    pane.line('fg');
    await pane.waitFor('the view again', (s) => /^› solo +running/m.test(s) && pane.alternateOn());
    pane.type('q');
    expect(await pane.exitCode()).toBe(0);
  });

  it('SIGTERM while the chat is open ends top with 143, the terminal given back', async () => {
    const svc = await scratch.service();
    await launchAgent(svc, { name: 'solo' });
    const dirs = { configDir: scratch.scratch('top-config-'), dataDir: scratch.scratch('top-data-') };
    const pane = new Pane(svc, ['top'], dirs, { width: 100, height: 20 });
    panes.push(pane);
    await pane.waitFor('the agent', (s) => /^› solo +running/m.test(s));
    pane.type('c');
    await pane.waitFor('the chat', (s) => s.includes('Chatting with solo'));
    pane.signal('SIGTERM');
    expect(await pane.exitCode()).toBe(143);
    expect([pane.alternateOn(), pane.cursorVisible()]).toEqual([false, true]);
  });
});
