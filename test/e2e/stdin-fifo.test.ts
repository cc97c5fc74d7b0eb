// Standard input that is a real FIFO whose writer stays open, under the built binary: what only a
// process shows is that it ends at all (the open pipe holds nothing back) and that the wait is said
// in a pipe. The rest (every command that reads stdin, the messages) is test/commands/stdin-timeout.test.ts.
// And a FIFO named as a soul or fleet file that nobody writes to: the process ends at its bound.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { hasReader, unwrittenFifo } from '../helpers/fifo-watch.js';
import { perTest, stopService } from '../helpers/service-support.js';
import { launchAgent, startTestService, type TestService } from '../helpers/service.js';

let service: TestService;
const scratch = perTest();

beforeAll(async () => {
  service = await startTestService();
  await launchAgent(service, { name: 'demo', model: 'gpt-4o', model_provider: 'openai' });
});
afterAll(async () => {
  await stopService(service);
});

/**
 * A FIFO with this test holding its writing end open: opened read-write first (Linux never blocks
 * that), then a reading end for the child. Both ends are closed after the test.
 */
function heldFifo(): { reader: number; writer: number; close(): void } {
  const fifo = path.join(scratch.scratch('superagent-fifo-'), 'stdin');
  execFileSync('mkfifo', [fifo]);
  const writer = fs.openSync(fifo, 'r+');
  const reader = fs.openSync(fifo, 'r');
  let open = [reader, writer];
  return { reader, writer, close: () => void (open.forEach((fd) => fs.closeSync(fd)), (open = [])) };
}

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * `chat demo` with the FIFO's reading end as its stdin itself (node's spawn passes the descriptor on;
 * execa would put a pipe of its own between). Killed after 20 s if it has not ended by then.
 */
function chat(stdin: number, ...args: string[]) {
  return superagent(stdin, ['chat', 'demo', ...args]);
}

function superagent(stdin: number | 'ignore', args: string[]) {
  const dirs = { configDir: scratch.scratch('superagent-config-'), dataDir: scratch.scratch('superagent-data-') };
  const env = cleanEnv({ target: service, ...dirs });
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: [stdin, 'pipe', 'pipe'], timeout: 20_000 });
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk: Buffer) => (out.stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out.stderr += chunk.toString()));
  const ended = new Promise<Ended>((resolve) => child.on('close', (code) => resolve({ code, ...out })));
  return { child, ended };
}

describe.skipIf(process.platform !== 'linux')('a FIFO on stdin whose writer stays open', () => {
  it('--timeout: exit 2 after that long, saying why, and nothing sent', async () => {
    const fifo = heldFifo();
    try {
      fs.writeSync(fifo.writer, 'hello');
      service.cliRequests();
      const r = await chat(fifo.reader, '--timeout', '1.5').ended;
      expect([r.code, r.stdout]).toEqual([2, '']);
      expect(r.stderr).toBe(
        '! Waiting for the message on standard input to end: is ' +
          'something still writing to it? (giving up after 1.5 s)\n' +
          'Error: the message on standard input did not end within 1.5 s ' +
          '(close it when done writing, or allow longer with --timeout)\n',
      );
      expect(service.cliRequests()).toEqual([]);
    } finally {
      fifo.close();
    }
  });

  it('without --timeout: the wait is said, and the message is sent once the writer closes', async () => {
    const fifo = heldFifo();
    try {
      fs.writeSync(fifo.writer, 'hello ');
      service.cliRequests();
      const { child, ended } = chat(fifo.reader, '--no-stream');
      let said = '';
      await new Promise<void>((resolve) => {
        child.stderr!.on('data', (chunk: Buffer) => {
          said += chunk.toString();
          if (said.includes('\n')) resolve();
        });
      });
      expect(said).toBe(
        '! Waiting for the message on standard input to end: is something ' +
          'still writing to it? (--timeout SECONDS bounds this wait)\n',
      );
      fs.writeSync(fifo.writer, 'there');
      fifo.close();
      const r = await ended;
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).not.toBe('');
      const sent = service.cliRequests().filter((e) => e.method === 'POST');
      expect(sent.map((e) => (e.body as { message: string }).message)).toEqual(['hello there']);
    } finally {
      fifo.close();
    }
  });
});

describe.skipIf(process.platform !== 'linux')('a FIFO named as a file, that no writer ever opens', () => {
  // opened the usual way, it waited in a thread nothing could cancel: the error was said, but the
  // process lived on until something opened the FIFO to write
  it.each([
    ['soul set --file', ['soul', 'set', 'demo', '--file'], (fifo: string) => `soul file '${fifo}'`],
    ['plan -f', ['plan', '-f'], (fifo: string) => fifo],
  ])('%s FIFO --timeout 1.5: the process ends, exit 2 naming it', async (_what, argv, named) => {
    const fifo = unwrittenFifo(path.join(scratch.scratch('superagent-fifo-'), 'input'), scratch);
    const r = await superagent('ignore', [...argv, fifo, '--timeout', '1.5']).ended;
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe(
      `! Waiting for ${named(fifo)} to end: is something still writing to it? (giving up after 1.5 s)\n` +
        `Error: ${named(fifo)} did not end within 1.5 s (close it when done writing, or allow longer with --timeout)\n`,
    );
    expect(hasReader(fifo)).toBe(false);
  });
});
