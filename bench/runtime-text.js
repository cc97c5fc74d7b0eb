// The reply runtime's text analysis on the worst inputs found: each function on
// each input of test/helpers/hostile-text.ts, median and max over RUNS calls. Goal: no function
// takes more than 50 ms (median) on any input of up to the 32 KiB message limit.
//
// The runtime's functions are not exported by dist/, so this script bundles them from src/ with
// esbuild into a temp dir first (a second or so), then imports that bundle.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { median, ROOT } from './lib.js';

const RUNS = Math.min(200, Math.max(3, Number(process.env.RUNS ?? 15)));
const GOAL_MS = 50;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-bench-runtime-'));
let rt;
try {
  const src = (p) => JSON.stringify(path.join(ROOT, p));
  const entry = path.join(dir, 'entry.ts');
  fs.writeFileSync(
    entry,
    [
      `export * from ${src('src/server/runtime/amounts.ts')};`,
      `export { composeAssistantReply, parseJsonRequest, routeSpecialists ` +
        `} from ${src('src/server/runtime/assistant.ts')};`,
      `export { detectIntents, relevantRule } from ${src('src/server/runtime/intents.ts')};`,
      `export { findSymbols, marketSnapshot } from ${src('src/server/runtime/market.ts')};`,
      `export { composeAgentReply, extractRemember } from ${src('src/server/runtime/replies.ts')};`,
      `export { SKILL_NAMES } from ${src('src/server/runtime/skills.ts')};`,
      `export { parseSoul } from ${src('src/server/runtime/soul.ts')};`,
      `export { clipWords, singleLine, splitIntoPieces, withoutControls, ` +
        `wordCount } from ${src('src/server/runtime/text.ts')};`,
      `export { simulateTool } from ${src('src/server/runtime/tools.ts')};`,
      `export { WORST_INPUTS } from ${src('test/helpers/hostile-text.ts')};`,
    ].join('\n'),
  );
  const outfile = path.join(dir, 'runtime.mjs');
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile, logLevel: 'warning' });
  rt = await import(pathToFileURL(outfile).href);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

const SOUL = '# Scalper\n\n## Rules\n- Never use leverage above 2x.\n- Always set a stop loss.\n- No memecoins.\n';
const rules = rt.parseSoul(SOUL).rules;
const snapshot = rt.marketSnapshot('bench');
const allSkills = Object.fromEntries(rt.SKILL_NAMES.map((s) => [s, true]));
const hostileAgent = (text) => ({
  agent_id: '6f1c2d3e-4a5b-4c6d-8e7f-001122334455',
  name: text.slice(0, 100),
  description: text.slice(0, 500),
  model: 'gpt-4o',
  model_provider: 'openai',
  soul_md: text,
  skills: allSkills,
});

/** Each function as the runtime calls it on a message (or, for the soul, on soul.md). */
const FUNCTIONS = {
  requestedUsd: (t) => rt.requestedUsd(t),
  requestedLeverage: (t) => rt.requestedLeverage(t),
  requestedAmount: (t) => rt.requestedAmount(t),
  leverageCap: (t) => rt.leverageCap(t),
  detectIntents: (t) => rt.detectIntents(t),
  findSymbols: (t) => rt.findSymbols(t),
  relevantRule: (t) => rt.relevantRule(rules, t),
  extractRemember: (t) => rt.extractRemember(t),
  parseSoul: (t) => rt.parseSoul(t),
  routeSpecialists: (t) => rt.routeSpecialists(t),
  parseJsonRequest: (t) => rt.parseJsonRequest(t),
  splitIntoPieces: (t) => rt.splitIntoPieces(t),
  'text helpers': (t) => [rt.clipWords(t, 8, 80), rt.singleLine(t), rt.wordCount(t), rt.withoutControls(t)],
  'simulateTool (all)': (t) =>
    rt.SKILL_NAMES.map((s) => rt.simulateTool(s, { seed: 'bench', message: t, symbols: rt.findSymbols(t), snapshot })),
  composeAgentReply: (t) => rt.composeAgentReply(hostileAgent(t), [{ role: 'user', content: t }], t),
  composeAssistantReply: (t) => rt.composeAssistantReply([{ role: 'user', content: t }], t),
};

function time(fn, text) {
  fn(text); // warm-up
  const ms = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.hrtime.bigint();
    fn(text);
    ms.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return { median: median(ms), max: Math.max(...ms) };
}

const all = process.env.BENCH_ALL === '1';
console.log(`Reply runtime on hostile text (${rt.WORST_INPUTS.length} inputs of up to 32 KiB, ${RUNS} runs each; ms)`);
console.log(`  ${'function'.padEnd(24)} ${'worst input'.padEnd(44)} ${'median'.padStart(8)} ${'max'.padStart(8)}`);
const results = [];
for (const [name, fn] of Object.entries(FUNCTIONS)) {
  const rows = rt.WORST_INPUTS.map((input) => ({ input: input.name, ...time(fn, input.text) })).sort(
    (a, b) => b.median - a.median,
  );
  for (const row of all ? rows : rows.slice(0, 1)) {
    console.log(
      `  ${name.padEnd(24)} ${row.input.padEnd(44)} ` +
        `${row.median.toFixed(2).padStart(8)} ${row.max.toFixed(2).padStart(8)}`,
    );
  }
  results.push({ function: name, worst: rows[0] });
}

// The pattern requestedUsd had before it was made linear, on the input that showed it: the figure the
// fix removed.
if (process.env.BENCH_LEGACY === '1') {
  const legacy = /\b(\d[\d,]*(?:\.\d+)?)\s*(k|m)?\s*(?:usd|usdc|usdt|dollars|bucks)\b/i;
  const start = process.hrtime.bigint();
  legacy.exec(rt.WORST_INPUTS[0].text);
  console.log(
    `  legacy requestedUsd pattern on "${rt.WORST_INPUTS[0].name}": ` +
      `${(Number(process.hrtime.bigint() - start) / 1e6).toFixed(0)} ms (one run)`,
  );
}

const ok = results.every((r) => r.worst.median <= GOAL_MS);
console.log(ok ? `ok: every median within ${GOAL_MS} ms` : `MISSES the goal: a median above ${GOAL_MS} ms`);
console.log(JSON.stringify({ bench: 'runtime-text', runs: RUNS, goalMs: GOAL_MS, results, ok }));
process.exitCode = ok ? 0 : 1;
