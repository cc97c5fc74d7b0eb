// What a proxy costs: `superagent get <id> --json` direct, and through HTTP_PROXY (undici's
// EnvHttpProxyAgent, loaded only then: its load, a second connection hop), interleaved in one run.
// The figure is in ARCHITECTURE.md; no goal, the proxy hop is in both the time and the comparison.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { BENCH_KEY, BIN, ROOT, benchAgent, report, startBenchServer, timeCases } from './lib.js';

const runs = Number(process.env.RUNS ?? 30);
/** the environment without any proxy variable (an empty one would still win over its upper-case twin) */
const direct = (env) => Object.fromEntries(Object.entries(env).filter(([k]) => !/^(https?|no)_proxy$/i.test(k)));
const server = await startBenchServer();
const forward = path.join(ROOT, 'bench', 'forward-proxy.mjs');
const proxy = spawn(process.execPath, [forward], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const proxyUrl = await new Promise((resolve) => proxy.stdout.once('data', (d) => resolve(String(d).trim())));
  const { url, dataDir } = server;
  const { id } = await benchAgent(url, 'hi');
  const env = { SUPERAGENT_BASE_URL: url, SUPERAGENT_API_KEY: BENCH_KEY, SUPERAGENT_CONFIG_DIR: dataDir };
  env.NO_COLOR = '1';
  const check = (out) => JSON.parse(out).agent_id === id;
  const args = [BIN, 'get', id, '--json'];
  const results = timeCases(
    [
      { name: 'get --json, direct', cmd: process.execPath, args, check },
      { name: 'get --json, HTTP_PROXY', cmd: process.execPath, args, check, env: { HTTP_PROXY: proxyUrl } },
    ],
    { runs, env: { ...direct(process.env), ...env } },
  );
  report(`One GET, direct and through a proxy (${runs} runs each, medians)`, results, 'get --json, direct', Infinity);
  console.log(JSON.stringify({ bench: 'proxy', runs, results }));
} finally {
  proxy.kill('SIGTERM');
  server.stop();
}
