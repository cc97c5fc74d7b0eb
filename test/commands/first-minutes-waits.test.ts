// A new user's first ten minutes: what a person sees while waiting and when something is off. The
// embedded service's banner, once per data dir, short, with ~; a spinner on any wait, a rate-limit
// wait said even in a pipe and counted down on a terminal; a base URL that is not a SuperAgents
// service; no vi without a terminal; a cancelled prompt is quiet.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { WAIT_SPINNER_MS } from '../../src/ui/spinner.js';
import { InterruptedError } from '../../src/core/errors.js';
import { systemEditor, type Editor } from '../../src/ui/editor.js';
import { FakeClock, cliFor, runLine, spinnerRecorder, testEnv } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent, type TestService, UNFUNDED } from '../helpers/service.js';

const scratch = perTest();

describe('the embedded service says where its state is, once per data dir', () => {
  const BANNER = (shown: string) =>
    `Using the embedded local service; its state is in ${shown}\n'superagent login' connects to a hosted one.\n`;

  /** A fresh home with the data dir in it, as the README's reader has. */
  function home() {
    const dir = scratch.scratch('superagent-home-');
    return { HOME: dir, SUPERAGENT_DATA_DIR: path.join(dir, 'data') };
  }

  it('the first command on a terminal prints two short lines with ~; the second command does not', async () => {
    const env = home();
    const first = await runLine(undefined, ['list'], { env, tty: true });
    expect(first.code).toBe(0);
    expect(first.stderr.startsWith(BANNER('~/data'))).toBe(true);
    for (const line of BANNER('~/data').trimEnd().split('\n')) expect([...line].length).toBeLessThan(80);
    const second = await runLine(undefined, ['list'], { env, tty: true });
    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain('embedded local service');
    expect(second.stderr).toBe("No agents yet. Launch one with 'superagent launch --name NAME'.\n");
  });

  it('once per data dir: another data dir gets it again, its own path said (no ~ outside the home)', async () => {
    const env = home();
    await runLine(undefined, ['list'], { env, tty: true });
    const elsewhere = scratch.scratch('superagent-data-');
    const r = await runLine(undefined, ['list'], { env: { ...env, SUPERAGENT_DATA_DIR: elsewhere }, tty: true });
    expect(r.stderr.startsWith(BANNER(elsewhere))).toBe(true);
  });

  it('a first command piped keeps the banner for the first command on a terminal', async () => {
    const env = home();
    const piped = await runLine(undefined, ['list', '--json'], { env });
    expect(piped.code).toBe(0);
    expect(piped.stderr).toBe('');
    const first = await runLine(undefined, ['list'], { env, tty: true });
    expect(first.stderr.startsWith(BANNER('~/data'))).toBe(true);
    const again = await runLine(undefined, ['list'], { env, tty: true });
    expect(again.stderr).not.toContain('embedded local service');
  });

  it('whoami always says which service and where its state is', async () => {
    const env = home();
    await runLine(undefined, ['list'], { env, tty: true });
    for (let i = 0; i < 2; i++) {
      const r = await runLine(undefined, ['whoami'], { env, tty: true });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Base URL: +embedded local service \(~\/data\)$/m);
      expect(r.stdout).toContain('the embedded local service');
      expect(r.stderr).toBe('');
    }
  });
});

describe('waits', () => {
  let service: TestService;
  const cli = cliFor(() => service);

  beforeEach(async () => {
    service = await scratch.service();
    await launchAgent(service, { name: 'demo' });
  });

  it.each([[['get', 'demo']], [['list']], [['launch', '--name', 'scout']], [['pause', 'demo']]])(
    'on a terminal, %j starts a spinner for its wait (shown after WAIT_SPINNER_MS), and stops it',
    async (argv) => {
      const rec = spinnerRecorder();
      const r = await cli(argv, { tty: true, world: rec.world });
      expect(r.code, r.stderr).toBe(0);
      expect(rec.started.length).toBeGreaterThan(0);
      // `pause` then reads the open positions, under a spinner of its own (test/commands/money-waits.test.ts)
      for (const s of rec.started.filter((x) => !x.label.startsWith('Reading ')))
        expect(s).toMatchObject({
          label: 'Waiting for the service…',
          delayMs: WAIT_SPINNER_MS,
          enabled: true,
          stopped: true,
        });
    },
  );

  it('a one-shot chat on a terminal spins while waiting for the agent, named', async () => {
    const rec = spinnerRecorder();
    const r = await cli(['chat', 'demo', 'hello'], { tty: true, world: rec.world });
    expect(r.code, r.stderr).toBe(0);
    expect(rec.started).toContainEqual(
      expect.objectContaining({ label: 'Waiting for demo…', delayMs: WAIT_SPINNER_MS, enabled: true, stopped: true }),
    );
    expect(rec.started.every((s) => s.stopped)).toBe(true);
  });

  it('piped (stderr not a terminal), no spinner is drawn', async () => {
    const rec = spinnerRecorder();
    const r = await cli(['chat', 'demo', 'hello'], { world: rec.world });
    expect(r.code).toBe(0);
    expect(rec.started.length).toBeGreaterThan(0);
    for (const s of rec.started) expect(s.enabled).toBe(false);
  });

  /** A service whose one request a minute is spent already: the CLI's next request is answered 429. */
  async function exhausted(): Promise<TestService> {
    const limited = await scratch.service({ rateLimit: 1 });
    expect((await limited.call('GET', '/v1/superagents')).status).toBe(200);
    return limited;
  }

  it('a rate-limit wait is announced on stderr when piped', async () => {
    const limited = await exhausted();
    const clock = new FakeClock();
    const r = await runLine(limited, ['list'], { clock });
    expect(clock.slept.length).toBeGreaterThan(0);
    const secs = clock.slept[0]! / 1000;
    expect(r.stderr.split('\n')[0]).toBe(
      `! Rate limited by the service; waiting ${secs} s (its Retry-After) ` +
        `before retrying (1 of 3; this command waits at most 60 s in all)`,
    );
    expect(r.code).toBe(5);
  });

  it('on a terminal a rate-limit wait counts down', async () => {
    const limited = await exhausted();
    const rec = spinnerRecorder();
    const clock = new FakeClock();
    await runLine(limited, ['list'], { clock, tty: true, world: rec.world });
    const wait = clock.slept[0]!;
    expect(wait).toBeGreaterThanOrEqual(2_000);
    const countdown = rec.started.find((s) => s.text !== undefined);
    expect(countdown, `spinners started: ${JSON.stringify(rec.started.map((s) => s.label))}`).toBeDefined();
    expect(countdown!.enabled).toBe(true);
    expect(countdown!.text!(0)).toBe(`Rate limited by the service; retrying in ${wait / 1000} s`);
    expect(countdown!.text!(wait - 1_000)).toBe('Rate limited by the service; retrying in 1 s');
  });
});

describe('a base URL that is not a SuperAgents service', () => {
  const PAGE =
    '<!DOCTYPE HTML>\n<html><head><title>Welcome to ' +
    'nginx!</title></head><body><h1>Welcome to nginx!</h1></body></html>\n';

  async function webServer(status: number): Promise<string> {
    const server = http.createServer((_req, res) => {
      res.writeHead(status, { 'content-type': 'text/html' });
      res.end(PAGE);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    scratch.closeAfter({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it.each([
    [200, ['list']],
    [200, ['get', 'demo']],
    [404, ['chat', 'demo', 'hello']],
    [200, ['launch', '--name', 'demo']],
  ])('a web page (%d) answering %j: one line saying so, exit 7, no HTML', async (status, argv) => {
    const url = await webServer(status);
    const r = await runLine({ url, key: 'sa_sk_0123456789abcdef0123456789abcd' }, argv, { clock: new FakeClock() });
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(r.stderr).toMatch(
      new RegExp(`^Error: ${url.replace(/\./g, '\\.')} does not look like a SuperAgents service: `),
    );
    expect(r.stderr).not.toMatch(/<|nginx|DOCTYPE/i);
  });
});

describe('editors and signals', () => {
  let service: TestService;
  let demo: string;
  const cli = cliFor(() => service);

  beforeEach(async () => {
    service = await scratch.service(UNFUNDED); // not about money: demo holds nothing
    demo = (await launchAgent(service, { name: 'demo', soul_md: 'I am demo.\n' })).agent_id;
    service.cliRequests();
  });

  /** The editor VISUAL/EDITOR in `env` name, that fails the test if it is started. */
  function neverOpened(env: Record<string, string | undefined>): Editor & { opened: number } {
    const editor = {
      opened: 0,
      command: systemEditor(testEnv(service, env)).command,
      open: async () => void editor.opened++,
    };
    return editor;
  }

  it.each([
    ['stdin and stdout piped', {}],
    ['stdin a terminal, stdout piped (soul edit demo | cat)', { stdin: true, stderr: true }],
    ['stdout a terminal, stdin piped (soul edit demo </dev/null)', { stdout: true, stderr: true }],
  ])('without a terminal (%s) and no VISUAL or EDITOR: exit 2 saying so, no editor, no request', async (_, tty) => {
    const env = { VISUAL: undefined, EDITOR: undefined };
    const editor = neverOpened(env);
    const r = await cli(['soul', 'edit', 'demo'], { env, tty, editor });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'Error: no terminal to run the default editor (vi) on (set VISUAL or EDITOR to an ' +
        "editor that needs none, or use 'superagent soul set AGENT --file PATH')\n",
      asked: [],
    });
    expect(editor.opened).toBe(0);
    expect(service.cliRequests()).toEqual([]);
  });

  it('with EDITOR set it runs without a terminal', async () => {
    const env = { EDITOR: 'my-editor --wait' };
    const fs = await import('node:fs');
    const editor = {
      command: systemEditor(testEnv(service, env)).command,
      open: async (file: string) => fs.appendFileSync(file, 'Be bold.\n'),
    };
    const r = await cli(['soul', 'edit', 'demo', '--yes'], { env, editor });
    expect(r.code, r.stderr).toBe(0);
    expect((await service.call('GET', `/v1/superagents/${demo}/files`)).json.soul_md).toBe('I am demo.\nBe bold.\n');
  });

  it('on a terminal, the default editor is started', async () => {
    const env = { VISUAL: undefined, EDITOR: undefined };
    const editor = neverOpened(env);
    const r = await cli(['soul', 'edit', 'demo'], { env, tty: true, editor });
    expect(r.code, r.stderr).toBe(0);
    expect(editor.opened).toBe(1);
  });

  it.each([
    ['launch (the Name question)', ['launch']],
    ['destroy (the confirmation)', ['destroy', 'demo']],
  ])('Ctrl-C at a prompt of %s: exit 130, the line ended and nothing more said, nothing sent', async (_, argv) => {
    const r = await cli(argv, { tty: { stdin: true, stderr: true }, answers: [new InterruptedError()] });
    expect(r.asked).toHaveLength(1);
    expect([r.code, r.stdout, r.stderr]).toEqual([130, '', '\n']);
    expect(service.cliRequests().filter((q) => q.method !== 'GET')).toEqual([]);
    expect((await service.call('GET', `/v1/superagents/${demo}`)).json.status).toBe('running');
  });
});
