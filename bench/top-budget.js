// How many service requests `superagent top` sends a minute: the built CLI's live view in a tmux pane
// (it needs a terminal) against a loopback node:http stand-in for the hosted service with N agents,
// every chain source off (they are no service requests), a short --interval so that the list alone would
// want more than the budget. The stand-in records when each request arrives; the bench prints the most
// requests in any 60 s window against --budget, and what they were. Real time: DURATION_S (default 130).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { BIN } from './lib.js';

const AGENTS = Number(process.env.AGENTS ?? 10);
const BUDGET = Number(process.env.BUDGET ?? 30);
const INTERVAL_S = Number(process.env.INTERVAL_S ?? 1);
const DURATION_S = Math.min(600, Number(process.env.DURATION_S ?? 130));
const SOURCES = ['ETHEREUM', 'ARBITRUM', 'BASE', 'POLYGON', 'BSC', 'OPTIMISM', 'SOLANA'];

if (!fs.existsSync(path.join(path.dirname(BIN), '..', 'dist'))) {
  console.error('no build: run npm run build first');
  process.exit(2);
}
if (spawnSync('tmux', ['-V']).status !== 0) {
  console.error('tmux is needed (top draws on a terminal)');
  process.exit(2);
}

const agents = Array.from({ length: AGENTS }, (_, i) => ({
  agent_id: `a1b2c3d4-5678-90ab-cdef-${String(i).padStart(12, '0')}`,
  name: `agent-${i}`,
  status: 'running',
  model: 'gpt-4o',
  created_at: '2026-01-01T00:00:00Z',
}));
const arrivals = [];
const server = http.createServer((req, res) => {
  const at = Date.now();
  const url = new URL(req.url, 'http://x');
  const m = /^\/v1\/superagents(?:\/([^/]+)(?:\/(\w+))?)?$/.exec(url.pathname);
  const kind = !m ? 'other' : !m[1] ? 'list' : (m[2] ?? 'get');
  arrivals.push({ at, kind });
  const body =
    kind === 'list'
      ? { agents }
      : kind === 'health'
        ? { agent_id: m[1], healthy: true }
        : kind === 'wallet'
          ? { evm_address: null, solana_address: null }
          : { agent_id: m?.[1], status: 'paused' };
  const text = JSON.stringify(body);
  res.writeHead(kind === 'other' ? 404 : 200, { 'content-type': 'application/json' });
  res.end(text);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'top-bench-'));
const socket = path.join(dir, 'tmux.sock');
const envFile = path.join(dir, 'env');
const env = {
  SUPERAGENT_BASE_URL: url,
  SUPERAGENT_API_KEY: 'sk-bench-top-0000000000000000',
  SUPERAGENT_CONFIG_DIR: path.join(dir, 'config'),
  SUPERAGENT_DATA_DIR: path.join(dir, 'data'),
  SUPERAGENT_HYPERLIQUID_URL: 'off',
  SUPERAGENT_POLYMARKET_URL: 'off',
  ...Object.fromEntries(SOURCES.map((s) => [`SUPERAGENT_RPC_${s}`, 'off'])),
};
fs.writeFileSync(
  envFile,
  Object.entries(env)
    .map(([k, v]) => `export ${k}='${v}'\n`)
    .join(''),
  { mode: 0o600 },
);
const command = `. '${envFile}'; exec '${process.execPath}' '${BIN}' top --interval ${INTERVAL_S} --budget ${BUDGET}`;
const tmux = (...args) => spawnSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' });
const started = Date.now();
try {
  tmux('new-session', '-d', '-x', '120', '-y', '40', '-s', 'top', command);
  await new Promise((r) => setTimeout(r, DURATION_S * 1000));
  tmux('send-keys', '-t', 'top', 'q');
  await new Promise((r) => setTimeout(r, 500));
} finally {
  tmux('kill-server');
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

const times = arrivals.map((a) => a.at);
const most = Math.max(0, ...times.map((s) => times.filter((t) => t >= s && t < s + 60_000).length));
const count = (kind) => arrivals.filter((a) => a.kind === kind).length;
const summary = {
  agents: AGENTS,
  budget: BUDGET,
  interval_s: INTERVAL_S,
  seconds: Math.round((Date.now() - started) / 1000),
  requests: arrivals.length,
  lists: count('list'),
  health: count('health'),
  wallets: count('wallet'),
  max_in_60s: most,
};
console.log(`top against ${AGENTS} agents, --interval ${INTERVAL_S} --budget ${BUDGET}, ${summary.seconds} s:`);
console.log(
  `  ${arrivals.length} requests (${summary.lists} lists, ${summary.health} health, ${summary.wallets} wallets)`,
);
console.log(`  most in any 60 s window: ${most} (budget ${BUDGET})`);
console.log(JSON.stringify(summary));
process.exit(most <= BUDGET && arrivals.length > 0 ? 0 : 1);
