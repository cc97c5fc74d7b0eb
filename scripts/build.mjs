// Builds dist/ with esbuild. The CLI's own code is one file, dist/cli/main.cjs: the entry, run.ts and
// every command in one CommonJS bundle (one module to load instead of dozens, and no ESM loader on the
// way: bench/get.js). What only some paths need is a file of its own, imported on first use: each
// third-party package under src/vendor/ (chalk, ora, inquirer, undici…) and the embedded service
// (dist/server/index.js, also the programmatic entry for tools and tests).
import { build } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const src = path.resolve('src');
/** packages that load a platform's binary (.node) at run time: never bundled */
const NATIVE = ['@napi-rs/keyring'];
const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
  // bundled CommonJS packages call require() for Node's built-ins
  banner: {
    js: "import { createRequire as __cjsRequire } from 'node:module'; const require = __cjsRequire(import.meta.url);",
  },
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
// a .d.ts is typings only
const vendors = fs.readdirSync(path.join(src, 'vendor')).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
await Promise.all([
  // no code splitting: esbuild inlines the dynamic imports of our own modules (run.ts, every command the
  // registry loads), which then run on first use but load with the bundle; only src/vendor/ and the
  // service stay imports of files of their own (separateFiles)
  // CommonJS, required by bin/superagent.js: no ESM loader on the way to the first byte (its modules
  // cost a few ms on every start; the vendor bundles and the service are still ESM, imported on use)
  build({
    ...common,
    format: 'cjs',
    banner: { js: "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    define: { 'import.meta.url': '__importMetaUrl' },
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: true,
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli/main.cjs',
    plugins: [separateFiles],
  }),
  build({ ...common, entryPoints: ['src/server/index.ts'], outfile: 'dist/server/index.js' }),
  // third-party code is minified: less to parse at start-up, and nobody debugs it from dist/
  // a package with a native binary (the keychain's) is imported from node_modules as it is
  ...vendors.map((f) =>
    build({
      ...common,
      minify: true,
      external: NATIVE,
      entryPoints: [`src/vendor/${f}`],
      outfile: `dist/vendor/${f.replace(/\.ts$/, '.js')}`,
    }),
  ),
]);

// The two answers that need none of the code above, baked in for bin/superagent.js: `--version` and
// the overview then cost a small CommonJS file, not Node's ESM loader and the CLI bundle (bench/startup.js).
// the bundle's dynamic imports go through the loader's _mport (bin/load-bundle.js says why)
const bundleFile = 'dist/cli/main.cjs';
const bundled = fs.readFileSync(bundleFile, 'utf8');
const dynamic = /(?<![\w$.])import\(/g;
// `_mport(` is as long as `import(`: the source map's columns stay right
const rewritten = bundled.replace(dynamic, '_mport(');
if (rewritten === bundled)
  throw new Error(`${bundleFile}: no dynamic import found to rewrite (has the bundle's format changed?)`);
fs.writeFileSync(bundleFile, rewritten);
const { loadBundle } = createRequire(import.meta.url)(path.resolve('bin/load-bundle.js'));
fs.rmSync(`${bundleFile}.cache`, { force: true });
const loaded = loadBundle();
const { main } = loaded.exports;
let overview = '';
const capture = { write: (s) => ((overview += s), true), isTTY: false };
await main([], {}, { stdout: capture, stderr: capture, stdin: process.stdin });
const { version } = JSON.parse(fs.readFileSync('package.json', 'utf8'));
fs.writeFileSync('dist/cli/fast-paths.json', JSON.stringify({ version, overview }));
// The commands most run, run once against a throw-away embedded service, so that the code cache
// holds their functions compiled too (V8 compiles a function on its first call; a cached one costs
// nothing to compile): a `get` or a `chat` reply starts sooner (bench/first-byte.js)
await warmCommonPaths(main).catch((err) =>
  process.stderr.write(`build: the code cache holds less than it could: warming it, ${err.message}\n`),
);
// V8's code cache of the bundle, for bin/load-bundle.js: what compiling and running it once made
loaded.saveCache();

async function warmCommonPaths(run) {
  const { startServer } = await import(path.resolve('dist/server/index.js'));
  const os = await import('node:os');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-build-warm-'));
  let server;
  try {
    const key = `sa_sk_${'W'.repeat(32)}`;
    server = await startServer({
      dataDir: path.join(dir, 'service'),
      keys: [key],
      rateLimit: 0,
      tokenDelayMs: 0,
      log: () => undefined,
    });
    const own = {
      SUPERAGENT_CONFIG_DIR: path.join(dir, 'config'),
      SUPERAGENT_DATA_DIR: path.join(dir, 'data'),
      NO_COLOR: '1',
    };
    const remote = { ...own, SUPERAGENT_BASE_URL: server.url, SUPERAGENT_API_KEY: key };
    let said = '';
    const sink = { write: (s) => ((said = (said + s).slice(-300)), true), isTTY: false };
    const io = { stdout: sink, stderr: sink, stdin: process.stdin };
    // `own`: nothing configured, the embedded service the CLI starts itself (a new user's path); last,
    // a command's --help (commander's help writer; the overview's ran once above, to be baked)
    const steps = [
      [remote, 'launch', '--name', 'warm', '--json'],
      [remote, 'list'],
      [remote, 'get', 'warm', '--json'],
      [remote, 'chat', 'warm', 'How is BTC?'],
      [own, 'list'],
      [own, 'get', '--help'],
    ];
    for (const [env, ...argv] of steps) {
      const code = await run(argv, env, io);
      if (code !== 0) throw new Error(`\`superagent ${argv.join(' ')}\` exited ${code}: ${said.trim()}`);
    }
  } finally {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
