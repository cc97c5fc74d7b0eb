// How soon a reply starts: from the process's start to the first byte of the reply on stdout, for
// `superagent chat <id> MESSAGE` with a short reply from a running `superagent server` (loopback), set
// against the whole time of `superagent get <id> --json` (a command that only starts, asks once and
// prints). Goal: chat's first byte no later than get is done. Measured piped (no rendering) and, with
// util-linux `script`, in a pseudo-terminal (stdout a TTY: the reply rendered as Markdown; stderr
// dropped so its first byte is the reply's). Round-robin, medians.
//
//   npm run build && RUNS=30 node bench/first-byte.js
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_KEY, BIN, HAS_SCRIPT, benchAgent, inPty, median, startBenchServer } from './lib.js';

const runs = Number(process.env.RUNS ?? 30);
const warmup = 3;
const MESSAGE = 'How do BTC and SOL look?';

/** Spawns once: ms to the first stdout byte and to the exit. */
function once(c) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const ms = () => Number(process.hrtime.bigint() - start) / 1e6;
    let first;
    let out = '';
    const child = spawn(c.cmd, c.args, { env: c.env, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d) => {
      first ??= ms();
      out += d;
    });
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`${c.name} exited ${code}`));
      if (!c.check(out)) return reject(new Error(`${c.name} printed something unexpected: ${out.slice(0, 200)}`));
      resolve({ first, whole: ms() });
    });
  });
}

const server = await startBenchServer();
const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-bench-config-'));
try {
  const t = await benchAgent(server.url, MESSAGE);
  const base = {
    ...process.env,
    SUPERAGENT_BASE_URL: t.url,
    SUPERAGENT_API_KEY: BENCH_KEY,
    SUPERAGENT_CONFIG_DIR: configDir,
    SUPERAGENT_DATA_DIR: configDir,
  };
  const piped = { ...base, NO_COLOR: '1' };
  const terminal = { ...base, TERM: 'xterm-256color' };
  delete terminal.NO_COLOR;
  const getArgs = [BIN, 'get', t.id, '--json'];
  const chatArgs = [BIN, 'chat', '-q', t.id, MESSAGE];
  const isGet = (o) => o.includes(`"agent_id": "${t.id}"`);
  const cases = [
    { name: 'get --json, piped', cmd: process.execPath, args: getArgs, env: piped, check: isGet },
    { name: 'chat, piped', cmd: process.execPath, args: chatArgs, env: piped, check: (o) => o.length > 40 },
  ];
  if (HAS_SCRIPT) {
    cases.push(
      { name: 'get --json, terminal', ...inPty(process.execPath, getArgs), env: terminal, check: isGet },
      {
        name: 'chat, terminal (rendered)',
        ...inPty(process.execPath, chatArgs),
        env: terminal,
        check: (o) => o.length > 40,
      },
    );
  }
  const times = cases.map(() => ({ first: [], whole: [] }));
  for (let i = 0; i < warmup + runs; i++) {
    for (const [j, c] of cases.entries()) {
      const r = await once(c);
      if (i < warmup) continue;
      times[j].first.push(r.first);
      times[j].whole.push(r.whole);
    }
  }
  const results = cases.map((c, j) => ({
    name: c.name,
    firstByte: median(times[j].first),
    whole: median(times[j].whole),
  }));
  console.log(`\nFirst byte of a short reply (${runs} runs each, medians, ms)`);
  for (const r of results)
    console.log(
      `  ${r.name.padEnd(28)} first byte ` +
        `${r.firstByte.toFixed(1).padStart(6)}   whole ${r.whole.toFixed(1).padStart(6)}`,
    );
  const verdicts = [];
  for (const where of ['piped', 'terminal']) {
    const get = results.find((r) => r.name === `get --json, ${where}`);
    const chat = results.find((r) => r.name.startsWith(`chat, ${where}`));
    if (!get || !chat) continue;
    const ok = chat.firstByte <= get.whole;
    verdicts.push(ok);
    // the same difference within each round (get, then chat at once): the machine's drift between
    // rounds, often more than the difference itself, then falls out
    const [g, c] = [get, chat].map((r) => results.indexOf(r));
    const paired = median(times[c].first.map((first, i) => first - times[g].whole[i]));
    console.log(
      `  ${where}: chat's first byte − get's whole = ${(chat.firstByte - get.whole).toFixed(1)} ` +
        `ms   ${ok ? 'ok (goal ≤ 0)' : 'MISSES goal ≤ 0'}   (median of the per-round ` +
        `differences ${paired.toFixed(1)} ms)`,
    );
  }
  const ok = verdicts.every(Boolean);
  console.log(JSON.stringify({ bench: 'first-byte', runs, results, ok }));
  process.exitCode = ok ? 0 : 1;
} finally {
  server.stop();
  fs.rmSync(configDir, { recursive: true, force: true });
}
