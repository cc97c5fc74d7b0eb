// `soul edit` through the commands layer (docs/cli.md, superagent soul edit): the editor is a function of the file
// (fakeEditor: it rewrites it, leaves it, or fails), the confirmation prompt is scripted. The diff,
// the upload only after a yes, never over someone else's change, and never a lost edit: whenever
// nothing is uploaded the edit is kept in the data dir, the printed command uploads it, and the next
// `soul edit` of the agent offers to resume it. The real $VISUAL/$EDITOR processes:
// soul-editor.test.ts; vi in a real terminal: test/e2e/soul-vi.test.ts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/core/errors.js';
import { EditorError } from '../../src/ui/editor.js';
import { maskKey } from '../../src/ui/mask.js';
import { FakeClock, fakeEditor, runLine, type RunOptions } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';
import { useSoulEdit } from '../helpers/soul-agent.js';
import { launchAgent, type TestService } from '../helpers/service.js';

const START = 'I am demo.\nBe careful.\nWatch the tape.\n';
const BOLD = 'I am demo.\nBe bold.\nWatch the tape.\n';
const THEIRS = 'I am demo.\nBe careful.\nWatch the tape.\nNever short.\n';
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

const fixture = useSoulEdit(START);
let service: TestService, demo: string, tmp: string, data: string;
beforeEach(() => void ({ service, demo, tmp, data } = fixture));
const temp = perTest();
const cli = fixture.cli;

async function soulOf(id: string, svc = service): Promise<string> {
  const r = await svc.call('GET', `/v1/superagents/${id}/files`);
  expect(r.status, r.text).toBe(200);
  return r.json.soul_md as string;
}

const bold = fakeEditor((file) => fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('careful', 'bold')));

/** Every file left under TMPDIR. */
const leftInTmp = () => (fs.readdirSync(tmp, { recursive: true }) as string[]).sort();

/** What the CLI asked of the service, as `METHOD path`. */
const requests = () => service.cliRequests().map((r) => `${r.method} ${r.path}`);
const LOOK = ['GET /v1/superagents', `GET /v1/superagents/${'ID'}/files`];
const look = (id = demo) => LOOK.map((r) => r.replace('ID', id));

/** A kept edit of demo, under this test's data dir. */
const KEPT = () => new RegExp(`^${data}/soul-edits/[0-9a-f]{16}/${demo}\\.\\d+\\.[0-9a-f]+/demo\\.soul\\.md$`);
/** What the message adds after where the edit is kept. */
const RESUME = "'superagent soul edit demo' offers to resume it";

/** The kept file and the retry command named by an error line. */
function keptFrom(stderr: string): { file: string; command: string } {
  // the file named where it is kept, or only in the command that uploads it
  const m = /your edit is kept(?: in (\S+))? .*?(superagent soul set \S+ --file ([^\s)]+))/.exec(stderr);
  expect(m, stderr).not.toBeNull();
  return { file: m![1] ?? m![3]!, command: m![2]! };
}

/** Runs a printed `superagent …` command line, split into words by /bin/sh itself, against `target`. */
function runPrinted(command: string, target: TestService) {
  const split = execFileSync('/bin/sh', ['-c', `set -- ${command}; printf '%s\\0' "$@"`], { encoding: 'utf8' });
  const [bin, ...words] = split.split('\0').slice(0, -1);
  expect(bin).toBe('superagent');
  return runLine(target, words);
}

describe('soul edit', () => {
  it('changed: prints the diff, uploads with --yes, removes the private file', async () => {
    const r = await cli(['soul', 'edit', 'demo', '--yes'], { editor: bold });
    expect(r).toMatchObject({ code: 0, stdout: CHANGE_DIFF, stderr: '' });
    // the name, the soul, the soul again (has it changed meanwhile?), the upload
    expect(requests()).toEqual([...look(), `GET /v1/superagents/${demo}/files`, `PUT /v1/superagents/${demo}/soul`]);
    expect(await soulOf(demo)).toBe(BOLD);
    expect(leftInTmp()).toEqual([]);
  });

  it('a key in the soul: the diff shows it masked (stdout; stderr with --json), the upload has it whole', async () => {
    const key = 'gb_sk_' + 'Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5';
    const addKey = (file: string) => fs.writeFileSync(file, START.replace('careful', `careful with ${key}`));
    const withKey = fakeEditor(addKey);
    const r = await cli(['soul', 'edit', 'demo', '--yes'], { editor: withKey });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`+Be careful with ${maskKey(key)}.\n`);
    expect(r.stdout + r.stderr).not.toContain(key.slice(6));
    expect(await soulOf(demo)).toBe(START.replace('careful', `careful with ${key}`));

    const undo = fakeEditor((file) => fs.writeFileSync(file, START));
    const back = await cli(['soul', 'edit', 'demo', '--yes', '--json'], { editor: undo });
    expect(back.code, back.stderr).toBe(0);
    expect(back.stderr).toContain(`-Be careful with ${maskKey(key)}.\n`);
    expect(back.stdout + back.stderr).not.toContain(key.slice(6));
    expect(await soulOf(demo)).toBe(START);
  });

  it('the file is <name>.soul.md, mode 0600, in a 0700 directory of its own under TMPDIR', async () => {
    const scout = (await launchAgent(service, { name: 'Scout Ünï v2!', soul_md: 'scout soul\n' })).agent_id;
    let seen: { dir: string; dirMode: number; name: string; fileMode: number; content: string } | undefined;
    const editor = fakeEditor((file) => {
      const dir = path.dirname(file);
      seen = {
        dir,
        dirMode: fs.statSync(dir).mode & 0o777,
        name: path.basename(file),
        fileMode: fs.statSync(file).mode & 0o777,
        content: fs.readFileSync(file, 'utf8'),
      };
    });
    const r = await cli(['soul', 'edit', scout], { editor });
    expect(r.code, r.stderr).toBe(0);
    expect(seen).toEqual({
      dir: expect.stringMatching(new RegExp(`^${tmp}/superagent-[^/]+$`)),
      dirMode: 0o700,
      name: 'scout-uni-v2.soul.md',
      fileMode: 0o600,
      content: 'scout soul\n',
    });
    expect(leftInTmp()).toEqual([]);
    await service.call('DELETE', `/v1/superagents/${scout}`);
  });

  it('kept unchanged: no upload, nothing printed, exit 0, the file removed', async () => {
    const r = await cli(['soul', 'edit', 'demo'], { editor: fakeEditor(() => undefined) });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    // the name and the soul: no second look, no PUT
    expect(requests()).toEqual(look());
    expect(await soulOf(demo)).toBe(START);
    expect(leftInTmp()).toEqual([]);
  });

  it('the editor fails without changes: its message, nothing uploaded, the file removed', async () => {
    const editor = fakeEditor(() => {
      throw new EditorError("the editor 'fake-editor' exited with code 3");
    });
    const r = await cli(['soul', 'edit', 'demo', '--yes'], { editor });
    expect(r).toMatchObject({
      code: 2,
      stdout: '',
      stderr: "Error: the editor 'fake-editor' exited with code 3; nothing uploaded\n",
    });
    expect(requests()).toEqual(look());
    expect(leftInTmp()).toEqual([]);
  });

  it('the editor fails after changing the file: nothing uploaded, the change kept', async () => {
    const editor = fakeEditor((file) => {
      fs.writeFileSync(file, BOLD);
      throw new EditorError("the editor 'fake-editor' exited with code 1");
    });
    const r = await cli(['soul', 'edit', 'demo', '--yes'], { editor });
    expect(r.code).toBe(2);
    const { file, command } = keptFrom(r.stderr);
    expect(file).toMatch(KEPT());
    expect(r.stderr).toBe(
      `Error: the editor 'fake-editor' exited with code 1; soul.md not uploaded, your edit is kept in ${file} ` +
        `(${RESUME}; to upload it as it is: ${command})\n`,
    );
    expect(leftInTmp()).toEqual([]);
    expect(fs.readFileSync(file, 'utf8')).toBe(BOLD);
    expect(await soulOf(demo)).toBe(START);
    expect(requests()).toEqual(look());
  });

  it(
    'without a terminal and without --yes: the diff, then exit 2 ' + 'keeping the file; the printed command uploads it',
    async () => {
      const r = await cli(['soul', 'edit', 'demo'], { editor: bold });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe(CHANGE_DIFF);
      expect(r.stderr).toMatch(
        /^Error: --yes required to upload when not running interactively; soul.md not uploaded, your edit is kept in /,
      );
      const { file, command } = keptFrom(r.stderr);
      expect(command).toBe(`superagent soul set ${demo} --file ${file}`);
      expect(await soulOf(demo)).toBe(START);
      expect(r.asked).toEqual([]);

      const retry = await runPrinted(command, service);
      expect(retry.code, retry.stderr).toBe(0);
      expect(await soulOf(demo)).toBe(BOLD);
    },
  );

  it('--json: the answer of the upload on stdout, the diff on stderr', async () => {
    const r = await cli(['soul', 'edit', 'demo', '--yes', '--json'], { editor: bold });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ agent_id: demo, status: 'updated' });
    expect(r.stderr).toBe(CHANGE_DIFF);
  });

  it('emptied by the editor: exit 2, nothing uploaded, the file removed', async () => {
    const r = await cli(['soul', 'edit', 'demo', '--yes'], {
      editor: fakeEditor((file) => fs.writeFileSync(file, '')),
    });
    expect(r).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        "Error: the edited soul.md is empty; nothing uploaded (run 'superagent soul edit demo' again to start over)\n",
    });
    expect(await soulOf(demo)).toBe(START);
    expect(leftInTmp()).toEqual([]);
  });

  it('made non-UTF-8 by the editor: exit 2, nothing uploaded, the file kept', async () => {
    const latin1 = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);
    const r = await cli(['soul', 'edit', 'demo', '--yes'], {
      editor: fakeEditor((file) => fs.writeFileSync(file, latin1)),
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(
        String.raw`^Error: soul file '.*demo\.soul\.md' is not valid UTF-8 text \(convert it to UTF-8 first\); ` +
          String.raw`soul.md not uploaded, your edit is kept in `,
      ),
    );
    const { file } = keptFrom(r.stderr);
    expect(fs.readFileSync(file)).toEqual(latin1);
    expect(await soulOf(demo)).toBe(START);
  });

  it('the editor removes the file: exit 2, nothing uploaded', async () => {
    const r = await cli(['soul', 'edit', 'demo', '--yes'], { editor: fakeEditor((file) => fs.rmSync(file)) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      new RegExp(`^Error: the editor removed ${tmp}/superagent-\\w+/demo\\.soul\\.md; nothing uploaded\\n$`),
    );
    expect(await soulOf(demo)).toBe(START);
    expect(leftInTmp()).toEqual([]);
  });
});

describe('soul edit on a terminal asks before uploading', () => {
  const QUESTION = 'Upload this soul.md to demo?';

  it('yes: uploads', async () => {
    const r = await cli(['soul', 'edit', 'demo'], { tty: true, editor: bold, answers: [true] });
    expect(r.code, r.stderr).toBe(0);
    expect(r.asked).toEqual([QUESTION]);
    expect(r.stdout).toBe(CHANGE_DIFF);
    expect(r.stderr).toContain('Updated the soul.md of demo');
    expect(await soulOf(demo)).toBe(BOLD);
    expect(leftInTmp()).toEqual([]);
  });

  it(
    'no: nothing uploaded, exit 0, the file kept and the ' + 'command that uploads it printed (the path said once)',
    async () => {
      const r = await cli(['soul', 'edit', 'demo'], { tty: true, editor: bold, answers: [false] });
      expect(r.code).toBe(0);
      expect(r.asked).toEqual([QUESTION]);
      const { file, command } = keptFrom(r.stderr);
      const goOn = `${RESUME}; to upload it as it is: ${command}`;
      expect(r.stderr).toBe(`! Not uploaded; your edit is kept (${goOn})\n`);
      expect(r.stderr.split(file).length - 1).toBe(1);
      expect(file).toMatch(KEPT());
      expect(fs.readFileSync(file, 'utf8')).toBe(BOLD);
      expect(await soulOf(demo)).toBe(START);
    },
  );

  it('the commands it prints repeat --base-url with its password masked, even one with a space', async () => {
    // maskUrls finds a password in a text only up to a space; the command line is masked as it is made
    const url = service.url.replace('//', '//alice:open sesame@');
    const r = await cli(['soul', 'edit', 'demo', '--base-url', url], { tty: true, editor: bold, answers: [false] });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('sesame');
    const masked = `--base-url '${service.url.replace('//', '//…@')}'`;
    expect(r.stderr).toContain(
      `'superagent ${masked} soul edit demo' offers to resume it; to ` +
        `upload it as it is: superagent ${masked} soul set `,
    );
  });

  it('Ctrl-C at the question: exit 130, the file kept', async () => {
    const r = await cli(['soul', 'edit', 'demo'], { tty: true, editor: bold, answers: [new InterruptedError()] });
    expect(r.code).toBe(130);
    const { file } = keptFrom(r.stderr);
    expect(fs.readFileSync(file, 'utf8')).toBe(BOLD);
    expect(await soulOf(demo)).toBe(START);
  });
});

describe('a change made on the service while the editor is open', () => {
  /** An editor that first changes soul.md on the service (as someone else would), then edits the file. */
  const concurrent = (theirs: string) =>
    fakeEditor(async (file) => {
      expect((await service.call('PUT', `/v1/superagents/${demo}/soul`, { body: { soul_md: theirs } })).status).toBe(
        200,
      );
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('careful', 'bold'));
    });

  it('is not overwritten: exit 6, the diff theirs against yours, the file kept', async () => {
    const r = await cli(['soul', 'edit', 'demo', '--yes'], { editor: concurrent(THEIRS) });
    expect(r.code).toBe(6);
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
      `Error: the soul.md of demo changed on the service while the editor ` +
        `was open; nothing uploaded, your edit is kept in ${file} ` +
        `(the diff above shows theirs against yours; ${RESUME}; to overwrite theirs with yours: ${command} ` +
        '(soul edit --force skips this check))\n',
    );
    expect(command).toBe(`superagent soul set ${demo} --file ${file}`);
    expect(file).toMatch(KEPT());
    expect(fs.readFileSync(file, 'utf8')).toBe(BOLD);
    expect(await soulOf(demo)).toBe(THEIRS);
  });

  it('--force overwrites it', async () => {
    const r = await cli(['soul', 'edit', 'demo', '--yes', '--force'], { editor: concurrent(THEIRS) });
    expect(r).toMatchObject({ code: 0, stdout: CHANGE_DIFF, stderr: '' });
    expect(await soulOf(demo)).toBe(BOLD);
    expect(leftInTmp()).toEqual([]);
  });

  it('the very same change made by someone else: nothing to upload, exit 0', async () => {
    const r = await cli(['soul', 'edit', 'demo', '--yes'], { editor: concurrent(BOLD) });
    expect(r).toMatchObject({ code: 0, stdout: CHANGE_DIFF, stderr: '' });
    expect(await soulOf(demo)).toBe(BOLD);
    expect(requests().filter((q) => q.startsWith('PUT'))).toEqual([]);
    expect(leftInTmp()).toEqual([]);
  });
});

it('the upload against a stopped service: exit 7, the file kept, the printed command uploads it later', async () => {
  const dataDir = temp.scratch('superagent-soul-stopped-');
  const first = await temp.service({ dataDir });
  const id = (await launchAgent(first, { name: 'demo', soul_md: START })).agent_id;
  // the service stops while the editor is open
  const editor = fakeEditor(async (file) => {
    await first.close();
    fs.writeFileSync(file, BOLD);
  });
  // (the retry waits of the fake clock return at once)
  const env = { SUPERAGENT_DATA_DIR: data };
  const r = await runLine(first, ['soul', 'edit', 'demo', '--yes'], { editor, clock: new FakeClock(), env });

  expect(r.code).toBe(7);
  expect(r.stdout).toBe(CHANGE_DIFF);
  const { file, command } = keptFrom(r.stderr);
  const resume = `${RESUME}; to upload it as it is: superagent soul set ${id} --file ${file}`;
  const kept = `soul.md not uploaded, your edit is kept in ${file} \\(${resume}\\)`;
  expect(r.stderr).toMatch(new RegExp(`^Error: cannot reach ${first.url}/[^\\n]*; ${kept}\\n$`));
  expect(file.startsWith(`${data}/soul-edits/`)).toBe(true);
  expect(command).toBe(`superagent soul set ${id} --file ${file}`);
  expect(fs.readFileSync(file, 'utf8')).toBe(BOLD);

  // the service comes back (same data, same key): the printed command finishes the job
  const again = await temp.serviceOn(dataDir);
  expect(again.key).toBe(first.key);
  expect(await soulOf(id, again)).toBe(START);
  const retry = await runPrinted(command, again);
  expect(retry.code, retry.stderr).toBe(0);
  expect(await soulOf(id, again)).toBe(BOLD);
});

describe('every edit not uploaded is kept for the next soul edit, which offers to resume it', () => {
  const offer = "Resume your edit of demo's soul.md, kept just now? (no: discard it)";
  /** An editor that first changes soul.md on the service (as someone else would), then edits the file. */
  const conflicting = fakeEditor(async (file) => {
    await service.call('PUT', `/v1/superagents/${demo}/soul`, { body: { soul_md: THEIRS } });
    fs.writeFileSync(file, BOLD);
  });
  const failing = fakeEditor((file) => {
    fs.writeFileSync(file, BOLD);
    throw new EditorError("the editor 'fake-editor' exited with code 1");
  });

  it.each([
    ['the upload declined', { tty: true, answers: [false] }, 0],
    ['a change on the service meanwhile', { editor: conflicting, yes: true }, 6],
    ['no terminal and no --yes', {}, 2],
    ['the editor failing after the change', { editor: failing, yes: true }, 2],
    ['Ctrl-C at the upload question', { tty: true, answers: [new InterruptedError()] }, 130],
  ] as const)('%s: kept in the data dir, nothing left in TMPDIR; the next run offers it', async (_how, how, code) => {
    const o = how as { tty?: boolean; answers?: Array<boolean | Error>; editor?: RunOptions['editor']; yes?: boolean };
    const args = ['soul', 'edit', 'demo', ...(o.yes ? ['--yes'] : [])];
    const r = await cli(args, { tty: o.tty, answers: o.answers && [...o.answers], editor: o.editor ?? bold });
    expect(r.code, r.stderr).toBe(code);
    const { file } = keptFrom(r.stderr);
    expect(file).toMatch(KEPT());
    expect(r.stderr).toContain(RESUME);
    expect(fs.readFileSync(file, 'utf8')).toBe(BOLD);
    expect(leftInTmp()).toEqual([]);

    let seen: string | undefined;
    const look = fakeEditor((f) => void (seen = fs.readFileSync(f, 'utf8')));
    const next = await cli(['soul', 'edit', 'demo'], { tty: true, editor: look, answers: [true] });
    expect(next.asked[0]).toBe(offer);
    expect(next.stderr).toContain(`An edit of demo's soul.md that was not uploaded was kept just now: ${file}\n`);
    expect(seen).toBe(BOLD);
    await service.call('PUT', `/v1/superagents/${demo}/soul`, { body: { soul_md: START } });
  });

  it('a resumed edit declined again: kept in the data dir again, not moved out to TMPDIR', async () => {
    const first = await cli(['soul', 'edit', 'demo'], { tty: true, editor: bold, answers: [false] });
    const { file: before } = keptFrom(first.stderr);
    const unchanged = fakeEditor(() => undefined);
    const again = await cli(['soul', 'edit', 'demo'], { tty: true, editor: unchanged, answers: [true, false] });
    expect(again.asked).toEqual([offer, 'Upload this soul.md to demo?']);
    const { file } = keptFrom(again.stderr.slice(again.stderr.indexOf('Not uploaded')));
    expect(file).toMatch(KEPT());
    expect(file).not.toBe(before);
    expect(fs.existsSync(before)).toBe(false);
    expect(fs.readFileSync(file, 'utf8')).toBe(BOLD);
    expect(leftInTmp()).toEqual([]);
    expect(await soulOf(demo)).toBe(START);
  });
});

it('a data dir that cannot take the edit: it stays in TMPDIR, named, with the command that uploads it', async () => {
  const notADir = path.join(data, 'a-file');
  fs.writeFileSync(notADir, '');
  const env = { SUPERAGENT_DATA_DIR: notADir };
  const r = await cli(['soul', 'edit', 'demo'], { tty: true, editor: bold, answers: [false], env });
  expect(r.code, r.stderr).toBe(0);
  const { file, command } = keptFrom(r.stderr);
  expect(r.stderr).toBe(`! Not uploaded; your edit is kept (upload it with: ${command})\n`);
  expect(file).toMatch(new RegExp(`^${tmp}/superagent-\\w+/demo\\.soul\\.md$`));
  expect(fs.readFileSync(file, 'utf8')).toBe(BOLD);
});
