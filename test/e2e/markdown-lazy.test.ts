// The Markdown renderer (dist/vendor/markdown-stream.js, markdown.js with markdown-it, highlight.js) is
// loaded only when a reply is rendered on a terminal, the highlighter only for code: never for
// --version, get, a piped reply or --raw. Seen from the
// modules the process resolves (test/fixtures/hooks/load-log.mjs), the built binary as a user runs
// it, a terminal given by util-linux `script`.
import { execa } from 'execa';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/cli.js';
import { HOSTED_AGENT, startHostedMock, type HostedMock } from '../helpers/hosted-mock.js';
import { tempDir } from '../helpers/service.js';

const HOOK = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/hooks/load-log.mjs');
const HAS_SCRIPT = process.platform === 'linux' && spawnSync('script', ['--version']).status === 0;
const ID = HOSTED_AGENT.agent_id;
const KEY = 'gb_sk_test_0123456789abcdef';
const REPLY = '## Plan\n\n- **entry** $185\n- stop $179\n';
const CODE = 'The order:\n\n```json\n{"side": "buy"}\n```\n';
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

let mock: HostedMock;
const dirs: string[] = [];
beforeAll(async () => {
  mock = await startHostedMock(({ method, path: p, body }) => {
    const content = String(body?.message).startsWith('code') ? CODE : REPLY;
    if (method === 'GET' && p === `/v1/superagents/${ID}`) return { json: HOSTED_AGENT };
    if (method === 'POST' && p === `/v1/superagents/${ID}/chat`)
      return {
        sse: `data: ${JSON.stringify({ event: 'RunCompleted', content, session_id: 's-1' })}\n\ndata: [DONE]\n\n`,
      };
    return undefined;
  });
});
afterAll(async () => {
  await mock.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** Runs the binary (in a terminal when `tty`); its stdout and the vendor files it loaded. */
async function run(args: string[], tty = false): Promise<{ stdout: string; vendors: string[] }> {
  const dir = tempDir('superagent-loads-');
  dirs.push(dir);
  const log = path.join(dir, 'loads');
  const env = { ...cleanEnv({ target: { url: mock.url, key: KEY } }), TERM: 'xterm-256color', LOAD_LOG: log };
  const argv = [process.execPath, '--import', HOOK, BIN, ...args];
  const r = tty
    ? // a sized terminal: one whose size is unknown (script's own pty is 0×0) gets replies as they came
      await execa('script', ['-qfec', `stty cols 100 rows 30; exec ${argv.map(quote).join(' ')}`, '/dev/null'], {
        env,
        extendEnv: false,
        reject: false,
        timeout: 30_000,
        stripFinalNewline: false,
      })
    : await execa(argv[0]!, argv.slice(1), {
        env,
        extendEnv: false,
        reject: false,
        timeout: 30_000,
        stripFinalNewline: false,
      });
  expect(r.exitCode, String(r.stderr)).toBe(0);
  const loaded = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n') : [];
  // chalk too on a terminal (the printer's colours): only the renderer's three bundles are looked at
  return {
    stdout: String(r.stdout),
    vendors: loaded
      .filter((u) => /\/dist\/vendor\/(markdown-stream|markdown|highlight)\.js$/.test(u))
      .map((u) => path.basename(u)),
  };
}

describe('the renderer is loaded only for a reply rendered on a terminal', () => {
  it('not for --version, get --json, a piped reply', async () => {
    expect((await run(['--version'])).vendors).toEqual([]);
    expect((await run(['get', ID, '--json'])).vendors).toEqual([]);
    const piped = await run(['chat', ID, 'plan?']);
    expect(piped.stdout).toBe(REPLY);
    expect(piped.vendors).toEqual([]);
  });

  it.skipIf(!HAS_SCRIPT)(
    'on a terminal: loaded and the reply rendered (the highlighter only for code); with --raw: neither',
    async () => {
      const shown = await run(['chat', ID, 'plan?', '-q'], true);
      expect(shown.vendors).toEqual(['markdown-stream.js', 'markdown.js']);
      expect(shown.stdout).toContain('• ');
      const code = await run(['chat', ID, 'code?', '-q'], true);
      expect(code.vendors).toEqual(['markdown-stream.js', 'markdown.js', 'highlight.js']);
      expect(code.stdout).toContain('\u001b[32m"buy"\u001b[0m');
      const raw = await run(['chat', ID, 'plan?', '-q', '--raw'], true);
      expect(raw.vendors).toEqual([]);
      expect(raw.stdout).toContain('- ');
    },
  );
});
