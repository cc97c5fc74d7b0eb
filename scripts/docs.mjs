// Writes docs/cli.md from the command tree (src/cli/docs/markdown.ts): esbuild bundles the renderer
// (and what it imports) into a temporary file, which is run once and removed. test/unit/docs.test.ts
// fails when the file differs from what the tree gives: a changed spec, flag or exit code needs
// `npm run docs`.
import { build } from 'esbuild';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'superagent-docs-'));
try {
  const outfile = path.join(dir, 'markdown.mjs');
  await build({
    entryPoints: ['src/cli/docs/markdown.ts'],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // the keychain's binding loads a platform's binary: never bundled (and never loaded here)
    external: ['@napi-rs/keyring'],
    // bundled CommonJS packages (commander) call require() for Node's built-ins
    banner: {
      js: "import { createRequire as __cjsRequire } from 'node:module'; const require = __cjsRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  const { cliMarkdown } = await import(pathToFileURL(outfile).href);
  fs.mkdirSync('docs', { recursive: true });
  fs.writeFileSync('docs/cli.md', await cliMarkdown());
  console.log('wrote docs/cli.md');
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
