// Peak memory of `superagent chat` against the size of the reply it streams: 10, 100 and 300 MB of
// text, piped (the text goes to stdout as it arrives) and with --json (the reply held whole, up to
// its cap: past it, exit 7).
//
//   npm run build && node bench/reply-memory.js
//   SIZES=10,100 MODES=piped node bench/reply-memory.js          (MB of reply text; piped, json)
//   SUPERAGENT_BIN=/path/to/other/bin/superagent.js node bench/reply-memory.js   (another build)
//   WHOLE_AGAIN=0 node bench/reply-memory.js     (RunCompleted without the reply repeated in it)
//
// The reply comes from a scripted SSE server in this process, made as the client reads it (nothing of
// it is held here either) by the tests' own generator (test/helpers/long-reply.ts, bundled), in the
// shape the hosted service sends (docs/api.md, Streaming replies): session_info, RunContent pieces of 7 to 3,000
// characters (ASCII and some é, €, 日本), then RunCompleted whose `content` is the whole reply again,
// stream_complete and [DONE]. The CLI's peak resident set is process.resourceUsage().maxRSS (and its
// CPU time, user + system, which a busy machine moves less than the wall time), written to a file at
// its exit by a --require hook (test/helpers/peak-rss.cjs); its stdout is counted and hashed here as
// it arrives, and checked against the reply's own hash.
// Goal: piped, a 300 MB reply within 200 MB peak; --json past its cap exits 7.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { BENCH_KEY, BIN, ROOT } from './lib.js';

const MB = 1_000_000;
const SIZES = (process.env.SIZES ?? '10,100,300').split(',').map(Number);
const MODES = (process.env.MODES ?? 'piped,json').split(',');
const CLI = process.env.SUPERAGENT_BIN ?? BIN;
/** WHOLE_AGAIN=0: RunCompleted without the reply again (what a build that fails on it can still be measured with) */
const WHOLE_AGAIN = process.env.WHOLE_AGAIN !== '0';
const GOAL_PIPED_MB = 200;
const AGENT = '0b5e5e5e-1111-4222-8333-944444444444';
const PEAK_HOOK = path.join(ROOT, 'test', 'helpers', 'peak-rss.cjs');

/** The tests' reply generator: test/helpers/long-reply.ts, bundled (esbuild, well under a second). */
async function loadLongReply(dir) {
  const outfile = path.join(dir, 'long-reply.mjs');
  const entry = path.join(ROOT, 'test', 'helpers', 'long-reply.ts');
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile, logLevel: 'warning' });
  return import(pathToFileURL(outfile).href);
}

/** A loopback server whose agent's chat streams a reply of the size last set. */
async function startServer(longReply) {
  let size = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST' && req.url === `/v1/superagents/${AGENT}/chat`) {
        return longReply(size, { wholeAgain: WHOLE_AGAIN }).handler(req, res);
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ statusCode: 404, message: `Cannot ${req.method} ${req.url}` }));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    setSize: (n) => (size = n),
    close: () => (server.closeAllConnections(), server.close()),
  };
}

/** One chat: the CLI's exit code, peak RSS, CPU and wall time, and what it printed (counted, hashed). */
async function chat(server, dir, mode) {
  const peakFile = path.join(dir, 'peak');
  fs.rmSync(peakFile, { force: true });
  const args = ['--require', PEAK_HOOK, CLI, 'chat', AGENT, 'the long one', ...(mode === 'json' ? ['--json'] : [])];
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    SUPERAGENT_BASE_URL: server.url,
    SUPERAGENT_API_KEY: BENCH_KEY,
    SUPERAGENT_CONFIG_DIR: path.join(dir, 'config'),
    SUPERAGENT_DATA_DIR: path.join(dir, 'data'),
    PEAK_RSS_FILE: peakFile,
  };
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const hash = crypto.createHash('sha256');
  let size = 0;
  const kept = [];
  let keptSize = 0;
  child.stdout.on('data', (chunk) => {
    hash.update(chunk);
    size += chunk.length;
    // --json output is parsed when it is small enough to hold here
    if (keptSize <= 64 * MB) kept.push(chunk);
    keptSize += chunk.length;
  });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (t) => (stderr = (stderr + t).slice(-2000)));
  const code = await new Promise((resolve) => child.once('close', resolve));
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const usage = JSON.parse(fs.readFileSync(peakFile, 'utf8'));
  const stdout = keptSize <= 64 * MB ? Buffer.concat(kept).toString('utf8') : undefined;
  return {
    code,
    peakMb: (usage.maxRSS * 1024) / MB,
    cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
    ms,
    size,
    hash: hash.digest('hex'),
    stdout,
    stderr: stderr.trim(),
  };
}

/** What the run shows: every byte (piped), the whole reply or the cap's exit 7 (--json). */
function verdict(mode, r, expected) {
  if (mode === 'piped') {
    if (r.code !== 0) return `exit ${r.code}: ${r.stderr.split('\n').pop()}`;
    const whole = r.size === expected.size && r.hash === expected.sha256;
    return whole ? 'every byte' : `WRONG OUTPUT (${r.size} of ${expected.size} bytes)`;
  }
  if (r.stdout === undefined) return `exit ${r.code}, ${(r.size / MB).toFixed(0)} MB printed`;
  let out;
  try {
    out = JSON.parse(r.stdout || 'null');
  } catch {
    return `exit ${r.code}, stdout not JSON`;
  }
  if (r.code === 0) {
    const text = typeof out?.content === 'string' ? out.content : '';
    const printed = text.endsWith('\n') ? text : `${text}\n`;
    const ok = crypto.createHash('sha256').update(printed).digest('hex') === expected.sha256;
    return ok ? 'whole reply in JSON' : 'WRONG JSON content';
  }
  const line = r.stderr.split('\n').find((l) => l.startsWith('Error:')) ?? r.stderr.split('\n').pop();
  const partial = typeof out?.content === 'string' && out.content.length > 0 ? ', PARTIAL TEXT PRINTED' : '';
  return `exit ${r.code}${partial}: ${line}`;
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-reply-memory-'));
  const { longReply, printedDigest } = await loadLongReply(dir);
  const server = await startServer(longReply);
  const rows = [];
  let ok = true;
  try {
    console.log(`\nPeak RSS of \`superagent chat\` (${path.relative(ROOT, CLI) || CLI}) against reply size`);
    console.log('   reply   mode     peak RSS     time      CPU   result');
    for (const mb of SIZES) {
      const expected = printedDigest(mb * MB);
      server.setSize(mb * MB);
      for (const mode of MODES) {
        const r = await chat(server, dir, mode);
        const v = verdict(mode, r, expected);
        const cells = [`${mb} MB`.padStart(6), mode.padEnd(6), `${r.peakMb.toFixed(0)} MB`.padStart(8)];
        cells.push(`${(r.ms / 1000).toFixed(1)} s`.padStart(6), `${(r.cpuMs / 1000).toFixed(1)} s`.padStart(6), v);
        console.log(`  ${cells.join('   ')}`);
        const [peakMb, seconds, cpuSeconds] = [r.peakMb, r.ms / 1000, r.cpuMs / 1000].map((n) => Number(n.toFixed(2)));
        rows.push({ mb, mode, peakMb, seconds, cpuSeconds, exit: r.code, result: v });
        if (mode === 'piped') ok &&= v === 'every byte' && r.peakMb <= GOAL_PIPED_MB;
      }
    }
  } finally {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(`  goal: piped, every byte within ${GOAL_PIPED_MB} MB peak: ${ok ? 'ok' : 'MISSED'}`);
  console.log(JSON.stringify({ bench: 'reply-memory', rows, ok }));
  process.exitCode = ok ? 0 : 1;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
