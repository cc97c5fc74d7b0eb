// What the soul tests share: one service with an agent `demo` whose soul.md is put back to `start`
// before each test (and the exchanges cleared), so no test depends on what another one uploaded.
// The `soul edit` tests also give each test its own TMPDIR and data dir (useSoulEdit).
import { afterAll, afterEach, beforeAll, beforeEach, expect, vi } from 'vitest';
import { cliFor, type RunOptions } from './context.js';
import { perTest, stopService } from './service-support.js';
import { launchAgent, startTestService, type TestService } from './service.js';

export interface SoulAgent {
  service: TestService;
  demo: string;
  setSoul(soul: string): Promise<void>;
}

export function useSoulAgent(start: string): SoulAgent {
  const agent = {
    service: undefined as unknown as TestService,
    demo: '',
    async setSoul(soul: string): Promise<void> {
      const r = await agent.service.call('PUT', `/v1/superagents/${agent.demo}/soul`, { body: { soul_md: soul } });
      expect(r.status, r.text).toBe(200);
    },
  };
  beforeAll(async () => {
    agent.service = await startTestService();
    agent.demo = (await launchAgent(agent.service, { name: 'demo', soul_md: start })).agent_id;
  });
  afterAll(async () => {
    await stopService(agent.service);
  });
  beforeEach(async () => {
    await agent.setSoul(start);
    agent.service.exchanges.splice(0);
  });
  return agent;
}

export interface SoulEdit extends SoulAgent {
  /** this test's TMPDIR: the private file the CLI makes for the editor lands here */
  tmp: string;
  /** this test's data dir, where edits not uploaded are kept */
  data: string;
  /** a command on the service, run with this test's data dir */
  cli(argv: string | string[], o?: RunOptions): ReturnType<ReturnType<typeof cliFor>>;
  /** The kept edit of demo that stderr, one line starting `said` (a signal's name), names twice alike. */
  keptIn(stderr: string, said: string): string;
}

/** useSoulAgent, and for each test a TMPDIR of its own (os.tmpdir() reads the process's TMPDIR) and a data dir. */
export function useSoulEdit(start: string): SoulEdit {
  const temp = perTest();
  const base = cliFor(() => edit.service);
  const edit: SoulEdit = Object.assign(useSoulAgent(start), {
    tmp: '',
    data: '',
    cli: (argv: string | string[], o: RunOptions = {}) =>
      base(argv, { ...o, env: { SUPERAGENT_DATA_DIR: edit.data, ...o.env } }),
    keptIn(stderr: string, said: string): string {
      const m = new RegExp(
        `^${said}; soul\\.md not uploaded, your edit is kept in (\\S+) ` +
          "\\('superagent soul edit demo' offers to resume it; " +
          'to upload it as it is: superagent soul set (\\S+) --file (\\S+)\\)\\n$',
      ).exec(stderr);
      expect(m, stderr).not.toBeNull();
      const [, file, id, fileAgain] = m!;
      expect([id, fileAgain]).toEqual([edit.demo, file]);
      const kept = `^${edit.data}/soul-edits/[0-9a-f]{16}/${edit.demo}\\.\\d+\\.[0-9a-f]+/demo\\.soul\\.md$`;
      expect(file).toMatch(new RegExp(kept));
      return file!;
    },
  });
  beforeEach(() => {
    edit.tmp = temp.scratch('superagent-soul-tmp-');
    edit.data = temp.scratch('superagent-soul-data-');
    vi.stubEnv('TMPDIR', edit.tmp);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  return edit;
}
