#!/usr/bin/env node
// Reading everything an agent holds when every source is 300 ms away.
//
//   node bench/wallet.js
//
// The money sources are the loopback stand-in of the tests (test/helpers/chain-standin.ts: the recorded
// public answers for Solana, Hyperliquid and Polymarket, and an EVM JSON-RPC node with Multicall3 for the
// six chains), each answer held back BENCH_DELAY_MS (300). readHoldings (src/api/money/holdings.ts) with
// the real readers and createSourceHttp reads all nine sources; reported: the median time of a whole read
// against the 300 ms floor (one round trip) and the goal (under 1.5 s), the requests each source got
// (counted at the stand-in), and each source read alone next to all of them together. The wallet command
// is to read through the same function. The TypeScript is bundled with esbuild into a temp dir, removed at the end.
//
// Settings, from the environment: BENCH_DELAY_MS (300), BENCH_RUNS (7, after one warm-up run).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, importBundled, median } from './lib.js';

const DELAY_MS = Math.max(0, Number(process.env.BENCH_DELAY_MS ?? 300) || 0);
const RUNS = Math.min(50, Math.max(1, Number(process.env.BENCH_RUNS ?? 7) || 7));
const GOAL_MS = 1_500;
const EVM_OWNER = '0x56687bf447db6ffa42ffe2204a05edaa20f55839';
const SOLANA_OWNER = 'vines1vzrYbzLMRdu58ou5XTby4qAqVRLmqo36NKPTg';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-bench-wallet-'));
try {
  const entry = path.join(dir, 'entry.ts');
  const rel = (p) => JSON.stringify(path.join(ROOT, p));
  fs.writeFileSync(
    entry,
    [
      `export { readHoldings } from ${rel('src/api/money/holdings.ts')};`,
      `export { readEvm } from ${rel('src/api/money/evm.ts')};`,
      `export { createSourceHttp } from ${rel('src/api/money/source-http.ts')};`,
      `export { EVM_CHAINS, SOURCES } from ${rel('src/api/money/types.ts')};`,
      `export { startChainStandIn } from ${rel('test/helpers/chain-standin.ts')};`,
    ].join('\n'),
  );
  await run(await importBundled(entry));
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

async function run({ readHoldings, readEvm, createSourceHttp, EVM_CHAINS, SOURCES, startChainStandIn }) {
  // a stand-in per source (each its own host:port, as the public defaults are), and one for all of them
  // (as the embedded service's simulation is: one host, whose 10 connections the requests share)
  const own = await Promise.all(SOURCES.map(() => startChainStandIn({ delayMs: DELAY_MS })));
  const shared = await startChainStandIn({ delayMs: DELAY_MS });
  const urlOf = (standIn, s) => (EVM_CHAINS.includes(s) ? standIn.evm(s) : standIn[s]);
  const apart = Object.fromEntries(SOURCES.map((s, i) => [s, urlOf(own[i], s)]));
  const together = Object.fromEntries(SOURCES.map((s) => [s, urlOf(shared, s)]));
  const only = (source) => Object.fromEntries(SOURCES.map((s) => [s, s === source ? apart[s] : null]));
  const addresses = { evm: EVM_OWNER, solana: SOLANA_OWNER };
  const standIns = [...own, shared];
  const requests = (source) => {
    const key = EVM_CHAINS.includes(source) ? `evm/${source}` : source;
    return standIns.reduce((n, st) => n + (st.counts.get(key) ?? 0), 0);
  };

  /** one read: its time in ms and the sources that failed */
  const once = async (endpoints) => {
    const http = createSourceHttp();
    try {
      const began = performance.now();
      const result = await readHoldings(addresses, endpoints, { json: http.json, readEvm });
      return { ms: performance.now() - began, errors: result.errors };
    } finally {
      http.close();
    }
  };
  /** the median of RUNS reads after a warm-up (module loading, first connections); requests of one read */
  const timed = async (endpoints) => {
    await once(endpoints);
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      for (const st of standIns) st.counts.clear();
      runs.push(await once(endpoints));
    }
    const failed = runs.at(-1).errors.filter((e) => !e.message.startsWith('mid prices'));
    if (failed.length) throw new Error(`sources failed: ${JSON.stringify(failed)}`);
    return median(runs.map((r) => r.ms));
  };
  const line = (name, ms) => {
    const verdict = ms < GOAL_MS ? `ok (goal < ${GOAL_MS} ms)` : `MISSES goal < ${GOAL_MS} ms`;
    const ratio = DELAY_MS ? `×${(ms / DELAY_MS).toFixed(2)} the floor` : '';
    console.log(`  ${name.padEnd(36)} ${ms.toFixed(0).padStart(6)} ms   ${ratio.padEnd(16)} ${verdict}`);
  };

  try {
    console.log(`\nEvery source ${DELAY_MS} ms away (loopback stand-ins), ${RUNS} runs after a warm-up, medians`);
    const apartMs = await timed(apart);
    const perSource = SOURCES.map((s) => [s, requests(s)]);
    line(`all ${SOURCES.length} sources, a host each`, apartMs);
    line(`all ${SOURCES.length} sources on one host (/sim)`, await timed(together));
    console.log('\n  source          requests   alone (ms)   round trips');
    let sum = 0;
    for (const [source, n] of perSource) {
      const alone = await timed(only(source));
      sum += alone;
      const trips = DELAY_MS ? (alone / DELAY_MS).toFixed(2) : '-';
      console.log(`  ${source.padEnd(14)} ${String(n).padStart(8)}   ${alone.toFixed(0).padStart(10)}   ${trips}`);
    }
    const total = perSource.reduce((n, [, k]) => n + k, 0);
    console.log(`  ${'all together'.padEnd(14)} ${String(total).padStart(8)}   ${apartMs.toFixed(0).padStart(10)}`);
    console.log(`  (the sources read one after another would take ${sum.toFixed(0)} ms)`);
    process.exitCode = apartMs < GOAL_MS ? 0 : 1;
  } finally {
    await Promise.all(standIns.map((st) => st.close()));
  }
}
