// Something that is not a regular file where the data dir keeps one (a FIFO as an agent's record, as
// the key file, as a lock): opening a FIFO to read it waits for a writer, which blocked the service's
// whole event loop (Ctrl-C ignored). It is left out like any unreadable record, or taken over like an
// abandoned lock, and never opened. Real processes: a blocked event loop would block a test worker.
// Runs the built CLI (bin/superagent.js → dist/): `npm test` builds first; alone, `npm run build` first.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { LEFT_OUT_HEADER } from '../../src/contract.js';
import { BIN, cleanEnv, runCli } from '../helpers/cli.js';
import { callService, launchAgent } from '../helpers/service.js';
import { HAS_TMUX, Pane } from '../helpers/tmux.js';
import { perTest } from '../helpers/service-support.js';

const temp = perTest();
const servers: Array<ReturnType<typeof execa>> = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.kill('SIGKILL');
    await s.catch(() => undefined);
  }
});

/** A data dir with one agent, `alpha`, launched by the CLI; its agents' directory. */
async function withAgent(): Promise<{ dataDir: string; configDir: string; agentsDir: string }> {
  const dirs = { dataDir: temp.scratch('superagent-data-'), configDir: temp.scratch('superagent-config-') };
  const r = await runCli(['launch', '--name', 'alpha'], dirs);
  expect(r.exitCode, r.stderr).toBe(0);
  const under = fs.readdirSync(dirs.dataDir, { recursive: true, encoding: 'utf8' });
  const agentsDir = path.join(
    dirs.dataDir,
    under.find((f) => f.endsWith(`${path.sep}agents`))!,
  );
  return { ...dirs, agentsDir };
}

const mkfifo = (file: string) => execFileSync('mkfifo', [file]);

// each run is bounded: a CLI whose event loop blocks is killed, and fails the assertion on its exit code
const BOUND = { timeout: 15_000 };

describe('a FIFO where the data dir keeps a file', () => {
  it('as an agent record: list answers without it and names it (exit 2), never opening it', async () => {
    const dirs = await withAgent();
    const fifo = path.join(dirs.agentsDir, `agent.${randomUUID()}.json`);
    mkfifo(fifo);
    const r = await runCli(['list', '--json'], { ...dirs, ...BOUND });
    expect(JSON.parse(r.stdout || '{}').agents?.map((a: { name: string }) => a.name)).toEqual(['alpha']);
    // with --json, the same failure follows as a JSON object
    expect([r.exitCode, r.stderr.split('\n')[0]]).toEqual([
      2,
      `Error: the embedded service left out a record it cannot read: the record ` +
        `${fifo} is a FIFO, not a regular file; move it aside to drop it`,
    ]);
  });

  it('as the key file: exit 2 naming it', async () => {
    const dirs = { dataDir: temp.scratch('superagent-data-'), configDir: temp.scratch('superagent-config-') };
    const keyFile = path.join(dirs.dataDir, 'api-key');
    mkfifo(keyFile);
    const r = await runCli(['list'], { ...dirs, ...BOUND });
    expect([r.exitCode, r.stderr]).toEqual([
      2,
      `Error: the embedded service cannot use its state: the key file ${keyFile} is a ` +
        `FIFO, not a regular file; move it aside (a new key is made in its place)\n`,
    ]);
  });

  it('as a lock: taken over like an abandoned one (no process holds a FIFO), the launch made', async () => {
    const dirs = await withAgent();
    const locks = path.join(dirs.dataDir, 'records', 'locks');
    const account = path.basename(path.dirname(dirs.agentsDir));
    mkfifo(path.join(locks, `lock.agents-of.${account}`));
    const r = await runCli(['launch', '--name', 'beta'], { ...dirs, ...BOUND });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(fs.readdirSync(locks)).toEqual([]);
  });

  it("as the CLI's own small files (a chat's last session, completion's cache): ignored", async () => {
    const dirs = await withAgent();
    const cacheHome = temp.scratch('superagent-cache-');
    const env = { XDG_CACHE_HOME: cacheHome };
    // made once, to learn the cache file's name (a hash of the service and key)
    expect((await runCli(['__complete', 'agents'], { ...dirs, env, ...BOUND })).exitCode).toBe(0);
    const [cache] = fs.readdirSync(path.join(cacheHome, 'superagent'));
    fs.rmSync(path.join(cacheHome, 'superagent', cache!));
    mkfifo(path.join(cacheHome, 'superagent', cache!));
    mkfifo(path.join(dirs.dataDir, 'last-sessions.json'));

    const chat = await runCli(['chat', 'alpha', 'hello'], { ...dirs, ...BOUND });
    expect(chat.exitCode, chat.stderr).toBe(0);
    const complete = await runCli(['__complete', 'agents'], { ...dirs, env, ...BOUND });
    expect([complete.exitCode, complete.stdout.split('\t')[0]]).toEqual([0, 'alpha']);
  });

  it('as the config file: exit 2 naming it, never opening it', async () => {
    const dirs = { dataDir: temp.scratch('superagent-data-'), configDir: temp.scratch('superagent-config-') };
    const configFile = path.join(dirs.configDir, 'config.json');
    mkfifo(configFile);
    const r = await runCli(['list'], { ...dirs, ...BOUND });
    expect([r.exitCode, r.stderr]).toEqual([
      2,
      `Error: the config file ${configFile} is a FIFO, not a regular ` +
        `file (move it aside, then run 'superagent login' again)\n`,
    ]);
  });

  it('as the config file, unreadable: exit 2 naming it and the cause in words', async () => {
    const dirs = { dataDir: temp.scratch('superagent-data-'), configDir: temp.scratch('superagent-config-') };
    const configFile = path.join(dirs.configDir, 'config.json');
    // a directory where the file goes: the read fails with EISDIR, an environment failure like EACCES
    fs.mkdirSync(configFile);
    const r = await runCli(['list'], { ...dirs, ...BOUND });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^Error: cannot read ${configFile.replace(/[.]/g, '\\.')}: (?!EISDIR)`));
  });

  it('`superagent server`: the list says one record is left out, and Ctrl-C still stops it', async () => {
    const dirs = await withAgent();
    mkfifo(path.join(dirs.agentsDir, `agent.${randomUUID()}.json`));
    const key = fs.readFileSync(path.join(dirs.dataDir, 'api-key'), 'utf8').trim();
    const args = [BIN, 'server', '--port', '0', '--data-dir', dirs.dataDir, '--rate-limit', '0'];
    const server = execa(process.execPath, args, {
      env: cleanEnv(dirs),
      extendEnv: false,
      reject: false,
    });
    servers.push(server);
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      server.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const m = /Listening on (\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      void server.then((r) => reject(new Error(`server exited ${r.exitCode}: ${String(r.stderr)}`)));
    });
    const list = await callService(url, 'GET', '/v1/superagents', { key });
    const names = list.json.agents.map((a: { name: string }) => a.name);
    expect([list.status, list.headers.get(LEFT_OUT_HEADER), names]).toEqual([200, '1', ['alpha']]);
    server.kill('SIGINT');
    expect((await server).exitCode).toBe(130);
  });
});

describe.skipIf(!HAS_TMUX)(`a FIFO as the REPL's history${HAS_TMUX ? '' : ': SKIPPED, tmux is not installed'}`, () => {
  it('the prompt comes (the history is not read)', async () => {
    const service = await temp.service();
    const { agent_id } = await launchAgent(service, { name: 'scout' });
    const dirs = { configDir: temp.scratch('superagent-config-'), dataDir: temp.scratch('superagent-data-') };
    fs.mkdirSync(path.join(dirs.dataDir, 'history'));
    mkfifo(path.join(dirs.dataDir, 'history', `chat-${agent_id}`));
    const pane = new Pane(service, ['chat', 'scout'], dirs);
    try {
      await pane.waitFor('the prompt', (s) => pane.prompts(s, 'scout') === 1);
    } finally {
      pane.close();
    }
  });
});
