// Shared by the benchmarks: run commands interleaved (so machine load hits all alike) and take medians.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
      if (c.check && !c.check(r.stdout)) throw new Error(`${c.name} printed something unexpected: ${r.stdout.slice(0, 200)}`);
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
    console.log(`  ${r.name.padEnd(34)} median ${r.median.toFixed(1).padStart(6)} ms   ratio ${ratio.toFixed(2)}   ${verdict}`);
  }
  return results.filter((r) => r !== base).every((r) => r.median / base.median <= goal);
}
