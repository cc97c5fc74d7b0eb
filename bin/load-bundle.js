// Loads the CLI bundle (dist/cli/main.cjs) with V8's code cache: compiling its ~290 KB was the largest
// cost of ours in every command's start-up (~10 ms of a GET, bench/get.js). The build runs the bundle
// once and saves the cache beside it (main.cjs.cache); a cache V8 refuses (another Node, a changed
// bundle) is ignored and the bundle compiled as usual. Node 20 has no module.enableCompileCache.
//
// The bundle's dynamic imports (the vendor bundles, the service) are rewritten by the build to
// `_mport(…)`, given here: an import() inside a script run from a code cache loses its loader.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { createRequire } = require('node:module');
const { pathToFileURL } = require('node:url');

const FILE = path.join(__dirname, '..', 'dist', 'cli', 'main.cjs');
const CACHE = `${FILE}.cache`;

/**
 * The bundle's exports, `cacheRejected` (true when V8 refused the cache, or there was none), and
 * `saveCache()` (for the build: writes what V8 compiled so far).
 */
function loadBundle() {
  const source = fs.readFileSync(FILE, 'utf8');
  let cachedData;
  try {
    cachedData = fs.readFileSync(CACHE);
  } catch {
    // no cache (a build that made none): compiled as usual
  }
  const wrapped = `(function (exports, require, module, __filename, __dirname, _mport) {${source}\n})`;
  const script = new vm.Script(wrapped, { filename: FILE, cachedData });
  const dir = path.dirname(FILE);
  // Node's own modules by require(): their named exports are all the bundle takes, and an import()
  // would start the ESM loader (~3 ms) on the way to every request (the transport loads node:http so)
  const importFrom = (specifier) =>
    specifier.startsWith('node:')
      ? Promise.resolve(require(specifier))
      : import(pathToFileURL(path.resolve(dir, specifier)).href);
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, createRequire(FILE), module, FILE, dir, importFrom);
  const cacheRejected = cachedData === undefined || script.cachedDataRejected === true;
  return {
    exports: module.exports,
    cacheRejected,
    saveCache: () => fs.writeFileSync(CACHE, script.createCachedData()),
  };
}

module.exports = { loadBundle };
