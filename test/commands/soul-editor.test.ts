// `soul edit` with the system editor (src/ui/editor.ts `systemEditor`): $VISUAL, else $EDITOR, split
// like a shell splits it, run as a process of its own on the file; its exit status, a missing
// command and an unsplittable line. The command runs in this process; the editors are small shell
// scripts. The rest of `soul edit`, with an editor function: soul-edit.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { systemEditor } from '../../src/ui/editor.js';
import { runLine, testEnv } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';
import { useSoulAgent } from '../helpers/soul-agent.js';
import type { TestService } from '../helpers/service.js';

const START = 'I am demo.\nBe careful.\nWatch the tape.\n';
const BOLD = 'I am demo.\nBe bold.\nWatch the tape.\n';

const fixture = useSoulAgent(START);
let service: TestService;
let demo: string;
beforeAll(() => void ({ service, demo } = fixture));
/** TMPDIR of this test (os.tmpdir() reads the process's TMPDIR), a dir for the scripts, the data dir (kept edits) */
let tmp: string;
let scripts: string;
let data: string;
const temp = perTest();

beforeEach(async () => {
  scripts = temp.scratch('superagent-soul-scripts-');
  tmp = temp.scratch('superagent-soul-tmp-');
  data = temp.scratch('superagent-soul-data-');
  vi.stubEnv('TMPDIR', tmp);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

async function soulOf(): Promise<string> {
  return (await service.call('GET', `/v1/superagents/${demo}/files`)).json.soul_md;
}

/** An executable shell script; "$1" is the file to edit. */
function script(name: string, body: string, dir = scripts): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `#!/bin/sh\nset -e\n${body}\n`, { mode: 0o755 });
  return file;
}

/** `soul edit` with the editor VISUAL and EDITOR name in `env`. */
function edit(args: string[], editors: Record<string, string>) {
  const env = { SUPERAGENT_DATA_DIR: data, ...editors };
  return runLine(service, ['soul', 'edit', ...args], { env, editor: systemEditor(testEnv(service, env)) });
}

const leftInTmp = () => (fs.readdirSync(tmp, { recursive: true }) as string[]).sort();
const requests = () => service.cliRequests().map((r) => `${r.method} ${r.path}`);

describe('soul edit with the system editor', () => {
  it('EDITOR gets the file as its only argument, and its change is uploaded', async () => {
    const args = path.join(scripts, 'args.txt');
    const editor = script('bold.sh', `printf '[%s]\\n' "$@" > '${args}'\nsed -i 's/careful/bold/' "$1"`);
    const r = await edit(['demo', '--yes'], { EDITOR: editor });
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(args, 'utf8')).toMatch(new RegExp(`^\\[${tmp}/superagent-[^/]+/demo\\.soul\\.md\\]\\n$`));
    expect(await soulOf()).toBe(BOLD);
    expect(leftInTmp()).toEqual([]);
  });

  it('VISUAL wins over EDITOR, and its arguments are split like a shell splits them', async () => {
    const args = path.join(scripts, 'args.txt');
    const dir = path.join(scripts, 'dir with space');
    fs.mkdirSync(dir);
    const editor = script('my editor.sh', `printf '[%s]\\n' "$@" > '${args}'\nsed -i 's/careful/bold/' "$3"`, dir);
    const r = await edit(['demo', '--yes'], {
      VISUAL: `'${editor}' -c "set tw=80"`,
      EDITOR: script('never.sh', 'exit 99'),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(fs.readFileSync(args, 'utf8')).toMatch(/^\[-c\]\n\[set tw=80\]\n\[\/.*\/demo\.soul\.md\]\n$/);
    expect(await soulOf()).toBe(BOLD);
  });

  it('the editor exits non-zero without changes: its message, nothing uploaded, the file removed', async () => {
    const editor = script('fail.sh', 'exit 3');
    const r = await edit(['demo', '--yes'], { EDITOR: editor });
    expect(r).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `Error: the editor '${editor}' exited with code 3; nothing uploaded\n`,
    });
    // the name and the soul; no upload
    expect(requests()).toEqual(['GET /v1/superagents', `GET /v1/superagents/${demo}/files`]);
    expect(leftInTmp()).toEqual([]);
  });

  it('the editor exits non-zero after changing the file: nothing uploaded, the change kept', async () => {
    const editor = script('change-fail.sh', `sed -i 's/careful/bold/' "$1"\nexit 1`);
    const r = await edit(['demo', '--yes'], { EDITOR: editor });
    expect(r.code).toBe(2);
    const kept = `(${data}/soul-edits/\\w+/${demo}\\.\\d+\\.\\w+/demo\\.soul\\.md)`;
    const upload = `superagent soul set ${demo} --file \\1`;
    const resume = `'superagent soul edit demo' offers to resume it; to upload it as it is: ${upload}`;
    const failed = `the editor '${editor}' exited with code 1`;
    const line = `^Error: ${failed}; soul.md not uploaded, your edit is kept in ${kept} \\(${resume}\\)\\n$`;
    const m = new RegExp(line).exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    expect(fs.readFileSync(m![1]!, 'utf8')).toBe(BOLD);
    expect(await soulOf()).toBe(START);
  });

  it('the editor cannot be started: exit 2 naming it, nothing uploaded', async () => {
    const r = await edit(['demo', '--yes'], { EDITOR: 'no-such-editor-xyz --wait' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "Error: cannot start the editor from EDITOR 'no-such-editor-xyz': command not found; nothing " +
        'uploaded (set VISUAL or EDITOR to an editor on your PATH, e.g. export EDITOR=nano)\n',
    );
    expect(leftInTmp()).toEqual([]);
    expect(await soulOf()).toBe(START);
  });

  it('an EDITOR with an unterminated quote: exit 2 before any request', async () => {
    const r = await edit(['demo'], { EDITOR: "vim -c 'set tw=80" });
    expect(r).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'Error: EDITOR is not a command the CLI can run: unterminated single quote (check the quotes in EDITOR)\n',
    });
    expect(requests()).toEqual([]);
    expect(leftInTmp()).toEqual([]);
  });
});

describe('an editor told to stop', () => {
  let pidFile: string;
  // an editor a failed test did not stop is ended here, not left running
  afterEach(() => {
    const pid = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : 0;
    try {
      // still the editor's sleep (its PID not given since to another process)
      if (pid > 0 && fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('sleep\x00600'))
        process.kill(pid, 'SIGKILL');
    } catch {
      // stopped, as it should be
    }
  });

  it(
    'before it was even started (SIGHUP as the editor was ' + 'being spawned): stopped at once with that signal',
    async () => {
      pidFile = path.join(scripts, 'editor.pid');
      const slow = script('slow.sh', `echo $$ > '${pidFile}'\nexec sleep 600`);
      const stop = new AbortController();
      stop.abort('SIGHUP');
      const file = path.join(scripts, 'draft.md');
      fs.writeFileSync(file, START);
      await expect(systemEditor(testEnv(undefined, { EDITOR: slow })).open(file, stop.signal)).rejects.toThrow(
        `the editor '${slow}' was stopped by SIGHUP`,
      );
    },
  );
});
