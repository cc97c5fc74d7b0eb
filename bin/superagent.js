#!/usr/bin/env node
// CommonJS (bin/package.json): `--version` and the overview are answered from the texts the build
// baked (dist/cli/fast-paths.json) without Node's ESM loader; every other line runs the CLI bundle.
'use strict';
const argv = process.argv.slice(2);
const only = argv.length === 1 ? argv[0] : undefined;
const wantsVersion = only === '--version' || only === '-V' || only === '-v';
const wantsOverview = argv.length === 0 || only === '--help' || only === '-h' || only === 'help';
if (wantsVersion || wantsOverview) {
  const { version, overview } = require('../dist/cli/fast-paths.json');
  // as for any command: a reader gone is no failure, a refused write (a full disk) is told by the bundle;
  // a failure to write stderr could only be told there, and is not
  process.stderr.on('error', () => {});
  process.stdout.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(0);
    const { reportOutputFailure } = require('./load-bundle.js').loadBundle().exports;
    reportOutputFailure(err, argv, process).then((code) => process.exit(code));
  });
  process.stdout.write(wantsVersion ? `superagent ${version}\n` : overview);
} else {
  Promise.resolve()
    .then(() => require('./load-bundle.js').loadBundle().exports)
    .then(async ({ main, flushed }) => {
      const code = await main(argv);
      // exit once what was written has left (a closed pipe exits in main.cjs; a stream that failed is
      // not waited for): nothing left in the background may keep the process alive
      await flushed([process.stdout, process.stderr]);
      process.exit(code);
    })
    .catch((err) => {
      process.stderr.write(`superagent: ${err && err.stack ? err.stack : String(err)}\n`);
      process.exit(1);
    });
}
