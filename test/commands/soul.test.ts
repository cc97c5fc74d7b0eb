// `soul show` and `soul set` through the commands layer against an embedded service (docs/cli.md):
// soul.md byte for byte, the round trip show > file, set --file file, standard input, and every
// refusal before any request. `soul edit`: soul-edit.test.ts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';
import { useSoulAgent } from '../helpers/soul-agent.js';
import type { TestService } from '../helpers/service.js';

const SOUL_LIMIT = 256 * 1024;
const START = 'I am demo.\nBe careful.\nWatch the tape.\n';

const fixture = useSoulAgent(START);
let service: TestService;
let demo: string;
beforeAll(() => void ({ service, demo } = fixture));
const temp = perTest();
const cli = cliFor(() => service);
const setSoul = (soul: string) => fixture.setSoul(soul);

async function soulOf(id: string): Promise<string> {
  const r = await service.call('GET', `/v1/superagents/${id}/files`);
  expect(r.status, r.text).toBe(200);
  return r.json.soul_md as string;
}

const CHUNK = 64 * 1024;

/** Writes to a FIFO until its reader closes it or `max` bytes went through; how many bytes the reader took. */
async function feedUntilClosed(fifo: string, max: number): Promise<number> {
  const out = fs.createWriteStream(fifo);
  // The write callback gets EPIPE too; without a listener the stream's own 'error' event is uncaught.
  out.on('error', () => {});
  let flushed = 0;
  const chunk = Buffer.alloc(CHUNK, 'x');
  try {
    while (flushed < max) {
      await new Promise<void>((resolve, reject) => out.write(chunk, (err) => (err ? reject(err) : resolve())));
      flushed += CHUNK;
    }
  } catch {
    // EPIPE: the reader stopped reading
  } finally {
    out.destroy();
  }
  return flushed;
}

/** A file in this test's own scratch dir. */
function fileWith(name: string, content: string | Buffer): string {
  const file = path.join(temp.scratch('superagent-soul-'), name);
  fs.writeFileSync(file, content);
  return file;
}

describe('soul show', () => {
  it.each([
    ['with a trailing newline', START],
    ['UTF-8 and no trailing newline', '# Ünïcode 🚀 日本語\r\nno newline at the end'],
  ])('prints soul.md byte for byte (%s), and show > file, set --file file round-trips', async (_, soul) => {
    await setSoul(soul);
    const r = await cli(['soul', 'show', 'demo']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(Buffer.from(r.stdout)).toEqual(Buffer.from(soul));

    const file = fileWith('round-trip.md', r.stdout);
    await setSoul('something else\n');
    const set = await cli(['soul', 'set', 'demo', '--file', file]);
    expect(set.code, set.stderr).toBe(0);
    expect(await soulOf(demo)).toBe(soul);
  });

  it('on a terminal, a soul without a final newline gets one (the prompt starts on its own line)', async () => {
    await setSoul('no newline at the end');
    const r = await cli(['soul', 'show', 'demo'], { tty: true });
    expect(r).toMatchObject({ code: 0, stdout: 'no newline at the end\n', stderr: '' });
  });

  it('--json prints the files object of the API', async () => {
    const files = await service.call('GET', `/v1/superagents/${demo}/files`);
    const r = await cli(['soul', 'show', demo.slice(0, 6), '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(files.json);
    expect(Object.keys(JSON.parse(r.stdout)).sort()).toEqual(['agent_id', 'memory_md', 'soul_md']);
  });

  it('an unknown agent exits 4', async () => {
    const r = await cli(['soul', 'show', 'nobody']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^Error: no agent matches 'nobody'/);
  });
});

describe('soul set', () => {
  it('--file PATH uploads the file and prints the agent id when piped', async () => {
    const file = fileWith('new-soul.md', '# New soul ✓\nno newline');
    const r = await cli(['soul', 'set', 'demo', '--file', file]);
    expect(r).toMatchObject({ code: 0, stdout: `${demo}\n`, stderr: '' });
    expect(await soulOf(demo)).toBe('# New soul ✓\nno newline');
    expect(service.cliRequests().filter((q) => q.method === 'PUT')).toEqual([
      { method: 'PUT', path: `/v1/superagents/${demo}/soul`, body: { soul_md: '# New soul ✓\nno newline' } },
    ]);
  });

  it('--file - reads standard input; exactly 256 KiB is accepted', async () => {
    const soul = '# Piped\n' + 'x'.repeat(SOUL_LIMIT - '# Piped\n'.length);
    const r = await cli(['soul', 'set', demo, '--file', '-', '--json'], { input: soul });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ agent_id: demo, status: 'updated' });
    expect(await soulOf(demo)).toBe(soul);
  });

  /** a NUL byte refused, on the line it is on: the service would store the soul cut at it, or refuse it */
  const NUL_REFUSED = (what: string) =>
    new RegExp(`^Error: ${what} contains a NUL byte \\(\\\\0\\), on line 2 \\(.+\\)\\n$`);
  const WITH_NUL = '# soul\nbe\0 bold\n';
  const refusals: Array<[string, () => { args: string[]; input?: Buffer | string }, RegExp]> = [
    [
      'an empty file',
      () => ({ args: ['--file', fileWith('empty.md', '')] }),
      /^Error: soul file '.*empty\.md' is empty\n$/,
    ],
    [
      'a blank file',
      () => ({ args: ['--file', fileWith('blank.md', ' \n\t\n')] }),
      /^Error: soul file '.*blank\.md' is empty\n$/,
    ],
    [
      'empty standard input',
      () => ({ args: ['--file', '-'], input: '' }),
      /^Error: the soul on standard input is empty\n$/,
    ],
    [
      'a non-UTF-8 file',
      () => ({ args: ['--file', fileWith('latin1.md', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]))] }),
      /^Error: soul file '.*latin1\.md' is not valid UTF-8 text \(convert it to UTF-8 first\)\n$/,
    ],
    [
      'non-UTF-8 standard input',
      () => ({ args: ['--file', '-'], input: Buffer.from([0xff, 0xfe, 0x41]) }),
      /^Error: the soul on standard input is not valid UTF-8 text \(convert it to UTF-8 first\)\n$/,
    ],
    [
      'a file with a NUL byte',
      () => ({ args: ['--file', fileWith('nul.md', WITH_NUL)] }),
      NUL_REFUSED("soul file '.*nul\\.md'"),
    ],
    [
      'standard input with a NUL byte',
      () => ({ args: ['--file', '-'], input: WITH_NUL }),
      NUL_REFUSED('the soul on standard input'),
    ],
    [
      'a file over 256 KiB',
      () => ({ args: ['--file', fileWith('big.md', 'x'.repeat(SOUL_LIMIT + 1))] }),
      /^Error: soul file '.*big\.md' is 257 KiB; a soul may be at most 256 KiB\n$/,
    ],
    [
      'standard input over 256 KiB',
      () => ({ args: ['--file', '-'], input: 'y'.repeat(SOUL_LIMIT + 1) }),
      /^Error: the soul on standard input is over 256 KiB; a soul may be at most 256 KiB\n$/,
    ],
    ...(fs.existsSync('/dev/zero')
      ? [
          [
            'a device that never ends (/dev/zero)',
            () => ({ args: ['--file', '/dev/zero'] }),
            /^Error: soul file '\/dev\/zero' is over 256 KiB; a soul may be at most 256 KiB\n$/,
          ] as (typeof refusals)[number],
        ]
      : []),
    [
      'a missing file',
      () => ({ args: ['--file', path.join(temp.scratch('superagent-soul-'), 'nope.md')] }),
      /^Error: soul file '.*nope\.md' does not exist \(check the path given to --file\)\n$/,
    ],
    [
      'no --file',
      () => ({ args: [] }),
      new RegExp(
        String.raw`^Error: --file is required \(superagent soul set demo --file soul\.md ` +
          String.raw`\(or --file - to read standard input\)\)\n$`,
      ),
    ],
    [
      '--file without a value',
      () => ({ args: ['--file'] }),
      /^Error: --file needs a value \(e\.g\. --file <path>\)\n$/,
    ],
  ];

  it.skipIf(process.platform === 'win32')(
    'a pipe that keeps writing is read no further than the limit (one byte past it), then refused',
    async () => {
      const fifo = path.join(temp.scratch('superagent-soul-'), 'endless.md');
      execFileSync('mkfifo', [fifo]);
      const written = feedUntilClosed(fifo, 8 * 1024 * 1024);
      const r = await cli(['soul', 'set', 'demo', '--file', fifo]);
      // what the command took: the limit and a byte, and no more than a pipe's buffer and a chunk beyond
      expect(await written).toBeLessThan(SOUL_LIMIT + 2 * CHUNK + 1024 * 1024);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`Error: soul file '${fifo}' is over 256 KiB; a soul may be at most 256 KiB\n`);
      expect(service.cliRequests()).toEqual([]);
    },
  );

  it.each(refusals)('refuses %s: exit 2, no request sent', async (_, make, message) => {
    const { args, input } = make();
    const r = await cli(['soul', 'set', 'demo', ...args], { input });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(service.cliRequests()).toEqual([]);
    expect(await soulOf(demo)).toBe(START);
  });
});
