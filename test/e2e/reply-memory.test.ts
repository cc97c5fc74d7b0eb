// A streamed reply is printed as it arrives and not kept: the built binary, piped, against a reply
// of 40 MB (made as it is sent, test/helpers/long-reply.ts): every byte comes out, and the process's
// peak resident set stays under 200 MiB (~105 MiB measured, whatever the reply's length). Holding the
// reply whole (its pieces, then the text joined) took 340 MiB here, ~6 MiB more per MB of reply. The
// bound is on memory, not time; bench/reply-memory.js measures 10 to 300 MB.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { AGENT_ID, hostileServices } from '../helpers/hostile-service.js';
import { LONG_REPLY_SESSION, longReply, printedDigest } from '../helpers/long-reply.js';
import { perTest } from '../helpers/service-support.js';

const MB = 1_000_000;
const PEAK_HOOK = path.join(path.dirname(fileURLToPath(import.meta.url)), '../helpers/peak-rss.cjs');
const h = hostileServices();
const temp = perTest();

it('a 40 MB reply piped: every byte written, in order, and the peak resident set under 200 MiB', async () => {
  const size = 40 * MB;
  // RunCompleted without the reply again: what it does past the event limit is test/commands/hostile-sizes.test.ts
  const reply = longReply(size, { wholeAgain: false });
  const target = await h.serve({ [`POST /v1/superagents/${AGENT_ID}/chat`]: reply.handler });
  const peakFile = path.join(temp.scratch('superagent-peak-'), 'usage.json');
  const env = cleanEnv({ target, env: { PEAK_RSS_FILE: peakFile } }) as NodeJS.ProcessEnv;
  const args = ['--require', PEAK_HOOK, BIN, 'chat', AGENT_ID, 'the long one'];
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  // what it prints is counted and hashed as it comes, not kept here either
  const hash = crypto.createHash('sha256');
  let printed = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    printed += chunk.length;
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (t: string) => (stderr += t));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  expect(code, stderr).toBe(0);
  expect(stderr).toBe(`Session: ${LONG_REPLY_SESSION}\n`);
  expect({ size: printed, sha256: hash.digest('hex') }).toEqual(printedDigest(size));
  const peakMiB = JSON.parse(fs.readFileSync(peakFile, 'utf8')).maxRSS / 1024;
  expect(peakMiB, `peak resident set ${peakMiB.toFixed(0)} MiB`).toBeLessThan(200);
}, 60_000);
