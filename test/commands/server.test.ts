// `superagent server` in this process: it listens, answers with the key it was given, and stops
// cleanly on SIGTERM (exit 0) or Ctrl-C (exit 130). Its options' checks come before it starts.
import fs from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeSignals, runLine } from '../helpers/context.js';
import { callService } from '../helpers/service.js';
import { perTest } from '../helpers/service-support.js';

const scratch = perTest();
const KEY = 'sa_sk_' + 's'.repeat(32);

/** Starts the server command; resolves with its URL once it says where it listens. */
function serve(signals: FakeSignals, extra: string[] = ['--data-dir', scratch.scratch(), '--key', KEY]) {
  let listening!: (url: string) => void;
  const url = new Promise<string>((resolve) => (listening = resolve));
  const done = runLine(undefined, ['server', '--port', '0', '--rate-limit', '0', ...extra], {
    signals,
    onStdout: (_chunk, all) => {
      const m = /^Listening on (\S+)\n/.exec(all);
      if (m) listening(m[1]!);
    },
  });
  return { url, done };
}

describe('server', () => {
  it('listens, answers with its key, prints the key masked, and stops on SIGTERM with exit 0', async () => {
    const signals = new FakeSignals();
    const { url, done } = serve(signals);
    const r = await callService(await url, 'GET', '/v1/superagents', { key: KEY });
    expect([r.status, r.json]).toEqual([200, { agents: [] }]);
    expect(signals.terminate()).toBe(true);
    const run = await done;
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[1]).toBe('API keys: sa_sk_…ssss');
    expect(run.stdout + run.stderr).not.toContain(KEY);
  });

  it(
    'without --key: prints the key it creates whole, once; ' + 'later starts print it masked with where it is kept',
    async () => {
      const dataDir = scratch.scratch();
      const starts: string[][] = [];
      for (let i = 0; i < 2; i++) {
        const signals = new FakeSignals();
        const { url, done } = serve(signals, ['--data-dir', dataDir]);
        await url;
        expect(signals.terminate()).toBe(true);
        const run = await done;
        expect(run.code).toBe(0);
        starts.push(run.stdout.split('\n'));
      }
      const key = fs.readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim();
      expect(starts[0]![1]).toBe(`API key: ${key} (new)`);
      expect(starts[1]![1]).toBe(`API key: sa_sk_…${key.slice(-4)} (kept in ${path.join(dataDir, 'api-key')})`);
      expect(starts[1]!.join('\n')).not.toContain(key);
    },
  );

  it('a start whose port is taken creates no key: the next start creates it and prints it whole', async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const dataDir = path.join(scratch.scratch(), 'state2');
    try {
      const port = String((busy.address() as AddressInfo).port);
      const failed = await runLine(undefined, ['server', '--port', port, '--data-dir', dataDir]);
      expect(failed.code).toBe(7);
      expect(failed.stderr).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(fs.existsSync(path.join(dataDir, 'api-key'))).toBe(false);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
    const signals = new FakeSignals();
    const { url, done } = serve(signals, ['--data-dir', dataDir]);
    await url;
    expect(signals.terminate()).toBe(true);
    const run = await done;
    const key = fs.readFileSync(path.join(dataDir, 'api-key'), 'utf8').trim();
    expect(run.stdout.split('\n')[1]).toBe(`API key: ${key} (new)`);
  });

  it('piped, the banner is whole: address and key on stdout, data dir and how to use it on stderr', async () => {
    const dataDir = scratch.scratch();
    const keyFile = path.join(dataDir, 'api-key');
    for (const quiet of [[], ['--quiet']]) {
      const signals = new FakeSignals();
      const { url, done } = serve(signals, ['--data-dir', dataDir, ...quiet]);
      const base = await url;
      expect(signals.terminate()).toBe(true);
      const run = await done;
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`^Listening on ${base}\nAPI key: sa_sk_\\S+ \\((new|kept in .*)\\)\n$`));
      const banner =
        `Data dir: ${dataDir}\n` +
        `Try: SUPERAGENT_BASE_URL=${base} SUPERAGENT_API_KEY="$(cat ${keyFile})" superagent list` +
        '   (Ctrl-C stops the service)\n';
      // --quiet: the lines for a log left out, as the request lines are
      expect(run.stderr).toBe(quiet.length ? '' : `${banner}Stopped\n`);
    }
  });

  it('Ctrl-C stops it with exit 130', async () => {
    const signals = new FakeSignals();
    const { url, done } = serve(signals);
    await url;
    expect(signals.interrupt()).toBe(true);
    expect((await done).code).toBe(130);
  });

  it('bad options are refused before it starts', async () => {
    for (const [args, message] of [
      [['--port', '70000'], '--port must be a whole number from 0 to 65535'],
      [['--fault-error-rate', '2'], '--fault-error-rate must be a number from 0 to 1'],
      [['--connect-provider', 'acme'], '--connect-provider must be one of'],
      [['--sim-scenario', 'boom'], "--sim-scenario must be one of: calm, crash; not 'boom'"],
    ] as const) {
      const r = await runLine(undefined, ['server', ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
      expect(r.stdout).toBe('');
    }
  });
});
