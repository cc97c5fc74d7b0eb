// Builds dist/ with esbuild. The CLI's own code is one file (dist/cli/run.js: one module to load
// instead of dozens, bench/get.js); what only some paths need is a file of its own, loaded on first
// use: each third-party package under src/vendor/ (chalk, ora, prompts) and
// the embedded service (dist/server/index.js, also the programmatic entry for tools and tests).
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const src = path.resolve('src');
const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  // bundled CommonJS packages call require() for Node's built-ins
  banner: { js: "import { createRequire as __cjsRequire } from 'node:module'; const require = __cjsRequire(import.meta.url);" },
};

/** Imports of a vendor file or of the service stay imports of their own built file. */
const separateFiles = {
  name: 'separate-files',
  setup(b) {
    b.onResolve({ filter: /\/(vendor|server)\/[\w-]+\.js$/ }, (args) => {
      const target = path.relative(src, path.resolve(args.resolveDir, args.path));
      // inside the service's own bundle, its files are bundled as usual
      if (args.importer.startsWith(path.join(src, 'server') + path.sep)) return undefined;
      if (target.startsWith('server/') && target !== 'server/index.js') {
        return { errors: [{ text: `import the service through server/index.js, not ${target}` }] };
      }
      return { path: `../${target}`, external: true };
    });
  },
};

fs.rmSync('dist', { recursive: true, force: true });
const vendors = fs.readdirSync(path.join(src, 'vendor')).filter((f) => f.endsWith('.ts'));
await Promise.all([
  // the entry answers --version and --help alone; each dynamic import (run.ts, every command the
  // registry loads) becomes a file of its own, shared code goes into chunks: a command loads what it uses
  build({
    ...common,
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: true,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli/main.js',
    plugins: [separateFiles],
  }),
  build({ ...common, entryPoints: ['src/server/index.ts'], outfile: 'dist/server/index.js' }),
  // third-party code is minified: less to parse at start-up, and nobody debugs it from dist/
  ...vendors.map((f) => build({ ...common, minify: true, entryPoints: [`src/vendor/${f}`], outfile: `dist/vendor/${f.replace(/\.ts$/, '.js')}` })),
]);

// The two answers that need none of the code above, baked in for bin/superagent.js: `--version` and
// the overview then cost a small CommonJS file, not Node's ESM loader and the CLI bundle (bench/startup.js).
const { main } = await import(pathToFileURL(path.resolve('dist/cli/main.js')).href);
let overview = '';
const capture = { write: (s) => ((overview += s), true), isTTY: false };
await main([], {}, { stdout: capture, stderr: capture, stdin: process.stdin });
const { version } = JSON.parse(fs.readFileSync('package.json', 'utf8'));
fs.writeFileSync('dist/cli/fast-paths.json', JSON.stringify({ version, overview }));
