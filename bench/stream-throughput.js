// A 20,000-piece streamed reply with no delay: `superagent chat <id> MESSAGE` printing all of it vs
// `curl -sN` receiving the same stream, interleaved in one run, with `node -e 0` timed alongside.
// No Node program can beat curl alone (Node's own start-up is most of it), so the floor is Node's
// start-up plus curl's time. Two ratios, each with its goal:
//   whole CLI / (node -e 0 + curl)                              goal ≤ 1.3×
//   the stream alone: (chat long − chat short) / (curl long − curl short)   goal ≤ 1.2×
// Both measured piped (no rendering) and, with util-linux `script`, in a pseudo-terminal, where the
// reply is rendered as Markdown (curl there too, so both pay for the terminal; stderr dropped).
// Piped, bare node:http printing the same stream (bench/baseline-stream.mjs) is timed too: the part
// of the ratios that any Node client pays.
// The embedded service's replies are short, so the server runs with its hidden benchmarking aid
// `--bench-reply-pieces N` (every reply sent as N pieces, its own pieces repeated); a second server
// sends ordinary short replies.
//
//   npm run build && RUNS=15 node bench/stream-throughput.js        (WHERE=piped for one of the two)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCH_KEY, BIN, HAS_SCRIPT, ROOT, benchAgent, inPty, median, startBenchServer } from './lib.js';

const PIECES = Number(process.env.PIECES ?? 20_000);
const runs = Number(process.env.RUNS ?? 15);
const warmup = 2;
const GOAL_WHOLE = 1.3;
const GOAL_STREAM = 1.2;
const MESSAGE = 'Give me the full market overview';

function cases(where, size, t, pieces, env) {
  const body = JSON.stringify({ message: MESSAGE, stream: true });
  const curl = [
    'curl',
    [
      '-sN',
      '-H',
      `authorization: Bearer ${BENCH_KEY}`,
      '-H',
      'content-type: application/json',
      '-d',
      body,
      `${t.url}/v1/superagents/${t.id}/chat`,
    ],
  ];
  const chat = [process.execPath, [BIN, 'chat', '-q', t.id, MESSAGE]];
  const wrap = ([cmd, args]) => (where === 'terminal' ? inPty(cmd, args) : { cmd, args });
  const sse = (out) =>
    (pieces === null || (out.match(/^data: \{"event":"RunContent",/gm) ?? []).length === pieces) &&
    out.trimEnd().endsWith('data: [DONE]');
  const bare =
    where === 'piped'
      ? [
          {
            key: `${where}/node/${size}`,
            name: `node:http alone, ${size}, ${where}`,
            cmd: process.execPath,
            args: [path.join(ROOT, 'bench', 'baseline-stream.mjs'), `${t.url}/v1/superagents/${t.id}/chat`, MESSAGE],
            env,
            check: sse,
          },
        ]
      : [];
  return [
    ...bare,
    {
      key: `${where}/curl/${size}`,
      name: `curl -sN, ${size}, ${where}`,
      ...wrap(curl),
      env,
      // data-only lines: a piece is a RunContent event, the end is `data: [DONE]`
      check: sse,
    },
    {
      key: `${where}/chat/${size}`,
      name: `superagent chat, ${size}, ${where}`,
      ...wrap(chat),
      env,
      // piped: the reply byte for byte, its line ended (a reply that ends one gets no second newline);
      // rendered: as long, give or take the Markdown marks
      check: (out) =>
        where === 'piped'
          ? out === (t.expected.endsWith('\n') ? t.expected : `${t.expected}\n`)
          : out.length > t.expected.length * 0.5,
    },
  ];
}

/** Runs each case `runs` times round-robin (after `warmup` rounds); median wall time of each, in ms. */
function timeInterleaved(all) {
  const times = all.map(() => []);
  for (let i = 0; i < warmup + runs; i++) {
    all.forEach((c, j) => {
      const start = process.hrtime.bigint();
      const r = spawnSync(c.cmd, c.args, { env: c.env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (r.status !== 0) throw new Error(`${c.name} exited ${r.status}: ${r.stderr}`);
      if (!c.check(r.stdout)) throw new Error(`${c.name} printed something unexpected (${r.stdout.length} characters)`);
      if (i >= warmup) times[j].push(ms);
    });
  }
  return Object.fromEntries(
    all.map((c, j) => [c.key, { name: c.name, median: median(times[j]), min: Math.min(...times[j]) }]),
  );
}

const longServer = await startBenchServer(['--bench-reply-pieces', String(PIECES)]);
const shortServer = await startBenchServer();
const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-bench-config-'));
try {
  const long = await benchAgent(longServer.url, MESSAGE);
  const short = await benchAgent(shortServer.url, MESSAGE);
  const envFor = (t, where) => {
    const env = {
      ...process.env,
      SUPERAGENT_BASE_URL: t.url,
      SUPERAGENT_API_KEY: BENCH_KEY,
      SUPERAGENT_CONFIG_DIR: configDir,
      SUPERAGENT_DATA_DIR: configDir,
      TERM: 'xterm-256color',
    };
    if (where === 'piped') env.NO_COLOR = '1';
    else delete env.NO_COLOR;
    return env;
  };
  // WHERE=piped or WHERE=terminal measures one of the two (both by default, where `script` exists)
  const places = (HAS_SCRIPT ? ['piped', 'terminal'] : ['piped']).filter(
    (w) => !process.env.WHERE || w === process.env.WHERE,
  );
  const all = [
    { key: 'node', name: 'node -e 0', cmd: process.execPath, args: ['-e', '0'], env: process.env, check: () => true },
  ];
  for (const where of places)
    all.push(
      ...cases(where, `${PIECES} pieces`, long, PIECES, envFor(long, where)),
      ...cases(where, 'short reply', short, null, envFor(short, where)),
    );
  const r = timeInterleaved(all);
  console.log(
    `\nA ${PIECES}-piece reply (${long.expected.length} characters), no token delay (${runs} runs each, medians, ms)`,
  );
  for (const c of Object.values(r)) console.log(`  ${c.name.padEnd(44)} ${c.median.toFixed(1).padStart(7)}`);
  const summary = {};
  let ok = true;
  for (const where of places) {
    const m = (what, size) => r[`${where}/${what}/${size}`].median;
    const [cl, cs, sl, ss] = [
      m('chat', `${PIECES} pieces`),
      m('chat', 'short reply'),
      m('curl', `${PIECES} pieces`),
      m('curl', 'short reply'),
    ];
    const whole = cl / (r.node.median + sl);
    const stream = (cl - cs) / (sl - ss);
    const verdict = (v, goal) => (v <= goal ? `ok (goal ≤ ${goal}×)` : `MISSES goal ≤ ${goal}×`);
    console.log(`  ${where}${where === 'terminal' ? ' (rendered)' : ''}:`);
    console.log(
      `    whole: chat ${cl.toFixed(1)} / (node -e 0 ${r.node.median.toFixed(1)} ` +
        `+ curl ${sl.toFixed(1)}) = ${whole.toFixed(2)}   ${verdict(whole, GOAL_WHOLE)}`,
    );
    console.log(
      `    the stream alone: chat ${(cl - cs).toFixed(1)} / curl ` +
        `${(sl - ss).toFixed(1)} = ${stream.toFixed(2)}   ${verdict(stream, GOAL_STREAM)}`,
    );
    ok &&= whole <= GOAL_WHOLE && stream <= GOAL_STREAM;
    summary[where] = { whole: Number(whole.toFixed(3)), streamOnly: Number(stream.toFixed(3)) };
    if (r[`${where}/node/short reply`]) {
      const [nl, ns] = [m('node', `${PIECES} pieces`), m('node', 'short reply')];
      const bareWhole = nl / (r.node.median + sl);
      const bareStream = (nl - ns) / (sl - ss);
      console.log(
        `    for reference, bare node:http printing the stream: ` +
          `whole ${bareWhole.toFixed(2)}, the stream alone ${bareStream.toFixed(2)}`,
      );
      summary[where].bareNode = { whole: Number(bareWhole.toFixed(3)), streamOnly: Number(bareStream.toFixed(3)) };
    }
  }
  console.log(
    JSON.stringify({
      bench: 'stream-throughput',
      pieces: PIECES,
      runs,
      results: Object.values(r),
      ratios: summary,
      ok,
    }),
  );
  process.exitCode = ok ? 0 : 1;
} finally {
  longServer.stop();
  shortServer.stop();
  fs.rmSync(configDir, { recursive: true, force: true });
}
