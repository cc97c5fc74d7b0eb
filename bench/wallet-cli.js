#!/usr/bin/env node
// The wallet command as a user runs it (the built binary, a fresh HOME and data dir, an agent launched on the
// embedded service) when every money source is BENCH_DELAY_MS (300) away:
//
//   npm run build && node bench/wallet-cli.js
//
// Every source variable (SUPERAGENT_RPC_<CHAIN>, SUPERAGENT_RPC_SOLANA, SUPERAGENT_HYPERLIQUID_URL,
// SUPERAGENT_POLYMARKET_URL) points at a loopback stand-in of its own (test/helpers/chain-standin.ts), each
// answer held back the delay. Timed, interleaved, medians: `wallet demo --json` (goal under 1.5 s),
// `wallet demo --no-balances --json`, `get demo --json`, and the wallet of BENCH_BEFORE (2e8c449, the commit
// before balances: extracted with git archive and built into a temp dir; BENCH_BEFORE=none skips it).
// Counted at the stand-ins: the requests of one `wallet` and of one `destroy demo --yes` refused by its funds
// check (the stand-ins hold funds on every chain), and the stderr lines of `wallet --debug` naming a source.
//
// Settings, from the environment: BENCH_DELAY_MS (300), BENCH_RUNS (9, after one warm-up), BENCH_BEFORE.
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { BIN, ROOT, importBundled, median } from './lib.js';

const DELAY_MS = Math.max(0, Number(process.env.BENCH_DELAY_MS ?? 300) || 0);
const RUNS = Math.min(50, Math.max(1, Number(process.env.BENCH_RUNS ?? 9) || 9));
const BEFORE = process.env.BENCH_BEFORE ?? '2e8c449';
const GOAL_MS = 1_500;
const exec = promisify(execFile);

if (!fs.existsSync(path.join(ROOT, 'dist'))) {
  console.error('dist/ is missing: run npm run build first');
  process.exit(2);
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-bench-wallet-cli-'));
const standIns = [];
try {
  const entry = path.join(dir, 'entry.ts');
  const rel = (p) => JSON.stringify(path.join(ROOT, p));
  fs.writeFileSync(
    entry,
    [
      `export { EVM_CHAINS, SOURCES } from ${rel('src/api/money/types.ts')};`,
      `export { endpointVariable } from ${rel('src/cli/commands/shared/money.ts')};`,
      `export { startChainStandIn } from ${rel('test/helpers/chain-standin.ts')};`,
    ].join('\n'),
  );
  await run(await importBundled(entry));
} finally {
  await Promise.all(standIns.map((st) => st.close()));
  fs.rmSync(dir, { recursive: true, force: true });
}

/** The binary of `commit`, built in the temp dir (node_modules linked from here); null when it cannot be. */
function buildBefore(commit) {
  if (commit === 'none') return null;
  const to = path.join(dir, 'before');
  fs.mkdirSync(to);
  try {
    execFileSync('sh', ['-c', `git archive "$1" | tar -x -C "$2"`, 'sh', commit, to], { cwd: ROOT, stdio: 'pipe' });
    fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(to, 'node_modules'));
    execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: to, stdio: 'pipe' });
    return path.join(to, 'bin', 'superagent.js');
  } catch (err) {
    console.log(`  (no wallet of ${commit}: ${String(err.message).split('\n')[0]})`);
    return null;
  }
}

async function run({ EVM_CHAINS, SOURCES, endpointVariable, startChainStandIn }) {
  // a stand-in per source: each its own host:port, as the public defaults are
  for (const _ of SOURCES) standIns.push(await startChainStandIn({ delayMs: DELAY_MS }));
  const key = (s) => (EVM_CHAINS.includes(s) ? `evm/${s}` : s);
  const urls = SOURCES.map((s, i) => (EVM_CHAINS.includes(s) ? standIns[i].evm(s) : standIns[i][s]));
  const home = path.join(dir, 'home');
  // nothing of the developer's own setup: a fresh HOME, config, data and cache dir, no service but the embedded
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    TERM: 'dumb',
    NO_COLOR: '1',
    SUPERAGENT_CONFIG_DIR: path.join(home, 'config'),
    SUPERAGENT_DATA_DIR: path.join(home, 'data'),
    XDG_CACHE_HOME: path.join(home, 'cache'),
    ...Object.fromEntries(SOURCES.map((s, i) => [endpointVariable(s), urls[i]])),
  };
  const cli = async (args, { bin = BIN, ok = true } = {}) => {
    const began = performance.now();
    const r = await exec(process.execPath, [bin, ...args], { env, encoding: 'utf8' }).catch((e) => e);
    const ms = performance.now() - began;
    const code = r.code ?? 0;
    if (ok && code !== 0) throw new Error(`superagent ${args.join(' ')} exited ${code}: ${r.stderr}`);
    return { ms, code, stdout: r.stdout, stderr: r.stderr };
  };
  const counts = () => Object.fromEntries(SOURCES.map((s, i) => [s, standIns[i].counts.get(key(s)) ?? 0]));
  const clear = () => standIns.forEach((st) => st.counts.clear());

  await cli(['launch', '--name', 'demo', '--yes']);
  const before = buildBefore(BEFORE);
  const readAll = (out) => {
    const w = JSON.parse(out);
    if (w.errors.length || !w.balances.length) throw new Error(`wallet read no balances: ${out.slice(0, 300)}`);
  };
  const cases = [
    { name: 'wallet demo --json', args: ['wallet', 'demo', '--json'], check: readAll },
    { name: 'wallet demo --no-balances --json', args: ['wallet', 'demo', '--no-balances', '--json'] },
    { name: 'get demo --json', args: ['get', 'demo', '--json'] },
    ...(before ? [{ name: `wallet demo --json (${BEFORE})`, args: ['wallet', 'demo', '--json'], bin: before }] : []),
  ];
  const times = cases.map(() => []);
  for (let i = 0; i <= RUNS; i++) {
    for (const [j, c] of cases.entries()) {
      const r = await cli(c.args, { bin: c.bin });
      c.check?.(r.stdout);
      if (i > 0) times[j].push(r.ms);
    }
  }
  const medians = times.map(median);
  console.log(`\nEvery source ${DELAY_MS} ms away (a loopback stand-in each), ${RUNS} runs after a warm-up, medians`);
  for (const [j, c] of cases.entries()) {
    const goal = j === 0 ? (medians[j] < GOAL_MS ? `ok (goal < ${GOAL_MS} ms)` : `MISSES goal < ${GOAL_MS} ms`) : '';
    console.log(`  ${c.name.padEnd(40)} ${medians[j].toFixed(0).padStart(6)} ms  ${goal}`);
  }

  clear();
  await cli(['wallet', 'demo', '--json']);
  const wallet = counts();
  clear();
  const debug = await cli(['wallet', 'demo', '--json', '--debug']);
  // a request to a source is one '→ METHOD host:port/path' line (its answer one '← status host:port' line)
  const named = debug.stderr.split('\n').filter((l) => urls.some((u) => l.includes(new URL(u).host)));
  const debugLines = named.filter((l) => l.startsWith('→'));
  const debugCounts = counts();
  clear();
  const destroy = await cli(['destroy', 'demo', '--yes'], { ok: false });
  const destroyed = counts();
  if (destroy.code === 0) throw new Error('destroy demo --yes was not refused: the stand-ins hold funds');
  console.log(`\n  requests per source     wallet   destroy (refused, exit ${destroy.code})`);
  for (const s of SOURCES) {
    console.log(`  ${s.padEnd(20)} ${String(wallet[s]).padStart(8)}   ${String(destroyed[s]).padStart(8)}`);
  }
  const sum = (c) => Object.values(c).reduce((a, b) => a + b, 0);
  console.log(`  ${'all'.padEnd(20)} ${String(sum(wallet)).padStart(8)}   ${String(sum(destroyed)).padStart(8)}`);
  const said = `${debugLines.length} request lines (${named.length} lines in all) name a source`;
  console.log(`\n  wallet --debug: ${said}, for ${sum(debugCounts)} requests at the stand-ins`);
  if (process.env.BENCH_SHOW_DEBUG) console.log(debug.stderr);

  const summary = {
    bench: 'wallet-cli',
    delay_ms: DELAY_MS,
    runs: RUNS,
    medians_ms: Object.fromEntries(cases.map((c, j) => [c.name, Math.round(medians[j])])),
    requests: { wallet, destroy: destroyed },
    debug_request_lines: debugLines.length,
    debug_source_lines: named.length,
    debug_requests: sum(debugCounts),
  };
  console.log(JSON.stringify(summary));
  const oneRound = SOURCES.every((s) => destroyed[s] === wallet[s]);
  process.exitCode = medians[0] < GOAL_MS && oneRound && debugLines.length === sum(debugCounts) ? 0 : 1;
}
