// SIGHUP (the terminal went away) while `soul edit`'s editor is open: the editor is told to stop with
// the same signal, nothing is uploaded, the edit is kept under the data dir, and the command exits
// 129 saying where. Nobody may read that line on a hung-up terminal, so the next `soul edit` of that
// agent offers to resume the kept edit, as an editor offers its swap file. SIGTERM keeps the edit the
// same way (soul-edit-terminate.test.ts). Signals are FakeSignals; the editor is a function of the
// file. The real processes (the editor ended with the CLI, nothing orphaned): test/e2e/soul-hangup.test.ts.
// A hang-up, Ctrl-C or SIGTERM while the edit is being uploaded keeps it the same way (the service
// may have it or not: the kept edit, resumed, shows what is left to upload).
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { EventEmitter } from 'node:events';
import { processSignals, type SignalTarget } from '../../src/cli/run.js';
import { TerminatedError } from '../../src/core/errors.js';
import { EditorError } from '../../src/ui/editor.js';
import { FakeSignals, MemoryConfig, fakeEditor, runLine, type RunOptions } from '../helpers/context.js';
import { AGENT_ID, hostileServices } from '../helpers/hostile-service.js';
import { useSoulEdit } from '../helpers/soul-agent.js';
import { launchAgent, type TestService } from '../helpers/service.js';

const START = 'I am demo.\nBe careful.\n';
const BOLD = 'I am demo.\nBe bold.\n';
const BOLDER = 'I am demo.\nBe bold.\nAnd quick.\n';
const THEIRS = 'I am demo.\nBe patient.\n';

const fixture = useSoulEdit(START);
let service: TestService, demo: string, tmp: string, data: string;
beforeEach(() => void ({ service, demo, tmp, data } = fixture));
/** every run with this test's data dir, where kept edits live */
const cli = fixture.cli;

const soulOnService = async () => (await service.call('GET', `/v1/superagents/${demo}/files`)).json.soul_md as string;

/** An editor that writes `content` (if any), then gets SIGHUP and exits as a real one does on it. */
function hungUpEditor(signals: FakeSignals, content?: string) {
  return fakeEditor(async (file, stop) => {
    if (content !== undefined) fs.writeFileSync(file, content);
    // an editor's own rescue file beside the draft (vim's swap file, nano's .save) goes with it
    fs.writeFileSync(path.join(path.dirname(file), '.demo.soul.md.swp'), 'swap');
    expect(signals.hangup(), 'soul edit listens for SIGHUP while the editor is open').toBe(true);
    expect(stop?.aborted, 'the editor is told to stop').toBe(true);
    expect(stop?.reason, 'with the signal the CLI got').toBe('SIGHUP');
    throw new EditorError("the editor 'fake-editor' was stopped by SIGHUP");
  });
}

/** Hangs up an edit that saved `content`; the kept file, as the error line names it. */
async function hangUp(content?: string): Promise<string> {
  const signals = new FakeSignals();
  const r = await cli(['soul', 'edit', 'demo', '--yes'], { editor: hungUpEditor(signals, content), signals });
  expect(r.code, r.stderr).toBe(129);
  expect(signals.hangupListeners).toBe(0);
  const m = /your edit is kept in (\S+) /.exec(r.stderr);
  expect(m, r.stderr).not.toBeNull();
  return m![1]!;
}

/** What is left under the data dir's kept edits, and under TMPDIR. */
const kept = () => {
  const root = path.join(data, 'soul-edits');
  return fs.existsSync(root) ? (fs.readdirSync(root, { recursive: true }) as string[]) : [];
};
const leftInTmp = () => fs.readdirSync(tmp, { recursive: true }) as string[];

describe('SIGHUP with the editor open', () => {
  it.each([
    ['a saved change', BOLD],
    ['nothing saved yet', undefined],
  ])('%s: exit 129 saying where the edit is kept, under the data dir; nothing uploaded', async (_what, content) => {
    const signals = new FakeSignals();
    const r = await cli(['soul', 'edit', 'demo', '--yes'], { editor: hungUpEditor(signals, content), signals });
    expect([r.code, r.stdout]).toEqual([129, '']);
    const file = fixture.keptIn(r.stderr, 'Hung up');
    expect(fs.readFileSync(file!, 'utf8')).toBe(content ?? START);
    expect(fs.readFileSync(path.join(path.dirname(file!), '.demo.soul.md.swp'), 'utf8')).toBe('swap');
    // private: the directory 0700, the file as the editor left it (0600)
    expect(fs.statSync(path.dirname(file!)).mode & 0o777).toBe(0o700);
    expect(fs.statSync(file!).mode & 0o777).toBe(0o600);
    expect(leftInTmp()).toEqual([]);
    expect(service.cliRequests().map((q) => q.method)).toEqual(['GET', 'GET']);
    expect(await soulOnService()).toBe(START);
    expect(signals.hangupListeners).toBe(0);
  });

  it('a real hang-up: SIGHUP twice, then SIGTERM: the edit kept, exit 129, the process not ended first', async () => {
    // the process's own signals (not FakeSignals: their rules are the point) on a stand-in process
    // that records what it is told to end by; the shell and the kernel each send SIGHUP
    const proc = Object.assign(new EventEmitter(), { pid: 4242, ended: [] as string[] });
    const kill = (_pid: number, signal: string) => proc.ended.push(signal) > 0;
    const signals = processSignals(Object.assign(proc, { kill }) as unknown as SignalTarget);
    const editor = fakeEditor(async (file, stop) => {
      fs.writeFileSync(file, BOLD);
      for (const signal of ['SIGHUP', 'SIGHUP', 'SIGTERM']) proc.emit(signal);
      expect(stop?.reason).toBe('SIGHUP');
      throw new EditorError("the editor 'fake-editor' was stopped by SIGHUP");
    });
    const r = await cli(['soul', 'edit', 'demo', '--yes'], { editor, world: { signals } });
    expect(proc.ended, 'a signal the process sent itself (its end) before the edit was kept').toEqual([]);
    expect(r.code, r.stderr).toBe(129);
    const file = /your edit is kept in (\S+) /.exec(r.stderr)?.[1];
    expect(file, r.stderr).toMatch(new RegExp(`^${data}/soul-edits/`));
    expect(fs.readFileSync(file!, 'utf8')).toBe(BOLD);
    expect(leftInTmp()).toEqual([]);
  });

  it('after the editor, SIGHUP is no longer taken by soul edit (a listener would undo nohup)', async () => {
    const signals = new FakeSignals();
    const editor = fakeEditor((file) => fs.writeFileSync(file, BOLD));
    const r = await cli(['soul', 'edit', 'demo', '--yes'], { editor, signals });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(signals.hangupListeners).toBe(0);
  });
});

it('SIGTERM at the upload question (the prompt ends with it): kept for the next run too', async () => {
  const editor = fakeEditor((file) => fs.writeFileSync(file, BOLD));
  const r = await cli(['soul', 'edit', 'demo'], { tty: true, editor, answers: [new TerminatedError()] });
  expect(r.code).toBe(143);
  const file = /your edit is kept in (\S+) /.exec(r.stderr)?.[1];
  expect(file, r.stderr).toMatch(new RegExp(`^${data}/soul-edits/`));
  expect(fs.readFileSync(file!, 'utf8')).toBe(BOLD);
  expect(await soulOnService()).toBe(START);
});

describe('the next soul edit of that agent offers to resume the kept edit', () => {
  it('on a terminal, yes: the editor opens the kept edit; once uploaded, the kept edit is gone', async () => {
    const file = await hangUp(BOLD);
    let seen: string | undefined;
    const editor = fakeEditor((f) => {
      seen = fs.readFileSync(f, 'utf8');
      fs.writeFileSync(f, BOLDER);
    });
    const r = await cli(['soul', 'edit', 'demo'], { tty: true, editor, answers: [true, true] });
    expect(r.code, r.stderr).toBe(0);
    const resume = "Resume your edit of demo's soul.md, kept just now? (no: discard it)";
    expect(r.asked).toEqual([resume, 'Upload this soul.md to demo?']);
    expect(r.stderr).toContain(`An edit of demo's soul.md that was not uploaded was kept just now: ${file}\n`);
    expect(seen).toBe(BOLD);
    expect(await soulOnService()).toBe(BOLDER);
    expect(kept().filter((f) => f.includes(demo))).toEqual([]);
    expect(leftInTmp()).toEqual([]);
  });

  it('on a terminal, no: the kept edit is discarded and the editor opens the soul on the service', async () => {
    await hangUp(BOLD);
    let seen: string | undefined;
    const editor = fakeEditor((f) => void (seen = fs.readFileSync(f, 'utf8')));
    const r = await cli(['soul', 'edit', 'demo'], { tty: true, editor, answers: [false] });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Discarded the kept edit.\n');
    expect(seen).toBe(START);
    expect(kept().filter((f) => f.includes(demo))).toEqual([]);
    expect(await soulOnService()).toBe(START);
  });

  it('the soul changed on the service since: said before the question; the diff is against its soul now', async () => {
    await hangUp(BOLD);
    await fixture.setSoul(THEIRS);
    const editor = fakeEditor(() => undefined);
    const r = await cli(['soul', 'edit', 'demo'], { tty: true, editor, answers: [true, true] });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      '! The soul.md of demo changed on the service since that edit began: ' +
        'the diff before the upload is against the one it has now.\n',
    );
    expect(r.stdout).toContain('-Be patient.\n+Be bold.\n');
    expect(await soulOnService()).toBe(BOLD);
  });

  it('hung up again while resumed: kept again, the same edit', async () => {
    await hangUp(BOLD);
    const signals = new FakeSignals();
    const editor = hungUpEditor(signals, BOLDER);
    const r = await cli(['soul', 'edit', 'demo'], { tty: true, editor, signals, answers: [true] });
    expect(r.code, r.stderr).toBe(129);
    const file = /your edit is kept in (\S+) /.exec(r.stderr)![1]!;
    expect(fs.readFileSync(file, 'utf8')).toBe(BOLDER);
    expect(kept().filter((f) => f.endsWith('demo.soul.md'))).toHaveLength(1);
  });

  it(
    'without a terminal: says where the kept edit is and ' + 'edits the soul on the service, the kept edit left',
    async () => {
      const file = await hangUp(BOLD);
      let seen: string | undefined;
      const editor = fakeEditor((f) => void (seen = fs.readFileSync(f, 'utf8')));
      const r = await cli(['soul', 'edit', 'demo'], { editor });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toBe(
        `! An edit of demo's soul.md that was not uploaded is kept in ${file} (kept ${keptTime(file)}; ` +
          `'superagent soul edit demo' on a terminal offers to resume it; ` +
          `to upload it as it is: superagent soul set ${demo} --file ${file})\n`,
      );
      expect(seen).toBe(START);
      expect(fs.readFileSync(file, 'utf8')).toBe(BOLD);
    },
  );

  it('only for that agent, on that service', async () => {
    await hangUp(BOLD);
    const other = (await launchAgent(service, { name: 'other', soul_md: START })).agent_id;
    const editor = fakeEditor(() => undefined);
    const r = await cli(['soul', 'edit', other], { tty: true, editor });
    expect([r.code, r.asked]).toEqual([0, []]);
    // the same agent through another profile: a scope of its own (a profile may stand for another account)
    const config = new MemoryConfig({ profiles: { other: {} } });
    const elsewhere = await cli(['--profile', 'other', 'soul', 'edit', demo], { tty: true, editor, config });
    expect([elsewhere.code, elsewhere.asked]).toEqual([0, []]);
    await service.call('DELETE', `/v1/superagents/${other}`);
  });
});

/** When the kept edit was kept, as the piped message says it (ISO 8601). */
function keptTime(file: string): string {
  const note = path.join(path.dirname(file), '.superagent-kept.json');
  return (JSON.parse(fs.readFileSync(note, 'utf8')) as { kept_at: string }).kept_at;
}

describe('a signal while the edit is being uploaded', () => {
  const hostile = hostileServices();

  /**
   * `soul edit` against a service that takes the upload and holds its answer: `during` runs then
   * (sends a signal); the answer follows only if it returns true. Whatever ends it, the test ends.
   */
  async function uploadInterrupted(during: (signals: FakeSignals) => boolean, o: RunOptions = {}) {
    const signals = new FakeSignals();
    const agent = { agent_id: AGENT_ID, name: 'demo', status: 'running' };
    const one = `/v1/superagents/${AGENT_ID}`;
    const target = await hostile.serve({
      'GET /v1/superagents': { body: { agents: [agent] } },
      [`GET ${one}`]: { body: agent },
      [`GET ${one}/files`]: { body: { agent_id: AGENT_ID, soul_md: START, memory_md: '' } },
      [`PUT ${one}/soul`]: (_req, res) => {
        if (!during(signals)) return;
        const answer = JSON.stringify({ agent_id: AGENT_ID, status: 'running' });
        res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
      },
    });
    const editor = fakeEditor((file) => fs.writeFileSync(file, BOLD));
    const env = { SUPERAGENT_DATA_DIR: data };
    const argv = ['soul', 'edit', 'demo', '--yes', '--timeout', '5'];
    const r = await runLine(target, argv, { editor, signals, env, ...o });
    expect(target.seen).toContain(`PUT ${one}/soul`);
    return { r, signals };
  }

  it.each([
    ['SIGHUP, the terminal gone', (s: FakeSignals) => s.hangup(), 129, 'Hung up'],
    ['Ctrl-C', (s: FakeSignals) => s.interrupt(), 130, 'Interrupted'],
    ['SIGTERM', (s: FakeSignals) => s.terminate(), 143, 'Terminated'],
  ])('%s: the edit kept in the data dir for the next soul edit, which the line says', async (_, send, code, said) => {
    let listened = false;
    const held = (s: FakeSignals) => {
      listened = send(s);
      return false; // the answer never comes: only the signal ends the upload
    };
    const { r, signals } = await uploadInterrupted(held, { tty: true });
    expect(listened, 'soul edit listens for it during the upload').toBe(true);
    expect([r.code, r.stdout.startsWith('--- demo/soul.md')]).toEqual([code, true]);
    const m = new RegExp(
      // (on a terminal, the line the signal cut is ended first)
      `^\\n?${said} during the upload; soul\\.md may have reached the service or not, your edit is kept in (\\S+) ` +
        "\\('superagent soul edit demo' offers to resume it; " +
        'to upload it as it is: superagent soul set \\S+ --file \\1\\)\\n$',
    ).exec(r.stderr);
    expect(m, r.stderr).not.toBeNull();
    expect(m![1]).toMatch(new RegExp(`^${data}/soul-edits/`));
    expect(fs.readFileSync(m![1]!, 'utf8')).toBe(BOLD);
    expect(leftInTmp()).toEqual([]);
    expect([signals.hangupListeners, signals.terminateListeners]).toEqual([0, 0]);
  });

  it('no terminal (nohup): SIGHUP is not taken during the upload, which goes on', async () => {
    let listened: boolean | undefined;
    const { r } = await uploadInterrupted((s) => !(listened = s.hangup()));
    expect(listened).toBe(false);
    expect(r.code, r.stderr).toBe(0);
    expect(leftInTmp()).toEqual([]);
  });
});
