#!/usr/bin/env node
// guard's cost and speed, as a user runs it (the built binary):
//
//   npm run build && node bench/guard.js
//
// The service is `superagent server` in a child (bench/lib.js), reached through a counting loopback forwarder;
// the money sources are the loopback stand-in of the tests (test/helpers/chain-standin.ts), Hyperliquid's
// account value set per agent by the bench. Reported:
//   - requests of one `guard --all --once` (service, and per source), per agent;
//   - the watchdog's requests per check per agent once it runs (the addresses are asked once per run);
//   - the time from a breach appearing at the source to the pause reaching the service, BENCH_TRIES times,
//     against the bound of one interval plus one round of reads.
// Settings, from the environment: BENCH_AGENTS (3), BENCH_INTERVAL_S (2), BENCH_TRIES (5), BENCH_CHECKS (5).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { BENCH_KEY, BIN, ROOT, benchHeaders, importBundled, median, startBenchServer } from './lib.js';

const AGENTS = Math.min(20, Math.max(1, Number(process.env.BENCH_AGENTS ?? 3) || 3));
const INTERVAL_S = Math.min(60, Math.max(1, Number(process.env.BENCH_INTERVAL_S ?? 2) || 2));
const TRIES = Math.min(20, Math.max(1, Number(process.env.BENCH_TRIES ?? 5) || 5));
const CHECKS = Math.min(50, Math.max(2, Number(process.env.BENCH_CHECKS ?? 5) || 5));

if (!fs.existsSync(path.join(ROOT, 'dist'))) {
  console.error('dist/ is missing: run npm run build first');
  process.exit(2);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-bench-guard-'));
const closing = [];
try {
  const entry = path.join(dir, 'entry.ts');
  const rel = (p) => JSON.stringify(path.join(ROOT, p));
  fs.writeFileSync(
    entry,
    [
      `export { SOURCES } from ${rel('src/api/money/types.ts')};`,
      `export { endpointVariable } from ${rel('src/cli/commands/shared/money.ts')};`,
      `export { startChainStandIn, fixture } from ${rel('test/helpers/chain-standin.ts')};`,
    ].join('\n'),
  );
  await run(await importBundled(entry));
} finally {
  for (const close of closing.reverse()) await close();
  fs.rmSync(dir, { recursive: true, force: true });
}

/** A loopback forwarder to `target` that counts the requests by "METHOD /path" and notes when each came. */
async function forwarder(target) {
  const seen = [];
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    seen.push({ what: `${req.method} ${req.url}`, at: performance.now() });
    const answer = await fetch(target + req.url, {
      method: req.method,
      headers: { authorization: req.headers.authorization ?? '', 'content-type': 'application/json' },
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  closing.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${server.address().port}`, seen };
}

async function run({ SOURCES, endpointVariable, startChainStandIn, fixture }) {
  const server = await startBenchServer();
  closing.push(async () => server.stop());
  const fwd = await forwarder(server.url);
  const agents = [];
  for (let i = 0; i < AGENTS; i++) {
    const body = JSON.stringify({ name: `bench-${i}`, model: 'gpt-4o', model_provider: 'openai' });
    const a = await fetch(`${server.url}/v1/superagents`, { method: 'POST', headers: benchHeaders, body });
    agents.push(await a.json());
  }
  const standIn = await startChainStandIn();
  closing.push(() => standIn.close());
  const values = new Map(agents.map((a) => [a.wallet_address.toLowerCase(), 10_000]));
  standIn.overrides.set('hyperliquid-clearinghouseState', (body) => {
    const state = fixture('hyperliquid-clearinghouseState');
    const v = (values.get(String(body?.user).toLowerCase()) ?? 10_000).toFixed(2);
    state.marginSummary.accountValue = state.crossMarginSummary.accountValue = v;
    return state;
  });
  const env = {
    PATH: process.env.PATH,
    HOME: dir,
    SUPERAGENT_CONFIG_DIR: path.join(dir, 'config'),
    SUPERAGENT_DATA_DIR: path.join(dir, 'data'),
    XDG_CACHE_HOME: path.join(dir, 'cache'),
    SUPERAGENT_BASE_URL: fwd.url,
    SUPERAGENT_API_KEY: BENCH_KEY,
    ...Object.fromEntries(SOURCES.map((s) => [endpointVariable(s), 'off'])),
    SUPERAGENT_HYPERLIQUID_URL: standIn.hyperliquid,
  };
  const rules = ['--max-drawdown', '20', '--max-loss', '5000'];

  // one --once
  fwd.seen.length = 0;
  standIn.counts.clear();
  await guardRun(['--all', ...rules, '--once', '--json'], env);
  const once = { service: fwd.seen.length, hyperliquid: standIn.counts.get('hyperliquid') ?? 0 };
  console.log(`guard --all --once, ${AGENTS} agents (--max-drawdown, --max-loss): ${once.service} service requests`);
  console.log(`  (${fwd.seen.map((s) => s.what.replace(/[0-9a-f-]{36}/, '<id>')).join(', ')})`);
  console.log(`  hyperliquid: ${once.hyperliquid} requests, ${(once.hyperliquid / AGENTS).toFixed(1)} per agent`);

  // the watchdog: requests per check once the addresses are known; then breaches, timed to the pause
  fwd.seen.length = 0;
  standIn.counts.clear();
  const child = spawn(
    process.execPath,
    [BIN, 'guard', '--all', ...rules, '--interval', String(INTERVAL_S), '--json', '--verbose'],
    {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const events = [];
  let buf = '';
  const waiters = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d) => {
    buf += d;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const e = JSON.parse(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      events.push({ ...e, at: performance.now() });
      for (const w of waiters.splice(0)) w();
    }
  });
  const until = async (test) => {
    while (!test()) await new Promise((resolve) => waiters.push(resolve));
  };
  const checks = () => events.filter((e) => e.event === 'check').length / AGENTS;
  await until(() => checks() >= 1);
  const [s1, h1] = [fwd.seen.length, standIn.counts.get('hyperliquid') ?? 0];
  await until(() => checks() >= 1 + CHECKS);
  const [s2, h2] = [fwd.seen.length, standIn.counts.get('hyperliquid') ?? 0];
  const perCheck = (n) => (n / CHECKS / AGENTS).toFixed(2);
  console.log(
    `watchdog, ${CHECKS} checks of ${AGENTS} agents after the first: ${perCheck(s2 - s1)} service and ` +
      `${perCheck(h2 - h1)} hyperliquid requests per check per agent`,
  );

  const delays = [];
  for (let i = 0; i < TRIES; i++) {
    const a = agents[i % AGENTS];
    await fetch(`${server.url}/v1/superagents/${a.agent_id}/resume`, { method: 'POST', headers: benchHeaders });
    values.set(a.wallet_address.toLowerCase(), 10_000);
    const from = checks();
    await until(() => checks() >= from + 2);
    // the breach appears at the source
    const began = performance.now();
    values.set(a.wallet_address.toLowerCase(), 7_000);
    const pausePath = `POST /v1/superagents/${a.agent_id}/pause`;
    const seenBefore = fwd.seen.length;
    await until(() => fwd.seen.slice(seenBefore).some((s) => s.what === pausePath));
    delays.push(fwd.seen.slice(seenBefore).find((s) => s.what === pausePath).at - began);
    // the resume done by a person is tolerated next; a value back up clears the record
    values.set(a.wallet_address.toLowerCase(), 10_000);
  }
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  const ms = (x) => `${Math.round(x)} ms`;
  console.log(
    `breach at the source to the pause at the service: median ${ms(median(delays))}, max ${ms(Math.max(...delays))} ` +
      `(${TRIES} tries; bound: one interval, ${INTERVAL_S * 1000} ms, plus one round of reads)`,
  );
}

function guardRun(args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'guard', ...args], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.once('exit', resolve);
  });
}
