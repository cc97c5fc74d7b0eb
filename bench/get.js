// `superagent get <id> --json` against a running `superagent server`, compared with a plain Node
// script doing the same GET with node:http, interleaved in one run. Goal: ≤ 1.2×.
import path from 'node:path';
import { BENCH_KEY, BIN, ROOT, benchAgent, report, startBenchServer, timeCases } from './lib.js';

const runs = Number(process.env.RUNS ?? 40);
const server = await startBenchServer();
try {
  const { url, dataDir } = server;
  const key = BENCH_KEY;
  const { id } = await benchAgent(url, 'hi');
  const env = { SUPERAGENT_BASE_URL: url, SUPERAGENT_API_KEY: key, SUPERAGENT_CONFIG_DIR: dataDir, NO_COLOR: '1' };
  const check = (out) => JSON.parse(out).agent_id === id;
  const results = timeCases(
    [
      {
        name: 'node:http GET script',
        cmd: process.execPath,
        args: [path.join(ROOT, 'bench', 'baseline-get.mjs'), id],
        check,
      },
      { name: 'superagent get <id> --json', cmd: process.execPath, args: [BIN, 'get', id, '--json'], check },
    ],
    { runs, env: { ...process.env, ...env } },
  );
  const ok = report(`One GET (${runs} runs each, medians)`, results, 'node:http GET script', 1.2);
  console.log(JSON.stringify({ bench: 'get', runs, results, ok }));
  process.exitCode = ok ? 0 : 1;
} finally {
  server.stop();
}
