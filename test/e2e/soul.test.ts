// soul show / set / edit through the built binary against a real embedded service. `soul edit` runs
// with EDITOR set to small shell scripts written here; the key reaches the CLI (and the scripts that
// call the service) only through the environment.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanEnv, runCli, BIN, type RunOptions } from '../helpers/cli.js';
import { PROBE_RATE_LIMIT, requestProbe, type RequestProbe } from '../helpers/request-count.js';
import { launchAgent, startTestService, tempDir, type TestService } from '../helpers/service.js';
import { perTest, stopService } from '../helpers/service-support.js';

const SOUL_LIMIT = 256 * 1024;
const START = 'I am demo.\nBe careful.\nWatch the tape.\n';
const BOLD = 'I am demo.\nBe bold.\nWatch the tape.\n';
const CHANGE_DIFF = [
  '--- demo/soul.md (on the service)',
  '+++ demo/soul.md (edited)',
  '@@ -1,3 +1,3 @@',
  ' I am demo.',
  '-Be careful.',
  '+Be bold.',
  ' Watch the tape.',
  '',
].join('\n');

// the temp dirs a test makes (each run's config and data dirs, TMPDIRs, shims) go after it
const temp = perTest();
const ownDirs = () => ({ configDir: temp.scratch('superagent-config-'), dataDir: temp.scratch('superagent-data-') });
const run = (args: string[], opts: RunOptions = {}) => runCli(args, { ...ownDirs(), ...opts });

let svc: TestService;
let probe: RequestProbe;
let demo: string;
let scratch: string;

async function launch(service: TestService, name: string, soul: string): Promise<string> {
  return (await launchAgent(service, { name, soul_md: soul })).agent_id;
}

async function soulOf(id: string, service = svc): Promise<string> {
  const r = await service.call('GET', `/v1/superagents/${id}/files`);
  expect(r.status, r.text).toBe(200);
  return r.json.soul_md as string;
}

async function setSoul(id: string, soul: string): Promise<void> {
  const r = await svc.call('PUT', `/v1/superagents/${id}/soul`, { body: { soul_md: soul } });
  expect(r.status, r.text).toBe(200);
}

/** An executable shell script for EDITOR; "$1" is the file to edit. */
function script(name: string, body: string): string {
  const file = path.join(scratch, name);
  fs.writeFileSync(file, `#!/bin/sh\nset -e\n${body}\n`, { mode: 0o755 });
  return file;
}

const SED_BOLD = () => script('sed-bold.sh', `sed -i 's/careful/bold/' "$1"`);

/** A private TMPDIR for one run, so the temporary file the CLI makes can be found, or shown to be gone. */
function freshTmp(): string {
  return temp.scratch('superagent-soul-tmp-');
}

/** Every file left under `dir`, relative to it. */
function leftIn(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).sort();
}

function edit(args: string[], env: Record<string, string | undefined>, service: TestService = svc) {
  return run(['soul', 'edit', ...args], { target: service, env });
}

/** The kept file and the retry command named by an error line. */
function keptFrom(stderr: string): { file: string; command: string } {
  const m = /your edit is kept in (\S+) .*?(superagent soul set \S+ --file [^\s)]+)/.exec(stderr);
  expect(m, stderr).not.toBeNull();
  return { file: m![1]!, command: m![2]! };
}

/** Runs a printed command line with /bin/sh, `superagent` being the built binary. */
async function runPrinted(command: string, target: TestService) {
  const bin = temp.scratch('superagent-shim-');
  fs.writeFileSync(path.join(bin, 'superagent'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
  const env = cleanEnv({ target, ...ownDirs() });
  const r = await execa('/bin/sh', ['-c', command], { env: { ...env, PATH: `${bin}:${env.PATH}` }, extendEnv: false, reject: false, input: '' });
  return { exitCode: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
}

beforeAll(async () => {
  svc = await startTestService({ rateLimit: PROBE_RATE_LIMIT });
  demo = await launch(svc, 'demo', START);
  scratch = tempDir('superagent-soul-scripts-');
  probe = await requestProbe(svc);
});
afterAll(async () => {
  await stopService(svc);
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});
beforeEach(async () => {
  await setSoul(demo, START);
  await probe.since();
});

describe('soul show', () => {
  it.each([
    ['with a trailing newline', START],
    ['UTF-8 and no trailing newline', '# Ünïcode 🚀 日本語\r\nno newline at the end'],
  ])('prints soul.md byte for byte (%s), and show > file, set --file file round-trips', async (_, soul) => {
    await setSoul(demo, soul);
    const r = await run(['soul', 'show', 'demo'], { target: svc });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(Buffer.from(r.stdout)).toEqual(Buffer.from(soul));

    const file = path.join(scratch, 'round-trip.md');
    fs.writeFileSync(file, r.stdout);
    await setSoul(demo, 'something else\n');
    const set = await run(['soul', 'set', 'demo', '--file', file], { target: svc });
    expect(set.exitCode, set.stderr).toBe(0);
    expect(await soulOf(demo)).toBe(soul);
  });

  it('--json prints the files object of the API', async () => {
    const files = await svc.call('GET', `/v1/superagents/${demo}/files`);
    const r = await run(['soul', 'show', demo.slice(0, 6), '--json'], { target: svc });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(files.json);
    expect(Object.keys(JSON.parse(r.stdout)).sort()).toEqual(['agent_id', 'memory_md', 'soul_md']);
  });

  it('an unknown agent exits 4', async () => {
    const r = await run(['soul', 'show', 'nobody'], { target: svc });
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain("no agent matches 'nobody'");
  });
});

describe('soul set', () => {
  it('--file PATH uploads the file and prints the agent id when piped', async () => {
    const file = path.join(scratch, 'new-soul.md');
    fs.writeFileSync(file, '# New soul ✓\nno newline');
    const r = await run(['soul', 'set', 'demo', '--file', file], { target: svc });
    expect(r).toEqual({ exitCode: 0, stdout: `${demo}\n`, stderr: '' });
    expect(await soulOf(demo)).toBe('# New soul ✓\nno newline');
  });

  it('--file - reads standard input; exactly 256 KiB is accepted', async () => {
    const soul = '# Piped\n' + 'x'.repeat(SOUL_LIMIT - '# Piped\n'.length);
    const r = await run(['soul', 'set', demo, '--file', '-', '--json'], { target: svc, input: soul });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ agent_id: demo, status: 'updated' });
    expect(await soulOf(demo)).toBe(soul);
  });

  const refusals: Array<[string, () => { args: string[]; input?: Buffer | string }, RegExp]> = [
    ['an empty file', () => ({ args: ['--file', writeScratch('empty.md', '')] }), /^Error: soul file '.*empty\.md' is empty\n$/],
    ['a blank file', () => ({ args: ['--file', writeScratch('blank.md', ' \n\t\n')] }), /^Error: soul file '.*blank\.md' is empty\n$/],
    ['empty standard input', () => ({ args: ['--file', '-'], input: '' }), /^Error: the soul on standard input is empty\n$/],
    ['a non-UTF-8 file', () => ({ args: ['--file', writeScratch('latin1.md', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]))] }), /^Error: soul file '.*latin1\.md' is not valid UTF-8 text \(convert it to UTF-8 first\)\n$/],
    ['non-UTF-8 standard input', () => ({ args: ['--file', '-'], input: Buffer.from([0xff, 0xfe, 0x41]) }), /^Error: the soul on standard input is not valid UTF-8 text/],
    ['a file over 256 KiB', () => ({ args: ['--file', writeScratch('big.md', 'x'.repeat(SOUL_LIMIT + 1))] }), /^Error: soul file '.*big\.md' is 257 KiB; a soul may be at most 256 KiB\n$/],
    ['standard input over 256 KiB', () => ({ args: ['--file', '-'], input: 'y'.repeat(SOUL_LIMIT + 1) }), /is 257 KiB; a soul may be at most 256 KiB\n$/],
    ['a missing file', () => ({ args: ['--file', path.join(scratch, 'nope.md')] }), /^Error: soul file '.*nope\.md' does not exist \(check the path given to --file\)\n$/],
    ['no --file', () => ({ args: [] }), /^Error: --file is required \(superagent soul set demo --file soul\.md \(or --file - to read standard input\)\)\n$/],
  ];

  it.each(refusals)('refuses %s: exit 2, no request sent', async (_, make, message) => {
    const { args, input } = make();
    const r = await run(['soul', 'set', 'demo', ...args], { target: svc, input });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect((await probe.since()).requests).toBe(0);
    expect(await soulOf(demo)).toBe(START);
  });
});

function writeScratch(name: string, content: string | Buffer): string {
  const file = path.join(scratch, name);
  fs.writeFileSync(file, content);
  return file;
}

describe('soul edit', () => {
  it('changed: prints the diff, uploads with --yes, removes the private file', async () => {
    const tmp = freshTmp();
    const r = await edit(['demo', '--yes'], { EDITOR: SED_BOLD(), TMPDIR: tmp });
    expect(r).toEqual({ exitCode: 0, stdout: CHANGE_DIFF, stderr: '' });
    // list (the name), files, files again (the concurrency check), the PUT
    expect((await probe.since()).requests).toBe(4);
    expect(await soulOf(demo)).toBe(BOLD);
    expect(leftIn(tmp)).toEqual([]);
  });

  it('the file is <name>.soul.md, mode 0600, in a 0700 directory of its own under TMPDIR', async () => {
    const tmp = freshTmp();
    const seen = path.join(scratch, 'seen.txt');
    const editor = script('stat.sh', `stat -c '%a %n' "$(dirname "$1")" "$1" > '${seen}'\nprintf '%s\\n' "$#" >> '${seen}'`);
    const scout = await launch(svc, 'Scout Ünï v2!', 'scout soul\n');
    const r = await edit([scout], { EDITOR: editor, TMPDIR: tmp });
    expect(r.exitCode, r.stderr).toBe(0);
    const [dirLine, fileLine, argc] = fs.readFileSync(seen, 'utf8').trim().split('\n');
    const m = new RegExp(`^700 (${tmp}/superagent-[^/]+)$`).exec(dirLine!);
    expect(m, dirLine).not.toBeNull();
    expect(fileLine).toBe(`600 ${m![1]}/scout-uni-v2.soul.md`);
    expect(argc).toBe('1');
    expect(leftIn(tmp)).toEqual([]);
  });

  it('kept unchanged: no upload, nothing printed, exit 0, the file removed', async () => {
    const tmp = freshTmp();
    const r = await edit(['demo'], { EDITOR: script('keep.sh', ':'), TMPDIR: tmp });
    expect(r).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    // list (the name) and files: no second look, no PUT
    expect((await probe.since()).requests).toBe(2);
    expect(await soulOf(demo)).toBe(START);
    expect(leftIn(tmp)).toEqual([]);
  });

  it('VISUAL wins over EDITOR, and its arguments are split like a shell splits them', async () => {
    const args = path.join(scratch, 'args.txt');
    const dir = path.join(scratch, 'dir with space');
    fs.mkdirSync(dir, { recursive: true });
    const editor = path.join(dir, 'my editor.sh');
    fs.writeFileSync(editor, `#!/bin/sh\nfor a in "$@"; do printf '[%s]\\n' "$a"; done > '${args}'\nsed -i 's/careful/bold/' "$3"\n`, { mode: 0o755 });
    const r = await edit(['demo', '--yes'], { VISUAL: `'${editor}' -c "set tw=80"`, EDITOR: script('never.sh', 'exit 99'), TMPDIR: freshTmp() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(fs.readFileSync(args, 'utf8')).toMatch(/^\[-c\]\n\[set tw=80\]\n\[\/.*\/demo\.soul\.md\]\n$/);
    expect(await soulOf(demo)).toBe(BOLD);
  });

  it('the editor exits non-zero without changes: its message, nothing uploaded, the file removed', async () => {
    const tmp = freshTmp();
    const editor = script('fail.sh', 'exit 3');
    const r = await edit(['demo', '--yes'], { EDITOR: editor, TMPDIR: tmp });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`Error: the editor '${editor}' exited with code 3; nothing uploaded\n`);
    expect((await probe.since()).requests).toBe(2);
    expect(leftIn(tmp)).toEqual([]);
  });

  it('the editor exits non-zero after changing the file: nothing uploaded, the change kept', async () => {
    const tmp = freshTmp();
    const editor = script('change-fail.sh', `sed -i 's/careful/bold/' "$1"\nexit 1`);
    const r = await edit(['demo', '--yes'], { EDITOR: editor, TMPDIR: tmp });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^Error: the editor '${editor}' exited with code 1; soul.md not uploaded, your edit is kept in ${tmp}/superagent-\\w+/demo\\.soul\\.md`));
    const { file } = keptFrom(r.stderr);
    expect(fs.readFileSync(file, 'utf8')).toBe(BOLD);
    expect(await soulOf(demo)).toBe(START);
  });

  it('the editor cannot be started: exit 2 naming it, nothing uploaded', async () => {
    const tmp = freshTmp();
    const r = await edit(['demo', '--yes'], { EDITOR: 'no-such-editor-xyz --wait', TMPDIR: tmp });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(
      "Error: cannot start the editor from EDITOR 'no-such-editor-xyz': command not found; nothing uploaded (set VISUAL or EDITOR to an editor on your PATH, e.g. export EDITOR=nano)\n",
    );
    expect(leftIn(tmp)).toEqual([]);
    expect(await soulOf(demo)).toBe(START);
  });

  it('an EDITOR with an unterminated quote: exit 2 before any request', async () => {
    const r = await edit(['demo'], { EDITOR: "vim -c 'set tw=80", TMPDIR: freshTmp() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe('Error: EDITOR is not a command the CLI can run: unterminated single quote (check the quotes in EDITOR)\n');
    expect((await probe.since()).requests).toBe(0);
  });

  it('without a terminal and without --yes: the diff, then exit 2 keeping the file; the printed command uploads it', async () => {
    const tmp = freshTmp();
    const r = await edit(['demo'], { EDITOR: SED_BOLD(), TMPDIR: tmp });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe(CHANGE_DIFF);
    expect(r.stderr).toMatch(/^Error: --yes required to upload when not running interactively; soul.md not uploaded, your edit is kept in /);
    const { file, command } = keptFrom(r.stderr);
    expect(command).toBe(`superagent soul set ${demo} --file ${file}`);
    expect(await soulOf(demo)).toBe(START);

    const retry = await runPrinted(command, svc);
    expect(retry.exitCode, retry.stderr).toBe(0);
    expect(await soulOf(demo)).toBe(BOLD);
  });

  it('--json: the answer of the upload on stdout, the diff on stderr', async () => {
    const r = await edit(['demo', '--yes', '--json'], { EDITOR: SED_BOLD(), TMPDIR: freshTmp() });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ agent_id: demo, status: 'updated' });
    expect(r.stderr).toBe(CHANGE_DIFF);
  });

  it('emptied by the editor: exit 2, nothing uploaded', async () => {
    const tmp = freshTmp();
    const r = await edit(['demo', '--yes'], { EDITOR: script('empty.sh', ': > "$1"'), TMPDIR: tmp });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe("Error: the edited soul.md is empty; nothing uploaded (run 'superagent soul edit demo' again to start over)\n");
    expect(await soulOf(demo)).toBe(START);
    expect(leftIn(tmp)).toEqual([]);
  });

  it('made non-UTF-8 by the editor: exit 2, nothing uploaded, the file kept', async () => {
    const r = await edit(['demo', '--yes'], { EDITOR: script('latin1.sh', `printf 'caf\\351\\n' > "$1"`), TMPDIR: freshTmp() });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^Error: soul file '.*demo\.soul\.md' is not valid UTF-8 text \(convert it to UTF-8 first\); soul.md not uploaded, your edit is kept in /);
    const { file } = keptFrom(r.stderr);
    expect(fs.readFileSync(file)).toEqual(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    expect(await soulOf(demo)).toBe(START);
  });

  describe('a change made on the service while the editor is open', () => {
    /** An editor that first changes soul.md on the service (as someone else would), then edits the file. */
    function concurrentEditor(): string {
      const js = path.join(scratch, 'change-theirs.mjs');
      fs.writeFileSync(
        js,
        `const r = await fetch(process.env.SUPERAGENT_BASE_URL + '/v1/superagents/' + process.env.AGENT + '/soul', {
  method: 'PUT',
  headers: { 'content-type': 'application/json', authorization: 'Bearer ' + process.env.SUPERAGENT_API_KEY },
  body: JSON.stringify({ soul_md: process.env.THEIRS }),
});
if (r.status !== 200) process.exit(9);
`,
      );
      return script('concurrent.sh', `"${process.execPath}" '${js}'\nsed -i 's/careful/bold/' "$1"`);
    }
    const THEIRS = 'I am demo.\nBe careful.\nWatch the tape.\nNever short.\n';

    it('is not overwritten: exit 6, the diff theirs against yours, the file kept', async () => {
      const tmp = freshTmp();
      const r = await edit(['demo', '--yes'], { EDITOR: concurrentEditor(), AGENT: demo, THEIRS, TMPDIR: tmp });
      expect(r.exitCode).toBe(6);
      const { file, command } = keptFrom(r.stderr);
      expect(r.stdout).toBe(
        CHANGE_DIFF +
          [
            '--- demo/soul.md (theirs: changed on the service)',
            `+++ ${file} (yours)`,
            '@@ -1,4 +1,3 @@',
            ' I am demo.',
            '-Be careful.',
            '+Be bold.',
            ' Watch the tape.',
            '-Never short.',
            '',
          ].join('\n'),
      );
      expect(r.stderr).toBe(
        `Error: the soul.md of demo changed on the service while the editor was open; nothing uploaded, your edit is kept in ${file} ` +
          `(the diff above shows theirs against yours; to overwrite theirs with yours: ${command} (soul edit --force skips this check))\n`,
      );
      expect(command).toBe(`superagent soul set ${demo} --file ${file}`);
      expect(file.startsWith(`${tmp}/`)).toBe(true);
      expect(fs.readFileSync(file, 'utf8')).toBe(BOLD);
      expect(await soulOf(demo)).toBe(THEIRS);
    });

    it('--force overwrites it', async () => {
      const tmp = freshTmp();
      const r = await edit(['demo', '--yes', '--force'], { EDITOR: concurrentEditor(), AGENT: demo, THEIRS, TMPDIR: tmp });
      expect(r).toEqual({ exitCode: 0, stdout: CHANGE_DIFF, stderr: '' });
      expect(await soulOf(demo)).toBe(BOLD);
      expect(leftIn(tmp)).toEqual([]);
    });

    it('the very same change made by someone else: nothing to upload, exit 0', async () => {
      const tmp = freshTmp();
      const r = await edit(['demo', '--yes'], { EDITOR: concurrentEditor(), AGENT: demo, THEIRS: BOLD, TMPDIR: tmp });
      expect(r).toEqual({ exitCode: 0, stdout: CHANGE_DIFF, stderr: '' });
      expect(await soulOf(demo)).toBe(BOLD);
      expect(leftIn(tmp)).toEqual([]);
    });
  });

  it('the upload against a stopped service: exit 7, the file kept, the printed command uploads it later', async () => {
    const dataDir = temp.scratch('superagent-soul-stopped-');
    const first = await startTestService({ dataDir });
    const id = await launch(first, 'demo', START);
    const marks = temp.scratch('superagent-soul-marks-');
    const tmp = freshTmp();
    // the editor says it is open, then waits until the test has stopped the service
    const editor = script(
      'wait-for-stop.sh',
      `touch '${marks}/opened'\nwhile [ ! -e '${marks}/go' ]; do sleep 0.05; done\nsed -i 's/careful/bold/' "$1"`,
    );
    const running = edit(['demo', '--yes'], { EDITOR: editor, TMPDIR: tmp }, first);
    const deadline = Date.now() + 15_000;
    while (!fs.existsSync(path.join(marks, 'opened'))) {
      if (Date.now() > deadline) throw new Error('the editor never started');
      await new Promise((r) => setTimeout(r, 50));
    }
    await first.close();
    fs.writeFileSync(path.join(marks, 'go'), '');
    const r = await running;

    expect(r.exitCode).toBe(7);
    expect(r.stdout).toBe(CHANGE_DIFF);
    const { file, command } = keptFrom(r.stderr);
    expect(r.stderr).toMatch(new RegExp(`; soul.md not uploaded, your edit is kept in ${file} \\(upload it with: superagent soul set ${id} --file ${file}\\)\\n$`));
    expect(command).toBe(`superagent soul set ${id} --file ${file}`);
    expect(fs.readFileSync(file, 'utf8')).toBe(BOLD);

    // the service comes back (same data, same key): the printed command finishes the job
    const again = await startTestService({ dataDir });
    try {
      expect(await soulOf(id, again)).toBe(START);
      const retry = await runPrinted(command, again);
      expect(retry.exitCode, retry.stderr).toBe(0);
      expect(await soulOf(id, again)).toBe(BOLD);
    } finally {
      await again.close();
    }
  });
});
