// `superagent get <id> --json` against a running `superagent server`, compared with a plain Node
// script doing the same GET with node:http, interleaved in one run. Goal: ≤ 1.2×.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, ROOT, report, timeCases } from './lib.js';

const runs = Number(process.env.RUNS ?? 40);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-bench-'));
const key = 'sa_sk_' + 'b'.repeat(32);
const server = spawn(process.execPath, [BIN, 'server', '--port', '0', '--rate-limit', '0', '--data-dir', dataDir, '--key', key], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const url = await new Promise((resolve, reject) => {
    server.stdout.setEncoding('utf8');
    let buf = '';
    server.stdout.on('data', (d) => {
      buf += d;
      const m = /Listening on (\S+)/.exec(buf);
      if (m) resolve(m[1]);
    });
    server.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
  const launched = await fetch(`${url}/v1/superagents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', model: 'gpt-4o', model_provider: 'openai' }),
  }).then((r) => r.json());
  const id = launched.agent_id;
  const env = { SUPERAGENT_BASE_URL: url, SUPERAGENT_API_KEY: key, SUPERAGENT_CONFIG_DIR: dataDir, NO_COLOR: '1' };
  const check = (out) => JSON.parse(out).agent_id === id;
  const results = timeCases(
    [
      { name: 'node:http GET script', cmd: process.execPath, args: [path.join(ROOT, 'bench', 'baseline-get.mjs'), id], check },
      { name: 'superagent get <id> --json', cmd: process.execPath, args: [BIN, 'get', id, '--json'], check },
    ],
    { runs, env: { ...process.env, ...env } },
  );
  const ok = report(`One GET (${runs} runs each, medians)`, results, 'node:http GET script', 1.2);
  console.log(JSON.stringify({ bench: 'get', runs, results, ok }));
  process.exitCode = ok ? 0 : 1;
} finally {
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
}
