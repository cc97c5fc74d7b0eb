// A 20,000-piece streamed reply with no delay: `superagent chat <id> MESSAGE` printing all of it
// vs `curl -sN` receiving the same stream, interleaved in one run. Goal: ≤ 1.5× curl's wall time.
// The embedded service's replies are short, so the server runs with its hidden benchmarking aid
// `--bench-reply-pieces N` (every reply sent as N pieces, its own pieces repeated).
// For context, the same two clients also fetch an ordinary short reply from a second server: the
// difference long − short is the cost of the stream itself, without the start-up of either client.
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

const key = 'sa_sk_' + 's'.repeat(32);
const dirs = [];
const servers = [];

/** A `superagent server` child on a free port; its URL once it listens. */
function startServer(extra) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-bench-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, [BIN, 'server', '--port', '0', '--rate-limit', '0', '--token-delay', '0', '--data-dir', dataDir, '--key', key, ...extra], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  servers.push(child);
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8');
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const m = /Listening on (\S+)/.exec(buf);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
}

const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

/** An agent on the server at `url`, and the whole reply to MESSAGE as one JSON answer. */
async function target(url) {
  const launch = { name: 'bench', model: 'gpt-4o', model_provider: 'openai' };
  const { agent_id: id } = await fetch(`${url}/v1/superagents`, { method: 'POST', headers, body: JSON.stringify(launch) }).then((r) => r.json());
  const whole = await fetch(`${url}/v1/superagents/${id}/chat`, { method: 'POST', headers, body: JSON.stringify({ message: MESSAGE }) }).then((r) => r.json());
  return { url, id, expected: whole.content };
}

function cases(label, t, pieces) {
  const env = { ...process.env, SUPERAGENT_BASE_URL: t.url, SUPERAGENT_API_KEY: key, SUPERAGENT_CONFIG_DIR: dirs[0], NO_COLOR: '1' };
  const body = JSON.stringify({ message: MESSAGE, stream: true });
  return [
    {
      name: `curl -sN, ${label}`,
      cmd: 'curl',
      args: ['-sN', '-H', `authorization: Bearer ${key}`, '-H', 'content-type: application/json', '-d', body, `${t.url}/v1/superagents/${t.id}/chat`],
      env,
      // data-only lines (§6): a piece is a RunContent event, the end is `data: [DONE]`
      check: (out) => (pieces === null || (out.match(/^data: \{"event":"RunContent",/gm) ?? []).length === pieces) && out.endsWith('data: [DONE]\n\n'),
    },
    { name: `superagent chat, ${label}`, cmd: process.execPath, args: [BIN, 'chat', '-q', t.id, MESSAGE], env, check: (out) => out === `${t.expected}\n` },
  ];
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
  const long = await target(await startServer(['--bench-reply-pieces', String(PIECES)]));
  const short = await target(await startServer([]));
  const results = timeInterleaved([...cases(`${PIECES} pieces`, long, PIECES), ...cases('short reply', short, null)]);
  const [curlLong, chatLong, curlShort, chatShort] = results;
  const ok = report(`A ${PIECES}-piece reply, no token delay (${runs} runs each, medians)`, [curlLong, chatLong], curlLong.name, GOAL);
  console.log(`  reply: ${long.expected.length} characters in ${PIECES} pieces`);
  const streamOnly = (chatLong.median - chatShort.median) / (curlLong.median - curlShort.median);
  console.log(`  for context: ${curlShort.name} ${curlShort.median.toFixed(1)} ms, ${chatShort.name} ${chatShort.median.toFixed(1)} ms`);
  console.log(`  the stream alone (long − short): curl ${(curlLong.median - curlShort.median).toFixed(1)} ms, superagent ${(chatLong.median - chatShort.median).toFixed(1)} ms, ratio ${streamOnly.toFixed(2)}`);
  console.log(JSON.stringify({ bench: 'stream-throughput', pieces: PIECES, runs, results, streamOnlyRatio: Number(streamOnly.toFixed(3)), ok }));
  process.exitCode = ok ? 0 : 1;
} finally {
  for (const child of servers) child.kill('SIGTERM');
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
}
