// How long the kill switch takes when the service rate-limits it: `superagent pause --all` on 10
// agents against a loopback stand-in for the hosted service that answers pauses with
// `429 Retry-After: 20`. Two cases, each one run of the built CLI:
//   once:   each agent's first pause is refused (a service whose window is full for 20 s)
//   always: every pause is refused (the CLI must give up within its 60 s budget, exit 5)
// Prints the wall time, the exit code and the requests the service saw. Real waits: ~20 s + ~60 s.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { BIN as BUILT } from './lib.js';

const BIN = process.env.BENCH_BIN ?? BUILT; // another build (an older one, say) to compare with
const RETRY_AFTER = 20;
const AGENTS = Array.from({ length: 10 }, (_, i) => ({
  agent_id: `a1b2c3d4-5678-90ab-cdef-${String(i).padStart(12, '0')}`,
  name: `agent-${i}`,
  status: 'running',
  model: 'gpt-4o',
  created_at: '2026-01-01T00:00:00Z',
}));
const CASES = { once: { expectCode: 0, limitS: RETRY_AFTER + 10 }, always: { expectCode: 5, limitS: 60 + 10 } };
const only = process.env.MODE ? [process.env.MODE] : Object.keys(CASES);

if (!fs.existsSync(BIN)) {
  console.error(`no build at ${BIN}: run npm run build first`);
  process.exit(2);
}

/** The stand-in: the list, and pauses refused as `mode` says; counts what it is sent. */
async function service(mode) {
  const seen = { lists: 0, pauses: 0, refused: 0, other: 0 };
  const asked = new Map();
  const json = (res, status, body, headers = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      ...headers,
    });
    res.end(text);
  };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const pause = /^\/v1\/superagents\/([^/]+)\/pause$/.exec(req.url ?? '');
      if (req.method === 'GET' && req.url === '/v1/superagents') {
        seen.lists++;
        return json(res, 200, { agents: AGENTS });
      }
      if (req.method !== 'POST' || !pause) {
        seen.other++;
        return json(res, 404, { statusCode: 404, message: 'Not found' });
      }
      seen.pauses++;
      const n = (asked.get(pause[1]) ?? 0) + 1;
      asked.set(pause[1], n);
      if (mode === 'always' || n === 1) {
        seen.refused++;
        const resetAt = new Date(Date.now() + RETRY_AFTER * 1000).toISOString();
        return json(
          res,
          429,
          { statusCode: 429, message: 'Rate limit exceeded', retryAfter: RETRY_AFTER, resetAt },
          { 'retry-after': String(RETRY_AFTER) },
        );
      }
      json(res, 200, { agent_id: pause[1], status: 'paused' });
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    seen,
    close: () => (server.closeAllConnections(), server.close()),
  };
}

async function runCase(mode) {
  const svc = await service(mode);
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-bench-config-'));
  try {
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SUPERAGENT_BASE_URL: svc.url,
      SUPERAGENT_API_KEY: 'sa_sk_' + 'b'.repeat(32),
      SUPERAGENT_CONFIG_DIR: configDir,
      NO_COLOR: '1',
    };
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [BIN, 'pause', '--all'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise((resolve) => child.on('exit', (c) => resolve(c)));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const paused = stdout.split('\n').filter((l) => l.endsWith('\tpaused')).length;
    const notices = stderr.split('\n').filter((l) => l.includes('Rate limited')).length;
    const c = CASES[mode];
    const ok = code === c.expectCode && seconds <= c.limitS;
    return {
      mode,
      seconds: Number(seconds.toFixed(1)),
      code,
      paused,
      notices,
      requests: { ...svc.seen, total: svc.seen.lists + svc.seen.pauses + svc.seen.other },
      ok,
    };
  } finally {
    svc.close();
    fs.rmSync(configDir, { recursive: true, force: true });
  }
}

const results = [];
for (const mode of only) {
  if (!CASES[mode]) throw new Error(`MODE must be one of ${Object.keys(CASES).join(', ')}`);
  const r = await runCase(mode);
  results.push(r);
  const q = r.requests;
  console.log(
    `${mode.padEnd(6)} pause --all on 10 agents, Retry-After ${RETRY_AFTER}: ` +
      `${r.seconds} s, exit ${r.code}, ${r.paused} paused, ` +
      `${q.total} requests (${q.lists} list, ${q.pauses} pauses of ` +
      `which ${q.refused} refused), ${r.notices} wait notice(s)` +
      `   ${r.ok ? 'ok' : `MISSES (exit ${CASES[mode].expectCode} within ${CASES[mode].limitS} s)`}`,
  );
}
console.log(JSON.stringify({ bench: 'pause-all-429', bin: BIN, retryAfter: RETRY_AFTER, results }));
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
