// The Markdown renderer's time on hostile input (goal: it renders in linear time): each kind at a
// quarter, a half and a whole megabyte, rendered whole and streamed in 4 KiB pieces, and the growth
// from ¼ to 1 MB (4× the text: linear is ~4×, quadratic ~16×). Also the fixture replies
// (test/fixtures/markdown), whole and streamed one character at a time. The renderer is bundled from
// src/ with esbuild into a temp dir first (no build needed). Goal: every growth at most 6×; exit 1
// otherwise. The adversarial unit test (test/unit/markdown-adversarial.test.ts) checks that each of
// these finishes; times are here only. Streamed, a block past 256 KiB (HELD_CHARS in
// src/ui/markdown/stream.ts: one line, one table, one paragraph of these inputs) is not drawn: from
// there the text is written as it came, so those streamed times no longer grow with the input.
//
//   node bench/markdown.js            # BENCH_RUNS (3) runs each, the median
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ROOT, median } from './lib.js';

const RUNS = Math.min(Math.max(Number(process.env.BENCH_RUNS ?? 3), 1), 20);
const GOAL = 6;
const MB = 1024 * 1024;

/** Hostile text of about `size` characters. */
const HOSTILE = {
  'unclosed fence': (size) => '```python\n' + 'x = """\n'.repeat(size / 8),
  'list markers on one line': (size) => '- '.repeat(size / 2) + 'x',
  'quote markers on one line': (size) => '> '.repeat(size / 2) + 'x',
  'list nested by indentation': (size) =>
    Array.from({ length: Math.sqrt(size) | 0 }, (_, i) => `${' '.repeat(i)}- x`).join('\n'),
  'one table row': (size) => `| a | b |\n|---|---|\n| ${'word '.repeat(size / 5)} | x |\n`,
  'table of many columns': (size) => `${'| a '.repeat(size / 8)}|\n${'|-'.repeat(size / 8)}|\n| 1 |\n`,
  'one long word': (size) => 'x'.repeat(size),
  'wide characters': (size) => '東'.repeat(size / 2),
  'emphasis markers': (size) => '*_'.repeat(size / 4) + ' **a' + '*'.repeat(size / 2),
  'nested brackets': (size) => '['.repeat(size / 2) + 'a' + ']('.repeat(size / 4),
  entities: (size) => '&#13;&#27;&amp;'.repeat(size / 16),
  'blank lines': (size) => '\n'.repeat(size),
  'many short items': (size) => '- item with **bold** and `code`\n'.repeat(size / 32),
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-bench-md-'));
try {
  const entry = path.join(dir, 'entry.ts');
  fs.writeFileSync(
    entry,
    [
      `export { markdownDocument, blockPainter } from ${JSON.stringify(path.join(ROOT, 'src/vendor/markdown.ts'))};`,
      `export { MarkdownStream } from ${JSON.stringify(path.join(ROOT, 'src/ui/markdown/stream.ts'))};`,
    ].join('\n'),
  );
  const outfile = path.join(dir, 'markdown.mjs');
  await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'warning',
  });
  const { markdownDocument, blockPainter, MarkdownStream } = await import(pathToFileURL(outfile).href);
  const layout = { width: 80, rows: 40, colour: true, hyperlinks: true, mark: (s) => s };

  const time = (fn) => {
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const t = process.hrtime.bigint();
      fn();
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    return median(times);
  };
  const whole = (text) => () => markdownDocument(text, layout);
  const streamed = (text, size) => () => {
    const s = new MarkdownStream(layout, blockPainter(layout));
    for (let i = 0; i < text.length; i += size) s.push(text.slice(i, i + size));
    s.end();
  };

  console.log(`\nHostile Markdown, 80 columns (${RUNS} runs each, medians, ms)`);
  console.log(
    `  ${'input'.padEnd(28)} ${'how'.padEnd(9)} ${'¼ MB'.padStart(8)} ` +
      `${'½ MB'.padStart(8)} ${'1 MB'.padStart(8)}   growth ¼→1`,
  );
  const results = [];
  let ok = true;
  for (const [name, make] of Object.entries(HOSTILE)) {
    for (const [how, run] of [
      ['whole', whole],
      ['streamed', (t) => streamed(t, 4096)],
    ]) {
      const ms = [MB / 4, MB / 2, MB].map((size) => time(run(make(size))));
      const growth = ms[2] / Math.max(ms[0], 0.05);
      const fine = growth <= GOAL || ms[2] < 20;
      ok &&= fine;
      results.push({ name, how, ms, growth: Number(growth.toFixed(2)) });
      console.log(
        `  ${name.padEnd(28)} ${how.padEnd(9)} ` +
          `${ms.map((m) => m.toFixed(1).padStart(8)).join(' ')} ` +
          `  ${growth.toFixed(1)}×${fine ? '' : `  MISSES goal ≤ ${GOAL}×`}`,
      );
    }
  }

  console.log(`\nThe fixture replies (${RUNS} runs each, medians, ms)`);
  const fixtures = path.join(ROOT, 'test', 'fixtures', 'markdown');
  for (const file of fs.readdirSync(fixtures).filter((f) => f.endsWith('.md'))) {
    const text = fs.readFileSync(path.join(fixtures, file), 'utf8');
    const w = time(whole(text));
    const s = time(streamed(text, 1));
    results.push({ name: file, how: 'fixture', ms: [w, s] });
    console.log(
      `  ${file.padEnd(20)} ${String(text.length).padStart(6)} characters   whole ` +
        `${w.toFixed(2).padStart(6)}   streamed a character at a time ${s.toFixed(2).padStart(6)}`,
    );
  }
  console.log(JSON.stringify({ bench: 'markdown', runs: RUNS, results, ok }));
  process.exitCode = ok ? 0 : 1;
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
