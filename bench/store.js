#!/usr/bin/env node
// Write latency and size on disk of the embedded service's store (one file per record) as the state grows.
//
//   npm run build && node bench/store.js
//
// At 10, 100 and 1,000 agents (10 per account, the limit), every account with full sessions (200
// sessions of 20 history turns, the caps) and every agent with a full memory.md (64 KiB, the cap),
// the service (startServer from dist/, in this process, loopback, rate limit off, no token delay) is
// timed on one write at a time:
//   - profile: PUT /v1/superagents/{id}/profile (one agent record rewritten)
//   - chat:    POST /v1/superagents/{id}/chat continuing a full session (the agent's memory and the session)
//   - launch:  POST /v1/superagents (a wallet made, the account's agents counted, a record created)
//   - and the profile write through the Store alone (no HTTP, no route): the store's own share
// and, as the floor, a plain fs.writeFile of one record of the same size as the agent record and the
// session record (and the same with fsync, which the store does for durability). Reported: median and
// p95 in ms, and the store's size on disk (apparent bytes, allocated bytes, files).
//
// Settings, from the environment: BENCH_SCALES (10,100,1000), BENCH_SAMPLES (60 per operation).
// Seeding writes every record with fsync: about two minutes in all on a 2-core VM. Temp dirs are removed.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, median } from './lib.js';

const DIST_SERVER = path.join(ROOT, 'dist', 'server', 'index.js');
if (!fs.existsSync(DIST_SERVER)) {
  console.error('dist/ is missing: run `npm run build` first');
  process.exit(2);
}
const { Store, startServer } = await import(pathToFileURL(DIST_SERVER).href);

const SCALES = (process.env.BENCH_SCALES ?? '10,100,1000')
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n >= 10 && n <= 5000);
const SAMPLES = Math.min(1000, Math.max(5, Number(process.env.BENCH_SAMPLES ?? 60) || 60));
const AGENTS_PER_ACCOUNT = 10;
const SESSIONS_PER_ACCOUNT = 200;
const HISTORY_TURNS = 20;
const MEMORY_BYTES = 64 * 1024;

const key = (scale, i) => `sa_sk_bench${scale}x${String(i).padStart(5, '0')}${'k'.repeat(16)}`;
// the account a key belongs to, as src/server/auth.ts derives it
const accountOf = (k) => crypto.createHash('sha256').update(k, 'utf8').digest('hex').slice(0, 24);
const uuid = () => crypto.randomUUID();

function p95(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)];
}

function agentRecord(account, n, now) {
  let memory = `# Memory of agent ${n}\n\n`;
  for (let i = 0; Buffer.byteLength(memory) < MEMORY_BYTES - 120; i++)
    memory += `- 2030-01-01: remembered note ${i} about BTC, SOL and risk limits\n`;
  return {
    agent_id: uuid(),
    owner: account,
    name: `agent ${n}`,
    description: 'a trading agent with a full memory',
    status: 'running',
    model: 'gpt-4o',
    model_provider: 'openai',
    created_at: now,
    updated_at: now,
    bot_username: null,
    telegram_bot_token: null,
    evm_address: `0x${crypto.randomBytes(20).toString('hex')}`,
    solana_address: crypto.randomBytes(32).toString('base64url'),
    soul_md: `# agent ${n}\n\nYou are an autonomous crypto-trading SuperAgent.\n\n## Rules\n- Protect capital first.\n`,
    memory_md: memory,
    skills: {},
    container_started_at: now,
    restarts: 0,
  };
}

function fullSession(account, agentId, now) {
  const history = [];
  for (let t = 0; t < HISTORY_TURNS / 2; t++) {
    history.push({
      role: 'user',
      content: `question ${t}: ${'how are BTC and SOL doing against my positions today? '.repeat(4)}`,
    });
    history.push({
      role: 'agent',
      content: `answer ${t}: ${'BTC is range-bound; SOL leads; your exposure is within the 2% rule. '.repeat(12)}`,
    });
  }
  return { session_id: uuid(), owner: account, agent_id: agentId, created_at: now, turns: 40, history };
}

async function seed(dir, scale) {
  const store = new Store(dir).open();
  const accounts = scale / AGENTS_PER_ACCOUNT;
  const now = new Date().toISOString();
  const targets = [];
  for (let a = 0; a < accounts; a++) {
    const k = key(scale, a);
    const account = accountOf(k);
    const agents = [];
    for (let n = 0; n < AGENTS_PER_ACCOUNT; n++) {
      const record = agentRecord(account, n, now);
      await store.launchAgent(account, record, () => undefined);
      agents.push(record.agent_id);
    }
    for (let s = 0; s < SESSIONS_PER_ACCOUNT; s++) {
      const session = fullSession(account, agents[s % agents.length], now);
      await store.sessions.create(account, session, Date.now());
      targets.push({ key: k, agentId: session.agent_id, sessionId: session.session_id });
    }
  }
  return { store, targets };
}

function sizeOnDisk(dir) {
  let bytes = 0;
  let allocated = 0;
  let files = 0;
  const walk = (d) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        const st = fs.statSync(full);
        bytes += st.size;
        allocated += st.blocks * 512;
        files += 1;
      }
    }
  };
  walk(dir);
  return { bytes, allocated, files };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function call(base, method, urlPath, k, body) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${base}${urlPath}`,
      {
        method,
        agent,
        headers: {
          authorization: `Bearer ${k}`,
          'content-type': 'application/json',
          ...(data ? { 'content-length': Buffer.byteLength(data) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c) => (text += c));
        res.on('end', () =>
          res.statusCode === 200 ? resolve(text) : reject(new Error(`${method} ${urlPath}: ${res.statusCode} ${text}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

async function timed(times, fn) {
  const start = process.hrtime.bigint();
  await fn();
  times.push(Number(process.hrtime.bigint() - start) / 1e6);
}

async function floor(dir, bytes, sync) {
  const file = path.join(dir, `floor-${bytes}-${sync}.json`);
  const data = Buffer.alloc(bytes, 'x');
  const times = [];
  for (let i = 0; i < SAMPLES; i++) {
    await timed(times, async () => {
      if (!sync) return fs.promises.writeFile(file, data);
      const handle = await fs.promises.open(file, 'w');
      await handle.writeFile(data);
      await handle.sync();
      await handle.close();
    });
  }
  return times;
}

async function measure(scale) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `superagent-bench-store-${scale}-`));
  try {
    const seedStart = Date.now();
    const { store, targets } = await seed(dir, scale);
    const seedMs = Date.now() - seedStart;
    const size = sizeOnDisk(path.join(dir, 'records'));
    // what every in-process CLI command pays before its request (tidied within the hour: no sweep)
    const opens = [];
    for (let i = 0; i < 20; i++) await timed(opens, async () => new Store(dir).open());
    const launchKeys = Array.from({ length: Math.ceil(SAMPLES / (AGENTS_PER_ACCOUNT - 1)) }, (_, i) =>
      key(scale, 90_000 + i),
    );
    const keys = [...new Set(targets.map((t) => t.key)), ...launchKeys];
    const server = await startServer({ dataDir: dir, keys, rateLimit: 0, tokenDelayMs: 0, log: () => undefined });
    const pick = (i) => targets[(i * 7919) % targets.length];
    const times = { get: [], profile: [], 'profile, store only': [], chat: [], launch: [] };
    try {
      for (let i = 0; i < SAMPLES; i++) {
        const t = pick(i);
        await timed(times.get, () => call(server.url, 'GET', `/v1/superagents/${t.agentId}`, t.key));
        await timed(times.profile, () =>
          call(server.url, 'PUT', `/v1/superagents/${t.agentId}/profile`, t.key, { description: `bench ${i}` }),
        );
        // the same write without HTTP, the route and the request's JSON: the store's own cost
        await timed(times['profile, store only'], () =>
          store.agents.update(accountOf(t.key), t.agentId, (a) => {
            a.description = `store ${i}`;
            a.updated_at = new Date().toISOString();
          }),
        );
        await timed(times.chat, () =>
          call(server.url, 'POST', `/v1/superagents/${t.agentId}/chat`, t.key, {
            message: `remember note ${i}. how is SOL?`,
            session_id: t.sessionId,
          }),
        );
        const lk = launchKeys[Math.floor(i / (AGENTS_PER_ACCOUNT - 1))];
        await timed(times.launch, () =>
          call(server.url, 'POST', '/v1/superagents', lk, {
            name: `new ${i}`,
            model: 'gpt-4o',
            model_provider: 'openai',
          }),
        );
      }
    } finally {
      await server.close();
    }
    const t = pick(0);
    const account = accountOf(t.key);
    const agentBytes = fs.statSync(store.layout.file(account, 'agent', t.agentId)).size;
    const sessionBytes = fs.statSync(store.layout.file(account, 'session', t.sessionId)).size;
    const floors = {
      [`writeFile agent record (${(agentBytes / 1024).toFixed(0)} KiB)`]: await floor(dir, agentBytes, false),
      [`writeFile session record (${(sessionBytes / 1024).toFixed(0)} KiB)`]: await floor(dir, sessionBytes, false),
      [`writeFile+fsync agent record`]: await floor(dir, agentBytes, true),
    };
    return { scale, seedMs, size, opens, times, floors };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const mb = (n) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const row = (name, values) =>
  `  ${name.padEnd(40)} median ${median(values).toFixed(2).padStart(8)} ` +
  `ms   p95 ${p95(values).toFixed(2).padStart(8)} ms`;
const summary = [];
for (const scale of SCALES) {
  const r = await measure(scale);
  console.log(
    `\n${scale} agents, ${scale / AGENTS_PER_ACCOUNT} accounts × ${SESSIONS_PER_ACCOUNT} ` +
      `sessions × ${HISTORY_TURNS} turns (seeded in ${(r.seedMs / 1000).toFixed(1)} s)`,
  );
  console.log(`  store on disk: ${mb(r.size.bytes)} in ${r.size.files} files (${mb(r.size.allocated)} allocated)`);
  console.log(row('open the store', r.opens));
  console.log(row('GET one agent (read)', r.times.get));
  for (const op of ['profile', 'profile, store only', 'chat', 'launch']) console.log(row(`${op} (write)`, r.times[op]));
  for (const [name, values] of Object.entries(r.floors)) console.log(row(`floor: ${name}`, values));
  summary.push({
    agents: scale,
    bytes: r.size.bytes,
    files: r.size.files,
    open: { median: +median(r.opens).toFixed(2), p95: +p95(r.opens).toFixed(2) },
    ...Object.fromEntries(
      Object.entries(r.times).map(([op, v]) => [op, { median: +median(v).toFixed(2), p95: +p95(v).toFixed(2) }]),
    ),
    floor: Object.fromEntries(
      Object.entries(r.floors).map(([op, v]) => [op, { median: +median(v).toFixed(2), p95: +p95(v).toFixed(2) }]),
    ),
  });
}
agent.destroy();
console.log(JSON.stringify(summary));
