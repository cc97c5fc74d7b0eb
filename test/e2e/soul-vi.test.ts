// `soul edit` with a real terminal editor: vi in a tmux pseudo-terminal, keys typed as a person
// would, the diff confirmed at the prompt. The tmux server runs on a private socket and inherits the
// service URL and key from its environment, so the key is in no process's arguments.
import fs from 'node:fs';
import { execa } from 'execa';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/cli.js';
import { launchAgent, startTestService, type TestService } from '../helpers/service.js';
import { perTest, stopService } from '../helpers/service-support.js';

const START = 'I am demo.\nBe careful.\nWatch the tape.\n';
const BOLD = 'I am demo.\nBe bold.\nWatch the tape.\n';

// every temp dir a test makes (HOME, config, data, TMPDIR) is removed after it
const temp = perTest();

let svc: TestService;
let id: string;
let socket: string;
let tmp: string;
/** the data dir of the run, where an edit not uploaded is kept */
let data: string;

async function tmux(...args: string[]) {
  return execa('tmux', ['-L', socket, ...args], { reject: true });
}

async function screen(): Promise<string> {
  return String((await tmux('capture-pane', '-p', '-J', '-t', 'soul')).stdout);
}

/** Polls the pane until `wanted` shows, or fails showing the last screen. */
async function waitFor(wanted: string | RegExp, ms = 15_000): Promise<string> {
  const deadline = Date.now() + ms;
  let last = '';
  while (Date.now() < deadline) {
    last = await screen();
    if (typeof wanted === 'string' ? last.includes(wanted) : wanted.test(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`waited ${ms} ms for ${String(wanted)}; the screen:\n${last}`);
}

async function keys(...k: string[]) {
  await tmux('send-keys', '-t', 'soul', ...k);
}

async function type(text: string) {
  await tmux('send-keys', '-t', 'soul', '-l', text);
}

/** Starts `superagent soul edit demo` in a 100×30 terminal, EDITOR=vi. */
async function startEdit() {
  const home = temp.scratch('superagent-vi-home-');
  data = temp.scratch('superagent-vi-data-');
  const command = `'${process.execPath}' '${BIN}' soul edit demo; echo "[exit $?]"; sleep 600`;
  await execa(
    'tmux',
    ['-L', socket, '-f', '/dev/null', 'new-session', '-d', '-s', 'soul', '-x', '100', '-y', '30', command],
    {
      extendEnv: false,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        TERM: 'xterm-256color',
        SHELL: '/bin/sh',
        EDITOR: 'vi',
        TMPDIR: tmp,
        SUPERAGENT_BASE_URL: svc.url,
        SUPERAGENT_API_KEY: svc.key,
        SUPERAGENT_CONFIG_DIR: temp.scratch('superagent-vi-config-'),
        SUPERAGENT_DATA_DIR: data,
      },
    },
  );
}

/** The command lines of every process on the machine. */
function allCommandLines(): string[] {
  const out: string[] = [];
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      out.push(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
    } catch {
      // gone already
    }
  }
  return out;
}

async function soulOf(): Promise<string> {
  const r = await svc.call('GET', `/v1/superagents/${id}/files`);
  expect(r.status).toBe(200);
  return r.json.soul_md;
}

describe('soul edit with vi in a terminal', () => {
  beforeAll(async () => {
    svc = await startTestService();
    id = (await launchAgent(svc, { name: 'demo', soul_md: START })).agent_id;
  });
  afterAll(async () => {
    await stopService(svc);
  });
  beforeEach(async () => {
    const r = await svc.call('PUT', `/v1/superagents/${id}/soul`, { body: { soul_md: START } });
    expect(r.status).toBe(200);
    socket = `superagent-vi-${process.pid}-${Math.random().toString(36).slice(2)}`;
    tmp = temp.scratch('superagent-vi-tmp-');
  });
  afterEach(async () => {
    await tmux('kill-server').catch(() => undefined);
  });

  it('a line changed in vi, :wq, the diff confirmed with y: the service has the new soul', async () => {
    await startEdit();
    await waitFor(/demo\.soul\.md/);
    await waitFor('Be careful.');
    // vi is open: the key the CLI uses is in no process's arguments
    expect(allCommandLines().filter((c) => c.includes(svc.key))).toEqual([]);

    await keys('2G');
    await keys('c', 'c');
    await type('Be bold.');
    await keys('Escape');
    await type(':wq');
    await keys('Enter');

    const asked = await waitFor('Upload this soul.md to demo?');
    expect(asked).toContain('--- demo/soul.md (on the service)');
    expect(asked).toContain('+++ demo/soul.md (edited)');
    expect(asked).toMatch(/^-Be careful\.$/m);
    expect(asked).toMatch(/^\+Be bold\.$/m);
    expect(await soulOf()).toBe(START);

    await type('y');
    await keys('Enter');
    const done = await waitFor('[exit ');
    expect(done).toContain('✓ Updated the soul.md of demo');
    expect(done).toContain('[exit 0]');
    expect(await soulOf()).toBe(BOLD);
    expect(fs.readdirSync(tmp)).toEqual([]);
  });

  it('answered no at the prompt: nothing uploaded, the edit kept, the command that uploads it shown', async () => {
    await startEdit();
    await waitFor('Be careful.');
    await keys('2G');
    await keys('c', 'c');
    await type('Be bold.');
    await keys('Escape');
    await type(':wq');
    await keys('Enter');
    await waitFor('Upload this soul.md to demo?');
    await type('n');
    await keys('Enter');
    const done = await waitFor('[exit ');
    expect(done).toContain('[exit 0]');
    const resume = "'superagent soul edit demo' offers to resume it; to upload it as it is";
    // the path once, in the command that uploads it
    const line = `Not uploaded; your edit is kept \\(${resume}: superagent soul set (\\S+) --file (\\S+)\\)`;
    const m = new RegExp(line).exec(done);
    expect(m, done).not.toBeNull();
    expect(m![1]).toBe(id);
    expect(fs.readFileSync(m![2]!, 'utf8')).toBe(BOLD);
    expect(m![2]!.startsWith(`${data}/soul-edits/`)).toBe(true);
    expect(fs.readdirSync(tmp)).toEqual([]);
    expect(await soulOf()).toBe(START);
  });

  it(':q! leaves it unchanged: "no changes", nothing uploaded, exit 0', async () => {
    await startEdit();
    await waitFor('Be careful.');
    await type(':q!');
    await keys('Enter');
    const done = await waitFor('[exit ');
    expect(done).toContain('No changes to the soul.md of demo; nothing uploaded.');
    expect(done).toContain('[exit 0]');
    expect(await soulOf()).toBe(START);
    expect(fs.readdirSync(tmp)).toEqual([]);
  });
});
