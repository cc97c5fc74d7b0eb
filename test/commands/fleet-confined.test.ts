// A fleet file reaches no further than its own directory: a soul path must lead (after every link) to
// a regular file in the fleet file's directory or below it, within the soul limit, or plan and apply
// stop with exit 2 at its line and column before any request; export writes only inside its
// directory. The file arrives in a pull request and `plan` runs in CI with the key in its
// environment, so `soul: /proc/self/environ` would print the key and apply would upload it. And as a
// second line of defence a plan never prints a key or a bot token whole, though apply sends the
// soul as written.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LIMITS } from '../../src/contract.js';
import { maskKey } from '../../src/ui/mask.js';
import { cliFor } from '../helpers/context.js';
import { watchedFifo } from '../helpers/fifo-watch.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent, type TestService } from '../helpers/service.js';

const t = perTest();
const SECRET = 'SUPERAGENT_API_KEY=sa_sk_0123456789abcdefghijklmnopqrstuv\n';
const HINT = ' (soul paths are relative to the file)';
const OUTSIDE = "is outside the fleet file's directory";
const MUST = 'a soul must be a file in that directory or below it';

interface Setup {
  svc: TestService;
  cli: ReturnType<typeof cliFor>;
  /** holds secret.txt and the fleet dir, fleet/ */
  root: string;
  fleet: string;
  file: string;
}

/** Agent `a` on the service; a fleet dir beside a secret file; a file naming `soul` for `a`. */
async function setup(soul: (s: Setup) => string): Promise<Setup> {
  const svc = await t.service();
  await launchAgent(svc, { name: 'a', soul_md: '# a\nThe soul on the service.\n' });
  const root = fs.realpathSync(t.scratch('superagent-fleet-confined-'));
  const fleet = path.join(root, 'fleet');
  fs.mkdirSync(path.join(fleet, 'souls'), { recursive: true });
  fs.writeFileSync(path.join(root, 'secret.txt'), SECRET);
  const s = { svc, cli: cliFor(() => svc), root, fleet, file: path.join(fleet, 'superagents.yaml') };
  fs.writeFileSync(s.file, `agents:\n  - name: a\n    soul: ${soul(s)}\n`);
  return s;
}

interface Case {
  what: string;
  soul(s: Setup): string;
  /** makes the files the soul path leads to; a FIFO's watch */
  make?(s: Setup): { opened(): boolean } | void;
  /** what is wrong, after `soul file '<as written>' ` */
  message(s: Setup): string;
  skip?: boolean;
}

const cases: Case[] = [
  {
    what: 'an absolute path outside the directory',
    soul: (s) => path.join(s.root, 'secret.txt'),
    message: () => `${OUTSIDE}: ${MUST}`,
  },
  {
    what: '/proc/self/environ (the environment, key included)',
    soul: () => '/proc/self/environ',
    message: () => `${OUTSIDE}: ${MUST}`,
    skip: !fs.existsSync('/proc/self/environ'),
  },
  { what: 'a relative path out of the directory', soul: () => '../secret.txt', message: () => `${OUTSIDE}: ${MUST}` },
  {
    what: 'a link under souls/ to a file outside',
    soul: () => 'souls/a.md',
    make: (s) => fs.symlinkSync(path.join(s.root, 'secret.txt'), path.join(s.fleet, 'souls/a.md')),
    message: (s) => `${OUTSIDE} (it leads to ${path.join(s.root, 'secret.txt')}): ${MUST}`,
  },
  {
    // "does not exist" here would let a pull request learn whether a path exists on the CI runner
    what: 'a link under souls/ to a path outside that does not exist (said as for one that does)',
    soul: () => 'souls/a.md',
    make: (s) => fs.symlinkSync(path.join(s.root, 'missing.txt'), path.join(s.fleet, 'souls/a.md')),
    message: (s) => `${OUTSIDE} (it leads to ${path.join(s.root, 'missing.txt')}): ${MUST}`,
  },
  {
    what: 'a relative link under souls/ out of the directory, to nothing',
    soul: () => 'souls/a.md',
    make: (s) => fs.symlinkSync('../../missing/x.md', path.join(s.fleet, 'souls/a.md')),
    message: (s) => `${OUTSIDE} (it leads to ${path.join(s.root, 'missing/x.md')}): ${MUST}`,
  },
  {
    what: 'souls/ itself a link to a directory outside',
    soul: () => 'souls/a.md',
    make: (s) => {
      fs.rmdirSync(path.join(s.fleet, 'souls'));
      fs.mkdirSync(path.join(s.root, 'elsewhere'));
      fs.writeFileSync(path.join(s.root, 'elsewhere/a.md'), SECRET);
      fs.symlinkSync(path.join(s.root, 'elsewhere'), path.join(s.fleet, 'souls'));
    },
    message: (s) => `${OUTSIDE} (it leads to ${path.join(s.root, 'elsewhere/a.md')}): ${MUST}`,
  },
  {
    what: 'a FIFO inside the directory (never opened: opening one waits for a writer)',
    soul: () => 'souls/a.md',
    make: (s) => watchedFifo(path.join(s.fleet, 'souls/a.md'), s.root),
    message: () => 'is a FIFO (named pipe), not a regular file',
    skip: process.platform === 'win32',
  },
  { what: 'a directory inside', soul: () => 'souls', message: () => 'is a directory, not a file' },
  {
    what: 'a file over the soul limit',
    soul: () => 'souls/a.md',
    make: (s) => fs.writeFileSync(path.join(s.fleet, 'souls/a.md'), 'a'.repeat(LIMITS.soulBytes + 1)),
    message: () => `is ${LIMITS.soulBytes / 1024 + 1} KiB; a soul may be at most ${LIMITS.soulBytes / 1024} KiB`,
  },
];

describe('a soul path that leads anywhere but a regular file in the fleet dir: exit 2 at its place, no request', () => {
  const runs = cases.flatMap((c) => [
    { ...c, command: 'plan', argv: (file: string) => ['plan', '-f', file] },
    { ...c, command: 'apply', argv: (file: string) => ['apply', '-f', file, '--yes'] },
  ]);

  it.each(runs)('$command: $what', async ({ soul, make, message, argv, skip }) => {
    if (skip) return;
    const s = await setup(soul);
    const fifo = make?.(s);
    s.svc.cliRequests();
    const r = await s.cli(argv(s.file));
    expect([r.code, r.stdout, r.stderr]).toEqual([
      2,
      '',
      `Error: ${s.file}:3:11: soul file '${soul(s)}' ${message(s)}${HINT}\n`,
    ]);
    expect(s.svc.cliRequests()).toEqual([]);
    expect(fifo?.opened() ?? false).toBe(false);
  });

  it(
    'a link inside the directory to a file inside it is ' + 'read, and so is a fleet dir reached through a link',
    async () => {
      const s = await setup(() => 'souls/a.md');
      fs.mkdirSync(path.join(s.fleet, 'shared'));
      fs.writeFileSync(path.join(s.fleet, 'shared/a.md'), '# a\nA soul kept in shared/.\n');
      fs.symlinkSync('../shared/a.md', path.join(s.fleet, 'souls/a.md'));
      fs.symlinkSync(s.fleet, path.join(s.root, 'link'));

      const r = await s.cli(['plan', '-f', path.join(s.root, 'link/superagents.yaml')]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('+A soul kept in shared/.\n');
    },
  );
});

describe('what lies outside the fleet dir makes no difference to the answer', () => {
  // a link through a directory outside and back: were it followed there, the answer would tell a
  // pull request whether that directory exists on the runner; its target is taken as written
  it.each([
    ['exists', true],
    ['does not exist', false],
  ])('a link through %s outside and back in (probe/../fleet/…) reads the file it names inside', async (_, exists) => {
    const s = await setup(() => 'souls/a.md');
    if (exists) fs.mkdirSync(path.join(s.root, 'probe'));
    fs.writeFileSync(path.join(s.fleet, 'souls/b.md'), '# a\nThe soul in b.md.\n');
    fs.symlinkSync(`${s.root}/probe/../fleet/souls/b.md`, path.join(s.fleet, 'souls/a.md'));
    const r = await s.cli(['plan', '-f', s.file]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain('+The soul in b.md.\n');
  });

  it('a dangling link inside that points inside: does not exist', async () => {
    const s = await setup(() => 'souls/a.md');
    fs.symlinkSync('gone.md', path.join(s.fleet, 'souls/a.md'));
    const r = await s.cli(['plan', '-f', s.file]);
    expect([r.code, r.stderr]).toEqual([2, `Error: ${s.file}:3:11: soul file 'souls/a.md' does not exist${HINT}\n`]);
  });
});

describe('a soul file swapped between its check and its read is not read', () => {
  const REPLACED = 'was replaced while it was being read (it is not the file that was checked): run the command again';

  /** `plan`, with `swap` done just before the soul file is opened (as someone racing the check would). */
  async function planSwapped(swap: (s: Setup, file: string) => void) {
    const s = await setup(() => 'souls/a.md');
    const file = path.join(s.fleet, 'souls/a.md');
    fs.writeFileSync(file, '# a\nThe soul that was checked.\n');
    const open = fs.open;
    let swapped = false;
    // the callback form: the soul is opened without waiting (input-file.ts)
    vi.spyOn(fs, 'open').mockImplementation(((at: fs.PathLike, ...rest: unknown[]) => {
      if (!swapped && path.basename(String(at)) === 'a.md') {
        swapped = true;
        swap(s, file);
      }
      return (open as (...args: unknown[]) => void)(at, ...rest);
    }) as typeof fs.open);
    s.svc.cliRequests();
    const r = await s.cli(['plan', '-f', s.file]);
    expect(swapped).toBe(true);
    return { s, r };
  }

  const swaps: Array<[string, (s: Setup, file: string) => void]> = [
    [
      'by a link to a file outside',
      (s, file) => {
        fs.unlinkSync(file);
        fs.symlinkSync(path.join(s.root, 'secret.txt'), file);
      },
    ],
    [
      'by another file (renamed over it)',
      (_, file) => {
        fs.writeFileSync(`${file}.new`, '# a\nSUPERAGENT_API_KEY=swapped in\n');
        fs.renameSync(`${file}.new`, file);
      },
    ],
    [
      'souls/ by a link to a directory outside holding an a.md',
      (s, file) => {
        fs.mkdirSync(path.join(s.root, 'elsewhere'));
        fs.writeFileSync(path.join(s.root, 'elsewhere/a.md'), SECRET);
        fs.renameSync(path.dirname(file), path.join(s.fleet, 'souls.checked'));
        fs.symlinkSync(path.join(s.root, 'elsewhere'), path.dirname(file));
      },
    ],
  ];
  if (process.platform === 'linux') {
    // the very file checked (a hard link to it), but reached outside: only where it lies tells (/proc/self/fd)
    swaps.push([
      'souls/ by a link to a directory outside holding the checked file itself (hard link)',
      (s, file) => {
        fs.mkdirSync(path.join(s.root, 'elsewhere'));
        fs.linkSync(file, path.join(s.root, 'elsewhere/a.md'));
        fs.renameSync(path.dirname(file), path.join(s.fleet, 'souls.checked'));
        fs.symlinkSync(path.join(s.root, 'elsewhere'), path.dirname(file));
      },
    ]);
  }
  if (process.platform !== 'win32') {
    swaps.push([
      'by a FIFO (opened without waiting for a writer, never read)',
      (s, file) => {
        fs.unlinkSync(file);
        watchedFifo(file, s.root);
      },
    ]);
  }

  it.each(swaps)('the file replaced %s: exit 2 at its place, nothing of it shown, no request', async (_, swap) => {
    const { s, r } = await planSwapped(swap);
    const error = `Error: ${s.file}:3:11: soul file 'souls/a.md' ${REPLACED}${HINT}\n`;
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', error]);
    expect(s.svc.cliRequests()).toEqual([]);
  });
});

describe('a plan never shows a key or a bot token whole; apply sends the soul as written', () => {
  const OLD_KEY = 'sa_sk_oldoldoldoldoldoldoldoldold1234';
  const NEW_KEY = 'gb_sk_newnewnewnewnewnewnewnewnew5678';
  const BOT_TOKEN = '7123456789:AAHk3_x-ZyQw9vLmN0pRsTuVwXyZaBcDeFg';
  const SOUL = `# a\nUse ${NEW_KEY} for the hosted service.\nBot: ${BOT_TOKEN}\n`;

  async function fleetWithKeys(): Promise<Setup> {
    const s = await setup(() => 'souls/a.md');
    await s.svc.call(
      'PUT',
      `/v1/superagents/${(await s.svc.call('GET', '/v1/superagents')).json.agents[0].agent_id}/soul`,
      { body: { soul_md: `# a\nUse ${OLD_KEY} for the hosted service.\n` } },
    );
    fs.writeFileSync(path.join(s.fleet, 'souls/a.md'), SOUL);
    fs.writeFileSync(s.file, `agents:\n  - name: a\n    description: "key ${NEW_KEY}"\n    soul: souls/a.md\n`);
    return s;
  }

  function expectMasked(text: string): void {
    for (const secret of [OLD_KEY, NEW_KEY, BOT_TOKEN.split(':')[1]!]) expect(text).not.toContain(secret);
  }

  it(
    'plan: the removed and the added lines of the soul diff, ' + 'and the description, are masked (text and --json)',
    async () => {
      const s = await fleetWithKeys();
      const r = await s.cli(['plan', '-f', s.file]);
      expect(r.code, r.stderr).toBe(0);
      expectMasked(r.stdout);
      expect(r.stdout).toContain(`description: "" → "key ${maskKey(NEW_KEY)}"\n`);
      expect(r.stdout).toContain(`-Use ${maskKey(OLD_KEY)} for the hosted service.\n`);
      expect(r.stdout).toContain(`+Use ${maskKey(NEW_KEY)} for the hosted service.\n`);
      expect(r.stdout).toContain('+Bot: 7123456789:…\n');

      const json = await s.cli(['plan', '-f', s.file, '--json']);
      expect(json.code, json.stderr).toBe(0);
      expectMasked(json.stdout);
      const changes = JSON.parse(json.stdout).agents[0].changes;
      expect(changes.find((c: { field: string }) => c.field === 'description').to).toBe(`key ${maskKey(NEW_KEY)}`);
      expect(changes.find((c: { field: string }) => c.field === 'soul').diff).toContain(
        `-Use ${maskKey(OLD_KEY)} for the hosted service.\n+Use ` +
          `${maskKey(NEW_KEY)} for the hosted service.\n+Bot: 7123456789:…\n`,
      );
    },
  );

  it('apply: the plan it shows is masked, and the service gets the soul and description as written', async () => {
    const s = await fleetWithKeys();
    const r = await s.cli(['apply', '-f', s.file, '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expectMasked(r.stdout + r.stderr);
    expect(r.stdout).toContain(`+Use ${maskKey(NEW_KEY)} for the hosted service.\n`);
    const id = (await s.svc.call('GET', '/v1/superagents')).json.agents[0].agent_id;
    expect((await s.svc.call('GET', `/v1/superagents/${id}/files`)).json.soul_md).toBe(SOUL);
    expect((await s.svc.call('GET', `/v1/superagents/${id}`)).json.description).toBe(`key ${NEW_KEY}`);
  });
});

describe('export writes only inside its directory', () => {
  /** Every file under `dir`, relative to it, links shown as links. */
  function tree(dir: string): string[] {
    return fs
      .readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => !e.isDirectory())
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
      .sort();
  }

  it(
    'agents named as paths (../../x, /etc/x, souls/../../y, ' + '..) get soul files under souls/ of the directory',
    async () => {
      const svc = await t.service();
      for (const name of ['../../escape', '/etc/passwd', 'souls/../../y', '..']) await launchAgent(svc, { name });
      const root = t.scratch('superagent-fleet-export-');
      const dir = path.join(root, 'a', 'b', 'fleet');
      fs.mkdirSync(dir, { recursive: true });

      const r = await cliFor(() => svc)(['export', '--dir', dir]);
      expect(r.code, r.stderr).toBe(0);
      expect(tree(root).every((f) => f.startsWith(path.join('a', 'b', 'fleet') + path.sep))).toBe(true);
      expect(tree(dir).filter((f) => f.startsWith(`souls${path.sep}`))).toHaveLength(4);
    },
  );

  it(
    'souls/ a link to a directory outside, or superagents.yaml a ' + 'link to a file outside: exit 2, nothing written',
    async () => {
      const svc = await t.service();
      await launchAgent(svc, { name: 'alpha', soul_md: '# alpha\nRules.\n' });
      const cli = cliFor(() => svc);
      const root = fs.realpathSync(t.scratch('superagent-fleet-export-'));
      const dir = path.join(root, 'fleet');
      const outside = path.join(root, 'outside');
      fs.mkdirSync(dir);
      fs.mkdirSync(outside);
      fs.symlinkSync(outside, path.join(dir, 'souls'));

      const r = await cli(['export', '--dir', dir, '--yes']);
      expect([r.code, r.stderr]).toEqual([
        2,
        `Error: cannot write ${path.join(dir, 'souls/alpha.md')}: it leads ` +
          `to ${path.join(outside, 'alpha.md')}, outside ${dir} (export ` +
          `writes only inside the directory it is given)\n`,
      ]);
      expect([tree(outside), tree(dir)]).toEqual([[], ['souls']]);

      fs.unlinkSync(path.join(dir, 'souls'));
      fs.writeFileSync(path.join(outside, 'profile.sh'), 'echo hi\n');
      fs.symlinkSync(path.join(outside, 'profile.sh'), path.join(dir, 'superagents.yaml'));
      const again = await cli(['export', '--dir', dir, '--yes']);
      expect([again.code, again.stderr]).toEqual([
        2,
        `Error: cannot write ${path.join(dir, 'superagents.yaml')}: it leads ` +
          `to ${path.join(outside, 'profile.sh')}, outside ${dir} (export ` +
          `writes only inside the directory it is given)\n`,
      ]);
      expect(fs.readFileSync(path.join(outside, 'profile.sh'), 'utf8')).toBe('echo hi\n');
      expect(tree(dir)).toEqual(['superagents.yaml']);
    },
  );

  it.skipIf(process.platform === 'win32')(
    'a FIFO where a soul file goes is replaced, never opened (opening one waits for a writer)',
    async () => {
      const svc = await t.service();
      await launchAgent(svc, { name: 'alpha', soul_md: '# alpha\nRules.\n' });
      const dir = t.scratch('superagent-fleet-export-');
      fs.mkdirSync(path.join(dir, 'souls'));
      const fifo = watchedFifo(path.join(dir, 'souls/alpha.md'), t.scratch());

      const r = await cliFor(() => svc)(['export', '--dir', dir, '--yes']);
      expect(r.code, r.stderr).toBe(0);
      expect(fifo.opened()).toBe(false);
      expect(fs.readFileSync(path.join(dir, 'souls/alpha.md'), 'utf8')).toBe('# alpha\nRules.\n');
    },
  );
});
