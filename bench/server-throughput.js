#!/usr/bin/env node
// Throughput of the embedded service against a bare node:http server, then 100 concurrent SSE chats.
//
//   npm run build && node bench/server-throughput.js
//
// 1. GET /v1/superagents/{id} on the embedded service (startServer from dist/, rate limit off, one agent)
//    vs. a bare node:http server answering the very same JSON body with the same headers.
//    Both run in child processes so autocannon never shares their event loop; identical autocannon
//    settings (50 connections, 2 s warm-up each, then 10 s each split into 5 interleaved 2 s rounds,
//    service and bare alternating, so background load on the machine hits both alike). The ratio is the
//    median of the per-round ratios; the body of every answer is checked (mismatches count as errors).
// 2. 100 concurrent streamed chats (POST /v1/superagents/{id}/chat, stream: true, token delay 5 ms)
//    over 10 agents and 2 keys: each must end with RunCompleted whose content equals the concatenated
//    RunContent pieces, then stream_complete and `data: [DONE]` (docs/api.md, Streaming replies).
//
// Exits 1 when service/bare < MIN_RATIO, any non-2xx / error / timeout / mismatch occurred, or a stream failed.
// Loopback only; every loop is bounded; children stop on SIGTERM, when this process goes away, or after
// CHILD_MAX_LIFETIME_MS at the latest.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');
const SELF = fileURLToPath(import.meta.url);
const DIST_SERVER = path.join(ROOT, 'dist', 'server', 'index.js');

const HOST = '127.0.0.1';
/** A numeric setting from the environment, kept within bounds (so every loop stays bounded). */
function setting(name, fallback, min, max) {
  const n = Number(process.env[name] ?? fallback);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback;
}
const CONNECTIONS = Math.round(setting('BENCH_CONNECTIONS', 50, 1, 1000));
const DURATION_S = setting('BENCH_DURATION', 10, 1, 120);
const WARMUP_S = setting('BENCH_WARMUP', 2, 0, 30);
const ROUNDS = Math.round(setting('BENCH_ROUNDS', 5, 1, 20));
const MIN_RATIO = 0.5;
const TOKEN_DELAY_MS = 5;
const STREAMS = 100;
const STREAM_AGENTS = 10;
const STREAM_KEYS = 2;
const STREAM_TIMEOUT_MS = 60_000;
const CHILD_MAX_LIFETIME_MS = 180_000;
const KEYS = Array.from({ length: STREAM_KEYS }, (_, i) => `sa_sk_bench${i}${'x'.repeat(26)}`);

// ---------------------------------------------------------------------------------------------
// Child modes: `--child service DATA_DIR TOKEN_DELAY KEY...` and `--child bare` (body in BENCH_BARE_BODY).
// stdin is the control line: `cpu` asks for this process's CPU time so far (answered `cpu <µs>` on stdout);
// its end means the parent is gone.

function exitWithParent(close) {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    Promise.resolve(close()).finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 2_000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.stdin.on('end', stop); // the parent went away (its end of the pipe closed)
  process.stdin.on('error', stop);
  process.stdin.setEncoding('utf8').on('data', (chunk) => {
    for (const line of chunk.split('\n')) {
      if (line.trim() !== 'cpu') continue;
      const u = process.cpuUsage();
      process.stdout.write(`cpu ${u.user + u.system}\n`);
    }
  });
  setTimeout(stop, CHILD_MAX_LIFETIME_MS).unref(); // the listening server keeps the process alive, not this timer
}

async function runServiceChild([dataDir, tokenDelay, ...keys]) {
  const { startServer } = await import(pathToFileURL(DIST_SERVER).href);
  const server = await startServer({
    dataDir,
    port: 0,
    host: HOST,
    keys,
    rateLimit: 0,
    tokenDelayMs: Number(tokenDelay),
  });
  exitWithParent(() => server.close());
  process.stdout.write(`Listening on ${server.url}\n`);
}

async function runBareChild() {
  const body = Buffer.from(process.env.BENCH_BARE_BODY ?? '{}', 'utf8');
  // the same headers sendJson() sends, precomputed: this is the floor node:http itself sets
  const server = http.createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, HOST, resolve));
  exitWithParent(
    () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
  process.stdout.write(`Listening on http://${HOST}:${server.address().port}\n`);
}

// ---------------------------------------------------------------------------------------------
// Parent helpers

const children = new Set();

function startChild(args, env = {}) {
  const child = spawn(process.execPath, [SELF, '--child', ...args], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8').on('data', (c) => {
    err += c;
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  exited.then(() => children.delete(child));
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`child ${args[0]} did not start in 15 s: ${err}`)), 15_000);
    child.stdout.on('data', (c) => {
      out += c;
      const m = /Listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`child ${args[0]} exited (${code ?? signal}) before listening: ${err}`));
    });
  });
  const cpuWaiters = [];
  child.stdout.on('data', (c) => {
    for (const m of String(c).matchAll(/^cpu (\d+)$/gm)) cpuWaiters.shift()?.(Number(m[1]));
  });
  return {
    ready,
    stderr: () => err,
    /** the child's CPU time (user + system) so far, in µs */
    cpu() {
      return new Promise((resolve) => {
        cpuWaiters.push(resolve);
        child.stdin.write('cpu\n');
      });
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 3_000);
      await exited;
      clearTimeout(t);
    },
  };
}

function killChildren() {
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}

async function call(url, method, urlPath, key, body) {
  const headers = { authorization: `Bearer ${key}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url + urlPath, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${urlPath} → ${res.status}: ${text}`);
  return { status: res.status, text, json: JSON.parse(text) };
}

function cannon(autocannon, url, key, expectBody, duration) {
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    headers: { authorization: `Bearer ${key}` },
    expectBody,
    timeout: 10,
  });
}

/** Warm-up, then ROUNDS alternating slices of DURATION_S / ROUNDS seconds per target. */
async function compare(autocannon, targets, key, expectBody) {
  const slice = DURATION_S / ROUNDS;
  for (const t of targets) if (WARMUP_S > 0) await cannon(autocannon, t.url, key, expectBody, WARMUP_S);
  const rounds = targets.map(() => []);
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? targets.map((_, i) => i) : targets.map((_, i) => targets.length - 1 - i);
    for (const i of order) {
      const before = await targets[i].child.cpu();
      const result = await cannon(autocannon, targets[i].url, key, expectBody, slice);
      result.cpuUs = (await targets[i].child.cpu()) - before;
      rounds[i].push(result);
    }
  }
  const stats = targets.map((t, i) => {
    const rs = rounds[i];
    const sum = (f) => rs.reduce((n, x) => n + f(x), 0);
    const seconds = sum((x) => x.duration);
    const res = {
      title: t.title,
      rps: sum((x) => x.requests.total) / seconds,
      round_rps: rs.map((x) => Math.round(x.requests.total / x.duration)),
      cpu_us_per_req: sum((x) => x.cpuUs) / sum((x) => x.requests.total),
      latency_p50_ms: median(rs.map((x) => x.latency.p50)),
      latency_p99_ms: Math.max(...rs.map((x) => x.latency.p99)),
      non2xx: sum((x) => x.non2xx),
      errors: sum((x) => x.errors),
      timeouts: sum((x) => x.timeouts),
      mismatches: sum((x) => x.mismatches),
    };
    res.failures = res.non2xx + res.errors + res.timeouts + res.mismatches;
    return res;
  });
  return stats;
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The service's data-only SSE: the JSON of each `data:` line (its name in `event`), `[DONE]` as the string. */
function parseSse(text) {
  const events = [];
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
    if (!line.startsWith('data:')) continue;
    const data = line.slice(5).replace(/^ /, '');
    events.push(data === '[DONE]' ? data : JSON.parse(data));
  }
  return events;
}

async function oneStream(url, agent, i) {
  const started = performance.now();
  const res = await fetch(`${url}/v1/superagents/${agent.id}/chat`, {
    method: 'POST',
    headers: { authorization: `Bearer ${agent.key}`, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ message: `Stream ${i}: what would you trade today, and why?`, stream: true }),
    signal: AbortSignal.timeout(STREAM_TIMEOUT_MS),
  });
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status !== 200) return { ok: false, ms, why: `status ${res.status}: ${text.slice(0, 200)}` };
  const events = parseSse(text);
  const session = events.find((e) => e.event === 'session_info');
  const deltas = events.filter((e) => e.event === 'RunContent').map((e) => e.content);
  const done = events.filter((e) => e.event === 'RunCompleted');
  const tail = events.slice(-2).map((e) => e.event ?? e);
  if (!session) return { ok: false, ms, why: 'no session_info event' };
  if (done.length !== 1 || tail.join() !== 'stream_complete,[DONE]')
    return { ok: false, ms, why: `no final stream_complete, [DONE] (last: ${tail})` };
  if (done[0].session_id !== session.session_id) return { ok: false, ms, why: 'RunCompleted.session_id differs' };
  if (deltas.length === 0) return { ok: false, ms, why: 'no RunContent pieces' };
  if (done[0].content !== deltas.join('')) return { ok: false, ms, why: 'RunCompleted.content != concatenated pieces' };
  return { ok: true, ms, deltas: deltas.length };
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const fmt = (n, d = 0) => (typeof n === 'number' ? n.toFixed(d) : String(n));

function table(rows) {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
  const line = (r) =>
    r.map((cell, c) => (c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]))).join('  ');
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

async function main() {
  if (!fs.existsSync(DIST_SERVER)) {
    console.error('dist/ is missing: run `npm run build` first');
    return 2;
  }
  const { default: autocannon } = await import('autocannon');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-bench-'));
  const summary = {
    node: process.version,
    cpus: os.cpus().length,
    connections: CONNECTIONS,
    duration_s: DURATION_S,
    warmup_s: WARMUP_S,
  };
  const problems = [];
  try {
    // ---- the service: one agent per (key, slot), the first one is the GET target
    const service = startChild(['service', dataDir, String(TOKEN_DELAY_MS), ...KEYS]);
    const serviceUrl = await service.ready;
    const agents = [];
    for (let a = 0; a < STREAM_AGENTS; a++) {
      const key = KEYS[a % STREAM_KEYS];
      const { json } = await call(serviceUrl, 'POST', '/v1/superagents', key, {
        name: `bench-agent-${a}`,
        model: 'gpt-4o',
        model_provider: 'openai',
      });
      agents.push({ id: json.agent_id, key });
    }
    const target = agents[0];
    const getPath = `/v1/superagents/${target.id}`;
    const sample = await call(serviceUrl, 'GET', getPath, target.key);
    const body = sample.text; // the bare server answers exactly these bytes
    summary.body_bytes = Buffer.byteLength(body);

    // ---- the bare node:http server, same body and headers; each target idles while the other is measured
    const bare = startChild(['bare'], { BENCH_BARE_BODY: body });
    const bareUrl = await bare.ready;
    console.log(
      `GET ${getPath} (${summary.body_bytes} B body), ${CONNECTIONS} connections, ${WARMUP_S} s warm-up, ` +
        `then ${ROUNDS} interleaved rounds of ${DURATION_S / ROUNDS} s per target (${DURATION_S} s each)`,
    );
    const [svc, bar] = await compare(
      autocannon,
      [
        { title: 'service GET /v1/superagents/{id}', url: serviceUrl + getPath, child: service },
        { title: 'bare node:http, same body', url: bareUrl + getPath, child: bare },
      ],
      target.key,
      body,
    );
    await bare.stop();

    const roundRatios = svc.round_rps.map((r, i) => r / bar.round_rps[i]);
    const ratio = median(roundRatios);
    summary.rounds = ROUNDS;
    summary.service_rps = Math.round(svc.rps);
    summary.bare_rps = Math.round(bar.rps);
    summary.ratio = Number(ratio.toFixed(3));
    summary.ratio_of_totals = Number((svc.rps / bar.rps).toFixed(3));
    summary.round_ratios = roundRatios.map((r) => Number(r.toFixed(3)));
    summary.service_cpu_us_per_req = Number(svc.cpu_us_per_req.toFixed(1));
    summary.bare_cpu_us_per_req = Number(bar.cpu_us_per_req.toFixed(1));
    summary.service_round_rps = svc.round_rps;
    summary.bare_round_rps = bar.round_rps;
    summary.service = {
      p50_ms: svc.latency_p50_ms,
      p99_ms: svc.latency_p99_ms,
      non2xx: svc.non2xx,
      errors: svc.errors,
      timeouts: svc.timeouts,
      mismatches: svc.mismatches,
    };
    summary.bare = {
      p50_ms: bar.latency_p50_ms,
      p99_ms: bar.latency_p99_ms,
      non2xx: bar.non2xx,
      errors: bar.errors,
      timeouts: bar.timeouts,
      mismatches: bar.mismatches,
    };
    if (ratio < MIN_RATIO) problems.push(`ratio ${ratio.toFixed(3)} < ${MIN_RATIO}`);
    for (const r of [svc, bar])
      if (r.failures > 0)
        problems.push(
          `${r.title}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts, ${r.mismatches} mismatches`,
        );

    // ---- 100 concurrent SSE streams over 10 agents
    const started = performance.now();
    const streams = await Promise.all(
      Array.from({ length: STREAMS }, (_, i) =>
        oneStream(serviceUrl, agents[i % agents.length], i).catch((err) => ({
          ok: false,
          ms: performance.now() - started,
          why: String(err),
        })),
      ),
    );
    const wallMs = performance.now() - started;
    const ok = streams.filter((s) => s.ok);
    const durations = streams.map((s) => s.ms).sort((a, b) => a - b);
    summary.sse = {
      streams: STREAMS,
      agents: agents.length,
      keys: STREAM_KEYS,
      token_delay_ms: TOKEN_DELAY_MS,
      completed: ok.length,
      wall_ms: Math.round(wallMs),
      stream_p50_ms: Math.round(pct(durations, 50)),
      stream_max_ms: Math.round(durations[durations.length - 1]),
      deltas_per_stream_avg: ok.length ? Math.round(ok.reduce((n, s) => n + s.deltas, 0) / ok.length) : 0,
    };
    const failed = streams.filter((s) => !s.ok);
    if (failed.length) problems.push(`${failed.length} of ${STREAMS} streams failed, e.g. ${failed[0].why}`);

    await service.stop();
    if (service.stderr().trim()) problems.push(`service stderr: ${service.stderr().trim().slice(0, 500)}`);

    console.log('');
    console.log(
      table([
        [
          'target',
          'req/s',
          'rounds req/s',
          'CPU µs/req',
          'p50 ms',
          'max p99 ms',
          'non-2xx',
          'errors',
          'timeouts',
          'mismatch',
        ],
        ...[svc, bar].map((r) => [
          r.title,
          fmt(r.rps),
          r.round_rps.join(' '),
          fmt(r.cpu_us_per_req, 1),
          fmt(r.latency_p50_ms),
          fmt(r.latency_p99_ms),
          r.non2xx,
          r.errors,
          r.timeouts,
          r.mismatches,
        ]),
      ]),
    );
    console.log(
      `\nratio service/bare: ${ratio.toFixed(3)} (median of rounds ${summary.round_ratios.join(', ')}; ` +
        `totals ${summary.ratio_of_totals}; minimum ${MIN_RATIO})`,
    );
    console.log(
      `server CPU per request: service ${fmt(svc.cpu_us_per_req, 1)} µs, bare ` +
        `${fmt(bar.cpu_us_per_req, 1)} µs (less sensitive to machine load than req/s)`,
    );
    console.log(
      `SSE: ${ok.length}/${STREAMS} streams complete with RunCompleted == the ` +
        `RunContent pieces over ${agents.length} agents / ${STREAM_KEYS} keys, ` +
        `${summary.sse.wall_ms} ms wall, per stream p50 ${summary.sse.stream_p50_ms} ` +
        `ms, max ${summary.sse.stream_max_ms} ms, ` +
        `~${summary.sse.deltas_per_stream_avg} deltas each at ${TOKEN_DELAY_MS} ms`,
    );
  } finally {
    killChildren();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  summary.ok = problems.length === 0;
  summary.problems = problems;
  for (const p of problems) console.error(`FAIL: ${p}`);
  console.log(JSON.stringify(summary));
  return problems.length === 0 ? 0 : 1;
}

if (process.argv[2] === '--child') {
  const [mode, ...rest] = process.argv.slice(3);
  if (mode === 'service') await runServiceChild(rest);
  else if (mode === 'bare') await runBareChild();
  else {
    console.error(`unknown child mode ${mode}`);
    process.exit(2);
  }
} else {
  process.once('SIGINT', () => {
    killChildren();
    process.exit(130);
  });
  process.exitCode = await main().catch((err) => {
    console.error(err?.stack ?? String(err));
    killChildren();
    return 1;
  });
}
