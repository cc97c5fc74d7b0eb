#!/usr/bin/env node
// Peak memory of the chat REPL: a scripted session of 1,000 turns against one of 10 turns.
//
//   npm run build && node bench/repl-memory.js
//
// The built CLI runs `chat bench` inside a real pseudo-terminal (util-linux `script`), so readline,
// raw mode and the prompt work exactly as for a person; this process types each message, waits for
// the reply and the next prompt, and after the last turn reads the CLI process's peak resident set
// (VmHWM in /proc/<pid>/status) before leaving with Ctrl-D. All turns continue one session and go
// into the history file (capped at 1,000 lines). The embedded service runs in this process
// (startServer from dist/, token delay 0, rate limit off). The service's address and key reach the
// CLI through an env file that its shell sources, never through arguments.
//
// The terminal is a real one (TERM=xterm-256color, colour on), so every reply is rendered as Markdown
// as it streams: the renderer's per-reply state must not pile up across turns.
//
// Goal: peak after 1,000 turns ≤ 1.3 × peak after 10 turns. Exits 1 when missed. Linux only.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BIN, ROOT } from './lib.js';

const GOAL = 1.3;
const SHORT = 10;
const LONG = Number(process.env.BENCH_REPL_TURNS ?? 1000);
const TURN_TIMEOUT_MS = 15_000;
const KEY = `sa_sk_replbench${'x'.repeat(24)}`;
const PROMPT = '›'; // in the prompt "bench› " (colour codes around it)

const quote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

if (process.platform !== 'linux' || spawnSync('script', ['--version']).status !== 0) {
  console.log('repl-memory: needs Linux and util-linux `script`; skipped');
  process.exit(0);
}

function descendants(pid) {
  const children = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean)
    .map(Number);
  return children.flatMap((c) => [c, ...descendants(c)]);
}

function peakKb(pid) {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m[1]);
}

/** Runs one REPL session of `turns` messages; returns the CLI's peak RSS in kB and the time taken. */
async function session(server, turns, dir) {
  const dataDir = fs.mkdtempSync(path.join(dir, 'data-'));
  const envFile = path.join(dir, 'env');
  fs.writeFileSync(
    envFile,
    [
      `export SUPERAGENT_BASE_URL=${quote(server.url)}`,
      `export SUPERAGENT_API_KEY=${quote(server.key)}`,
      `export SUPERAGENT_CONFIG_DIR=${quote(path.join(dir, 'config'))}`,
      `export SUPERAGENT_DATA_DIR=${quote(dataDir)}`,
      'export TERM=xterm-256color',
      'unset SUPERAGENT_PROFILE CI NO_COLOR',
    ].join('\n') + '\n',
    { mode: 0o600 },
  );
  const script = path.join(dir, 'run.sh');
  fs.writeFileSync(
    script,
    `. ${quote(envFile)}\nstty cols 120 rows 40\nexec ${quote(process.execPath)} ${quote(BIN)} chat bench\n`,
  );
  const child = spawn('script', ['-qfec', `sh ${quote(script)}`, '/dev/null'], {
    stdio: ['pipe', 'pipe', 'inherit'],
    cwd: ROOT,
  });
  let screen = '';
  let prompts = 0;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (text) => {
    screen = (screen + text).slice(-4000);
    prompts += text.split(PROMPT).length - 1;
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));

  const waitPrompts = async (n, what) => {
    const deadline = Date.now() + TURN_TIMEOUT_MS;
    while (prompts < n) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last output:\n${screen}`);
      await sleep(1);
    }
  };

  const started = Date.now();
  await waitPrompts(1, 'the first prompt');
  for (let i = 1; i <= turns; i++) {
    child.stdin.write(`message ${i}: how do BTC and SOL look?\r`);
    await waitPrompts(i + 1, `the reply to message ${i}`);
  }
  const elapsed = Date.now() - started;
  const cli = descendants(child.pid).find((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('superagent.js');
    } catch {
      return false;
    }
  });
  if (!cli) throw new Error('could not find the CLI process');
  const args = fs.readFileSync(`/proc/${cli}/cmdline`, 'utf8');
  if (args.includes(server.key)) throw new Error('the API key is in the CLI process arguments');
  const peak = peakKb(cli);
  const history =
    fs.readFileSync(path.join(dataDir, 'history', fs.readdirSync(path.join(dataDir, 'history'))[0]), 'utf8').split('\n')
      .length - 1;
  child.stdin.write('\x04'); // Ctrl-D
  const code = await Promise.race([exited, sleep(10_000).then(() => 'timeout')]);
  if (code !== 0) {
    child.kill();
    throw new Error(`the REPL session ended with ${code}`);
  }
  return { turns, peak, elapsed, history };
}

async function main() {
  const { startServer } = await import(pathToFileURL(path.join(ROOT, 'dist', 'server', 'index.js')).href);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-repl-bench-'));
  const server = await startServer({
    dataDir: path.join(dir, 'service'),
    keys: [KEY],
    rateLimit: 0,
    tokenDelayMs: 0,
    log: () => undefined,
  });
  try {
    const launched = await fetch(`${server.url}/v1/superagents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench', model: 'gpt-4o', model_provider: 'openai' }),
    });
    if (launched.status !== 200) throw new Error(`launch answered ${launched.status}`);
    const short = await session(server, SHORT, dir);
    const long = await session(server, LONG, dir);
    const ratio = long.peak / short.peak;
    console.log('\nREPL peak memory (VmHWM of the CLI process, one session each, through a pty)');
    for (const r of [short, long]) {
      console.log(
        `  ${String(r.turns).padStart(5)} turns   peak ${(r.peak / 1024).toFixed(1).padStart(6)} MB   ` +
          `${(r.elapsed / r.turns).toFixed(1)} ms/turn   history ${r.history} lines`,
      );
    }
    const ok = ratio <= GOAL;
    console.log(`  ratio ${ratio.toFixed(2)}   ${ok ? `ok (goal ≤ ${GOAL}×)` : `MISSES goal ≤ ${GOAL}×`}`);
    process.exitCode = ok ? 0 : 1;
  } finally {
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
