// What the Markdown renderer costs at start-up, paid only when a reply is rendered on a terminal
// (never for --version, get, a pipe or --raw): dist/vendor/markdown.js (markdown-it and our painter),
// dist/vendor/highlight.js (highlight.js and six languages: only for a reply with code), and each
// package bundled on its own the way the build bundles it (esbuild, minified, into a temp dir), with
// string-width for the record (dropped: its Intl.Segmenter). Each case is a fresh `node` that imports
// the file and prints how long the import took, and for our bundles how long the first use took (lazy
// work the first reply pays: creating the parser and drawing a paragraph with a link; compiling the
// Python grammar and colouring a line). Round-robin, medians.
//
//   npm run build && RUNS=20 node bench/markdown-load.js
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ROOT, median } from './lib.js';

const runs = Number(process.env.RUNS ?? 20);
const LANGS = ['bash', 'javascript', 'json', 'python', 'sql', 'typescript'];
const PARTS = {
  'markdown-it': "import m from 'markdown-it'; export default m;",
  'highlight.js (core + 6 languages)': [
    "import hljs from 'highlight.js/lib/core';",
    ...LANGS.map((l) => `import ${l} from 'highlight.js/lib/languages/${l}';`),
    `for (const [n, l] of Object.entries({ ${LANGS.join(', ')} })) hljs.registerLanguage(n, l);`,
    'export default hljs;',
  ].join('\n'),
  'string-width (not used)': "export { default } from 'string-width';",
  'get-east-asian-width': "export * from 'get-east-asian-width';",
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-bench-load-'));
try {
  const files = {
    'dist/vendor/markdown.js': path.join(ROOT, 'dist', 'vendor', 'markdown.js'),
    'dist/vendor/highlight.js': path.join(ROOT, 'dist', 'vendor', 'highlight.js'),
  };
  for (const [name, contents] of Object.entries(PARTS)) {
    const outfile = path.join(dir, `${name.split(' ')[0]}.mjs`);
    try {
      await build({
        stdin: { contents, resolveDir: ROOT, loader: 'js' },
        bundle: true,
        minify: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        outfile,
        logLevel: 'silent',
      });
      files[name] = outfile;
    } catch (err) {
      // string-width is here only for the record, while another package still installs it
      if (!name.includes('not used')) throw err;
    }
  }
  const FIRST_USE = {
    'dist/vendor/markdown.js':
      `m.blockPainter({ width: 80, colour: true, hyperlinks: false, mark: (s) => s }).render({ ` +
      `kind: 'paragraph', lines: ['**Bias:** long, see [docs](https://x.io)'], indent: 0 });`,
    'dist/vendor/highlight.js': `m.highlighter('python').line('x = round(balance * 0.01, 2)  # size');`,
  };
  const probe = (name, file) =>
    [
      `const t0 = performance.now();`,
      `const m = await import(${JSON.stringify(pathToFileURL(file).href)});`,
      `const t1 = performance.now();`,
      FIRST_USE[name] ?? '',
      `console.log(JSON.stringify({ load: t1 - t0, first: performance.now() - t1 }));`,
    ].join('\n');
  const cases = Object.entries(files).map(([name, file]) => ({ name, script: probe(name, file) }));
  const times = cases.map(() => ({ load: [], first: [] }));
  for (let i = 0; i < runs + 2; i++) {
    cases.forEach((c, j) => {
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', c.script], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`${c.name}: ${r.stderr}`);
      if (i < 2) return;
      const t = JSON.parse(r.stdout);
      times[j].load.push(t.load);
      times[j].first.push(t.first);
    });
  }
  console.log(`\nThe Markdown renderer's load (${runs} runs each, medians, ms; a fresh node each time)`);
  const results = cases.map((c, j) => {
    const size = fs.statSync(files[c.name]).size;
    const r = { name: c.name, kb: Math.round(size / 1024), load: median(times[j].load), first: median(times[j].first) };
    const extra = FIRST_USE[c.name] ? `   first use ${r.first.toFixed(1)}` : '';
    console.log(
      `  ${c.name.padEnd(38)} ${String(r.kb).padStart(4)} KiB   import ${r.load.toFixed(1).padStart(5)}${extra}`,
    );
    return r;
  });
  console.log(JSON.stringify({ bench: 'markdown-load', runs, results }));
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
