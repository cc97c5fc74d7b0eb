// A 20,000-piece streamed reply with no delay: `superagent chat <id> MESSAGE` printing all of it
// vs `curl -sN` receiving the same stream, interleaved in one run. Goal: ≤ 1.5× curl's wall time.
// The embedded service's replies are short, so the server runs with its hidden benchmarking aid
// `--bench-reply-pieces N` (every reply sent as N pieces, its own pieces repeated).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, median, report } from './lib.js';

const PIECES = Number(process.env.PIECES ?? 20_000);
const runs = Number(process.env.RUNS ?? 15);
const warmup = 2;
const GOAL = 1.5;
const MESSAGE = 'Give me the full market overview';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-bench-'));
const key = 'sa_sk_' + 's'.repeat(32);
const server = spawn(
  process.execPath,
  [BIN, 'server', '--port', '0', '--rate-limit', '0', '--token-delay', '0', '--bench-reply-pieces', String(PIECES), '--data-dir', dataDir, '--key', key],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);

function listening() {
  return new Promise((resolve, reject) => {
    server.stdout.setEncoding('utf8');
    let buf = '';
    server.stdout.on('data', (d) => {
      buf += d;
      const m = /Listening on (\S+)/.exec(buf);
      if (m) resolve(m[1]);
    });
    server.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
}

/** Runs each case `runs` times round-robin (after `warmup` rounds); median wall time of each, in ms. */
function timeInterleaved(cases) {
  const times = cases.map(() => []);
  for (let i = 0; i < warmup + runs; i++) {
    cases.forEach((c, j) => {
      const start = process.hrtime.bigint();
      const r = spawnSync(c.cmd, c.args, { env: c.env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (r.status !== 0) throw new Error(`${c.name} exited ${r.status}: ${r.stderr}`);
      if (!c.check(r.stdout)) throw new Error(`${c.name} printed something unexpected (${r.stdout.length} characters)`);
      if (i >= warmup) times[j].push(ms);
    });
  }
  return cases.map((c, j) => ({ name: c.name, median: median(times[j]), min: Math.min(...times[j]) }));
}

try {
  const url = await listening();
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const { agent_id: id } = await fetch(`${url}/v1/superagents`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench' }) }).then((r) => r.json());
  // the whole reply, as one JSON answer: what both clients must receive
  const whole = await fetch(`${url}/v1/superagents/${id}/chat`, { method: 'POST', headers, body: JSON.stringify({ message: MESSAGE }) }).then((r) => r.json());
  const expected = whole.content;
  const body = JSON.stringify({ message: MESSAGE, stream: true });
  const env = { ...process.env, SUPERAGENT_BASE_URL: url, SUPERAGENT_API_KEY: key, SUPERAGENT_CONFIG_DIR: dataDir, NO_COLOR: '1' };
  const results = timeInterleaved([
    {
      name: 'curl -sN (raw SSE)',
      cmd: 'curl',
      args: ['-sN', '-H', `authorization: Bearer ${key}`, '-H', 'content-type: application/json', '-d', body, `${url}/v1/superagents/${id}/chat`],
      env,
      check: (out) => (out.match(/^event: delta$/gm) ?? []).length === PIECES && out.includes('event: done'),
    },
    {
      name: `superagent chat (${PIECES} pieces)`,
      cmd: process.execPath,
      args: [BIN, 'chat', id, MESSAGE],
      env,
      check: (out) => out === `${expected}\n`,
    },
  ]);
  const ok = report(`A ${PIECES}-piece reply, no token delay (${runs} runs each, medians)`, results, 'curl -sN (raw SSE)', GOAL);
  console.log(`  reply: ${expected.length} characters in ${PIECES} pieces`);
  console.log(JSON.stringify({ bench: 'stream-throughput', pieces: PIECES, runs, results, ok }));
  process.exitCode = ok ? 0 : 1;
} finally {
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
