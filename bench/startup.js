// `superagent --version` and `--help` against `node -e 0`, interleaved in one run. Goal: ≤ 1.1×.
import { BIN, report, timeCases } from './lib.js';

const runs = Number(process.env.RUNS ?? 40);
const results = timeCases(
  [
    { name: 'node -e 0', cmd: process.execPath, args: ['-e', '0'] },
    {
      name: 'superagent --version',
      cmd: process.execPath,
      args: [BIN, '--version'],
      check: (o) => o.startsWith('superagent '),
    },
    {
      name: 'superagent --help',
      cmd: process.execPath,
      args: [BIN, '--help'],
      check: (o) => o.includes('Usage: superagent'),
    },
  ],
  { runs },
);
const ok = report(`Start-up (${runs} runs each, medians)`, results, 'node -e 0', 1.1);
console.log(JSON.stringify({ bench: 'startup', runs, results, ok }));
process.exitCode = ok ? 0 : 1;
