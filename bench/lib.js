// Shared by the benchmarks: run commands interleaved (so machine load hits all alike) and take medians.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BIN = path.join(ROOT, 'bin', 'superagent.js');

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Runs each case `runs` times, round-robin, and returns the median wall time of each in ms. */
export function timeCases(cases, { runs = 30, warmup = 3, env = process.env } = {}) {
  const times = cases.map(() => []);
  for (let i = 0; i < warmup + runs; i++) {
    cases.forEach((c, j) => {
      const start = process.hrtime.bigint();
      const r = spawnSync(c.cmd, c.args, { env: { ...env, ...c.env }, encoding: 'utf8', input: c.input ?? '' });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (r.status !== 0) throw new Error(`${c.name} exited ${r.status}: ${r.stderr}`);
      if (c.check && !c.check(r.stdout))
        throw new Error(`${c.name} printed something unexpected: ${r.stdout.slice(0, 200)}`);
      if (i >= warmup) times[j].push(ms);
    });
  }
  return cases.map((c, j) => ({ name: c.name, median: median(times[j]), min: Math.min(...times[j]) }));
}

export function report(title, results, baselineName, goal) {
  const base = results.find((r) => r.name === baselineName);
  console.log(`\n${title}`);
  for (const r of results) {
    const ratio = r.median / base.median;
    const verdict = r === base ? 'baseline' : ratio <= goal ? `ok (goal ≤ ${goal}×)` : `MISSES goal ≤ ${goal}×`;
    console.log(
      `  ${r.name.padEnd(34)} median ${r.median.toFixed(1).padStart(6)} ms   ratio ${ratio.toFixed(2)}   ${verdict}`,
    );
  }
  return results.filter((r) => r !== base).every((r) => r.median / base.median <= goal);
}

export const BENCH_KEY = 'sa_sk_' + 's'.repeat(32);
export const benchHeaders = { authorization: `Bearer ${BENCH_KEY}`, 'content-type': 'application/json' };

/**
 * `superagent server --quiet` in a child on a loopback port (temp data dir, no rate limit, no token delay,
 * `extra` arguments): its URL once it listens, and `stop()`, which ends it and removes the dir.
 */
export async function startBenchServer(extra = []) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-bench-'));
  const child = spawn(
    process.execPath,
    [
      BIN,
      'server',
      '--port',
      '0',
      '--rate-limit',
      '0',
      '--token-delay',
      '0',
      '--data-dir',
      dataDir,
      '--key',
      BENCH_KEY,
      // no line per request: a benchmark's stderr is its report, and the writes would be measured too
      '--quiet',
      ...extra,
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const stop = () => {
    child.kill('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const url = await new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8');
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const m = /Listening on (\S+)/.exec(buf);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  }).catch((err) => {
    stop();
    throw err;
  });
  return { url, dataDir, stop };
}

/** An agent launched on the server at `url`, and its whole reply to `message` (one JSON answer). */
export async function benchAgent(url, message) {
  const launch = { name: 'bench', model: 'gpt-4o', model_provider: 'openai' };
  const { agent_id: id } = await fetch(`${url}/v1/superagents`, {
    method: 'POST',
    headers: benchHeaders,
    body: JSON.stringify(launch),
  }).then((r) => r.json());
  const whole = await fetch(`${url}/v1/superagents/${id}/chat`, {
    method: 'POST',
    headers: benchHeaders,
    body: JSON.stringify({ message }),
  }).then((r) => r.json());
  return { url, id, expected: whole.content };
}

export const HAS_SCRIPT = process.platform === 'linux' && spawnSync('script', ['--version']).status === 0;

/** A command line for util-linux `script`: the command runs in a pseudo-terminal (stdout a TTY), stderr dropped. */
export function inPty(cmd, args) {
  const quote = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;
  return { cmd: 'script', args: ['-qfec', `${[cmd, ...args].map(quote).join(' ')} 2>/dev/null`, '/dev/null'] };
}

/**
 * Bundles the TypeScript `entry` (tests' helpers and sources) with esbuild next to it and imports it. The chain
 * stand-in finds its fixtures next to itself, and the package.json it reads is as far from it: the bundle's
 * import.meta.url is the stand-in's.
 */
export async function importBundled(entry) {
  const { build } = await import('esbuild');
  const outfile = entry.replace(/\.ts$/, '.mjs');
  const here = pathToFileURL(path.join(ROOT, 'test/helpers/chain-standin.ts')).href;
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    define: { 'import.meta.url': JSON.stringify(here) },
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  return import(pathToFileURL(outfile).href);
}
