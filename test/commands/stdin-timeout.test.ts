// Standard input that never ends (a FIFO whose writer stays open, `sleep 1000 | superagent chat demo`):
// every command reading it says so after a moment, and --timeout bounds the read (exit 2, nothing
// sent, the input let go). A soul file that is a FIFO is bounded the same way, by the default
// time-out when --timeout is not given, and let go (nothing left waiting to read it). The fake clock
// makes both waits pass at once; the stream never ends.
// The same with a real FIFO and the built binary: test/e2e/stdin-fifo.test.ts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { beforeEach, describe, expect, it } from 'vitest';
import { FakeClock, MemoryConfig, cliFor } from '../helpers/context.js';
import { hasReader, unwrittenFifo } from '../helpers/fifo-watch.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent, type TestService } from '../helpers/service.js';

let service: TestService;
const scratch = perTest();
const cli = cliFor(() => service);

beforeEach(async () => {
  service = await scratch.service();
  await launchAgent(service, { name: 'demo', model: 'gpt-4o', model_provider: 'openai' });
  service.cliRequests();
});

/** A stdin that has had `start` written to it and then nothing, its writer never closing it. */
function neverEnding(start: string): Readable {
  const source = new Readable({ read() {} });
  source.push(start);
  return source;
}

const waiting = (what: string) => `! Waiting for ${what} on standard input to end: is something still writing to it?`;

describe('--timeout bounds the read of standard input', () => {
  it.each([
    [['chat', 'demo'], 'the message'],
    [['assistant', 'ask'], 'the question'],
    [['soul', 'set', 'demo', '--file', '-'], 'the soul'],
    [['launch', '--name', 'x', '--soul-file', '-'], 'the soul'],
    [['launch', '--name', 'x', '--bot-token-stdin'], 'the bot token'],
  ])('%j: exit 2 after --timeout seconds, nothing sent, stdin let go', async (argv, what) => {
    const stdin = neverEnding('half a line');
    const r = await cli([...argv, '--timeout', '5'], { input: stdin, clock: new FakeClock() });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `${waiting(what)} (giving up after 5 s)\n` +
        `Error: ${what} on standard input did not end within 5 s (close ` +
        `it when done writing, or allow longer with --timeout)\n`,
      asked: [],
    });
    expect(service.cliRequests().filter((e) => e.method !== 'GET')).toEqual([]);
    expect(stdin.destroyed).toBe(true);
  });

  it('login --with-token: exit 2, no key stored', async () => {
    const config = new MemoryConfig();
    const stdin = neverEnding('sa_sk_');
    const argv = ['login', '--with-token', '--base-url', service.url, '--timeout', '0.5'];
    const r = await cli(argv, { config, input: stdin, clock: new FakeClock() });
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/\nError: the API key on standard input did not end within 0\.5 s \(/);
    expect(config.writes).toBe(0);
    expect(service.cliRequests()).toEqual([]);
  });
});

describe('a soul file that is a pipe (`--soul-file <(generate-soul)`) is bounded the same way', () => {
  it.skipIf(process.platform === 'win32')(
    'a FIFO whose writer stays open: exit 2 naming the file, nothing sent',
    async () => {
      const fifo = path.join(scratch.scratch('superagent-fifo-'), 'soul.md');
      execFileSync('mkfifo', [fifo]);
      // read and write at once: opening it never waits for the other side, and it holds the writer open
      const writer = fs.openSync(fifo, 'r+');
      try {
        fs.writeSync(writer, 'I am demo, and then nothing more');
        const r = await cli(['soul', 'set', 'demo', '--file', fifo, '--timeout', '2'], { clock: new FakeClock() });
        expect(r).toEqual({
          code: 2,
          stdout: '',
          stderr:
            `! Waiting for soul file '${fifo}' to end: is something still writing to it? (giving up after 2 s)\n` +
            `Error: soul file '${fifo}' did not end within 2 s (close it ` +
            `when done writing, or allow longer with --timeout)\n`,
          asked: [],
        });
        expect(service.cliRequests().filter((e) => e.method !== 'GET')).toEqual([]);
      } finally {
        fs.closeSync(writer);
      }
    },
  );

  it.skipIf(process.platform === 'win32')(
    'a FIFO no writer ever opens: exit 2 naming the file, the FIFO let go',
    async () => {
      // opening it to read would wait for a writer, in a thread nothing can cancel
      const fifo = unwrittenFifo(path.join(scratch.scratch('superagent-fifo-'), 'soul.md'), scratch);
      const r = await cli(['soul', 'set', 'demo', '--file', fifo, '--timeout', '2'], { clock: new FakeClock() });
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toMatch(`\nError: soul file '${fifo}' did not end within 2 s (`);
      expect(hasReader(fifo), 'nothing still waits to read it').toBe(false);
      expect(service.cliRequests().filter((e) => e.method !== 'GET')).toEqual([]);
    },
  );

  it.skipIf(process.platform === 'win32')('without --timeout, the default time-out (30 s) bounds it', async () => {
    const fifo = unwrittenFifo(path.join(scratch.scratch('superagent-fifo-'), 'soul.md'), scratch);
    const r = await cli(['launch', '--name', 'x', '--soul-file', fifo], { clock: new FakeClock() });
    expect(r).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        `! Waiting for soul file '${fifo}' to end: is something still writing to it? (giving up after 30 s)\n` +
        `Error: soul file '${fifo}' did not end within 30 s (close it ` +
        `when done writing, or allow longer with --timeout)\n`,
    });
    expect(hasReader(fifo)).toBe(false);
    expect(service.cliRequests().filter((e) => e.method !== 'GET')).toEqual([]);
  });
});

describe('standard input without --timeout', () => {
  it('the wait is announced, and input that ends late is still read whole and sent', async () => {
    const stdin = neverEnding('hello ');
    const running = cli(['chat', 'demo', '--no-stream'], {
      input: stdin,
      clock: new FakeClock(),
      onStderr: (_chunk, all) => {
        // the writer finishes once told it is waited for
        if (all.includes(waiting('the message')) && !stdin.readableEnded) {
          stdin.push('there');
          stdin.push(null);
        }
      },
    });
    const r = await running;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.split('\n')[0]).toBe(`${waiting('the message')} (--timeout SECONDS bounds this wait)`);
    const sent = service.cliRequests().filter((e) => e.method === 'POST');
    expect(sent.map((e) => (e.body as { message: string }).message)).toEqual(['hello there']);
  });

  it('--quiet: not announced', async () => {
    const stdin = neverEnding('hello');
    const running = cli(['chat', 'demo', '--quiet', '--timeout', '5'], { input: stdin, clock: new FakeClock() });
    const r = await running;
    expect(r.stderr).toBe(
      'Error: the message on standard input did not end within 5 s (close ' +
        'it when done writing, or allow longer with --timeout)\n',
    );
  });
});
