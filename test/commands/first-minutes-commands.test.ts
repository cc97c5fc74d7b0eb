// A new user's first ten minutes: commands that stopped short (health --watch on a destroyed agent,
// resume --all, chat --continue, what memory.md keeps, 'already paused', the agent limit before the
// questions) and small ones (config path --json, the provider hint on the embedded service, classic
// update by id prefix, get's long description wrapped on words).
import { beforeEach, describe, expect, it } from 'vitest';
import { accountId, hashKey } from '../../src/server/auth.js';
import { Store } from '../../src/server/index.js';
import { FakeClock, MemoryConfig, cliFor, runLine } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent, type TestService } from '../helpers/service.js';
import type { Exchange } from '../../src/server/index.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let service: TestService;
let demo: string;
const scratch = perTest();
const cli = cliFor(() => service);

async function useService(options: Parameters<typeof scratch.service>[0] = {}): Promise<void> {
  service = await scratch.service(options);
  demo = (await launchAgent(service, { name: 'demo' })).agent_id;
  service.cliRequests();
}

const status = async (id: string) => (await service.call('GET', `/v1/superagents/${id}`)).json.status;

describe('health --watch', () => {
  beforeEach(() => useService());

  /** A clock whose first wait is when the agent is destroyed elsewhere. */
  class DestroyedMeanwhile extends FakeClock {
    override async sleep(ms: number, signal?: AbortSignal): Promise<void> {
      if (this.slept.length === 0) expect((await service.call('DELETE', `/v1/superagents/${demo}`)).status).toBe(200);
      return super.sleep(ms, signal);
    }
  }

  it(
    'an agent destroyed while it is watched ends the watch: ' + 'exit 4 after the failed check, no more waits',
    async () => {
      const clock = new DestroyedMeanwhile();
      const r = await cli(['health', 'demo', '--watch', '1', '--count', '5'], { clock });
      const lines = r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split('\t'));
      for (const [at] of lines) expect(at).toMatch(ISO);
      expect(lines.map(([, ...rest]) => rest)).toEqual([['healthy'], ['error', 'Agent not found']]);
      expect(clock.slept).toEqual([1000]);
      expect([r.code, r.stderr]).toEqual([4, 'Error: Agent not found\n']);
    },
  );
});

describe('pause and resume', () => {
  beforeEach(() => useService());

  it("pause on a paused agent: '✗ demo: already paused' with the way back, exit 6", async () => {
    expect((await cli(['pause', 'demo'])).code).toBe(0);
    const r = await cli(['pause', 'demo']);
    expect(r).toEqual({
      code: 6,
      stdout: '',
      stderr: "✗ demo: already paused ('superagent resume demo' runs it again)\n",
      asked: [],
    });
  });

  it('resume --all: one line per agent, the running one counted as done, exit 0', async () => {
    const a = (await launchAgent(service, { name: 'alpha' })).agent_id;
    const b = (await launchAgent(service, { name: 'beta' })).agent_id;
    for (const id of [a, b]) await service.call('POST', `/v1/superagents/${id}/pause`);
    const r = await cli(['resume', '--all']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    // newest first, as the list gives them
    expect(r.stdout).toBe(
      [`${b}\tbeta\trunning\tdone`, `${a}\talpha\trunning\tdone`, `${demo}\tdemo\trunning\talready`].join('\n') + '\n',
    );
    for (const id of [a, b, demo]) expect(await status(id)).toBe('running');
    const tty = await cli(['resume', '--all'], { tty: true });
    expect(tty.stdout.trimEnd().split('\n')).toEqual([
      `✓ beta already running (${b.slice(0, 8)})`,
      `✓ alpha already running (${a.slice(0, 8)})`,
      `✓ demo already running (${demo.slice(0, 8)})`,
    ]);
  });

  it('resume --all with one agent failing: the others resumed, one line for the failure, non-zero', async () => {
    // the agent `gone` is destroyed by another process right after the CLI listed the agents
    let gone = '';
    let removed = false;
    const onExchange = (e: Exchange) => {
      if (removed || e.method !== 'GET' || e.path !== '/v1/superagents' || !e.userAgent?.startsWith('superagent/'))
        return;
      removed = true;
      new Store(service.dataDir).open().agents.removeNow(accountId(hashKey(service.key)), gone);
    };
    await useService({ onExchange });
    gone = (await launchAgent(service, { name: 'gone' })).agent_id;
    const kept = (await launchAgent(service, { name: 'kept' })).agent_id;
    for (const id of [demo, gone, kept]) await service.call('POST', `/v1/superagents/${id}/pause`);
    const r = await cli(['resume', '--all']);
    expect(r.code).toBe(4);
    expect(r.stdout).toBe([`${kept}\tkept\trunning\tdone`, `${demo}\tdemo\trunning\tdone`].join('\n') + '\n');
    expect(r.stderr).toBe('✗ gone: Agent not found\n');
    expect(await status(kept)).toBe('running');
  });

  it('resume needs agents or --all, not both and not neither', async () => {
    expect(await cli(['resume'])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'Error: name at least one agent to resume (or --all for every agent not running)\n',
      asked: [],
    });
    expect((await cli(['resume', 'demo', '--all'])).code).toBe(2);
    expect(service.cliRequests()).toEqual([]);
  });
});

describe('chat --continue', () => {
  let dataDir: string;
  const chat = (args: string[], config = new MemoryConfig()) =>
    cli(['chat', 'demo', ...args], { env: { SUPERAGENT_DATA_DIR: dataDir }, config });
  /** the session_id each chat request asked for */
  const askedSessions = () =>
    service
      .cliRequests()
      .filter((q) => q.method === 'POST' && q.path.endsWith('/chat'))
      .map((q) => q.body.session_id ?? null);
  const sessionOf = (stderr: string) => /^Session: (\S+)$/m.exec(stderr)![1]!;

  beforeEach(async () => {
    await useService();
    dataDir = scratch.scratch('superagent-data-');
  });

  it('-c continues the last conversation with that agent; a chat without it starts a new one', async () => {
    const first = await chat(['hello']);
    expect(first.code, first.stderr).toBe(0);
    const session = sessionOf(first.stderr);
    const again = await chat(['-c', 'and ETH?']);
    expect(again.code, again.stderr).toBe(0);
    expect(sessionOf(again.stderr)).toBe(session);
    const fresh = await chat(['something else']);
    expect(sessionOf(fresh.stderr)).not.toBe(session);
    const latest = await chat(['--continue', 'go on']);
    expect(sessionOf(latest.stderr)).toBe(sessionOf(fresh.stderr));
    expect(askedSessions()).toEqual([null, session, null, sessionOf(fresh.stderr)]);
  });

  it('the last conversation is kept per profile: another profile has none to continue', async () => {
    const config = new MemoryConfig({ profiles: { default: {}, other: {} } });
    expect((await chat(['hello'], config)).code).toBe(0);
    service.cliRequests();
    const r = await cli(['chat', 'demo', '-c', 'hi', '--profile', 'other'], {
      env: { SUPERAGENT_DATA_DIR: dataDir },
      config,
      tty: { stderr: true },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('No earlier conversation with demo here: starting one.');
    expect(askedSessions()).toEqual([null]);
  });

  it.each([[['-c', '--new', 'hi']], [['-c', '--session', '3f0c5d4e-1111-4111-8111-111111111111', 'hi']]])(
    '%j is refused before any request',
    async (args) => {
      expect(await chat(args)).toEqual({
        code: 2,
        stdout: '',
        stderr: 'Error: give one of --session, --continue and --new\n',
        asked: [],
      });
      expect(service.cliRequests()).toEqual([]);
    },
  );
});

describe('memory.md keeps what matters, not every chat session', () => {
  beforeEach(() => useService());

  it('launch, three chats and a "remember": two lines, the launch and what to remember', async () => {
    const id = (await cli(['launch', '--name', 'scout'])).stdout.trim();
    for (const message of ['hello', 'what about BTC?', 'and ETH?'])
      expect((await cli(['chat', 'scout', message])).code).toBe(0);
    expect((await cli(['chat', 'scout', 'remember: I prefer low leverage'])).code).toBe(0);
    expect((await cli(['chat', 'scout', 'thanks'])).code).toBe(0);
    const memory: string = (await service.call('GET', `/v1/superagents/${id}/files`)).json.memory_md;
    const notes = memory.split('\n').filter((l) => l.startsWith('- '));
    expect(notes, memory).toHaveLength(2);
    expect(notes[0]).toMatch(/^- \d{4}-\d{2}-\d{2}: launched on /);
    expect(notes[1]).toMatch(/^- \d{4}-\d{2}-\d{2}: .*low leverage/);
    expect(memory).not.toMatch(/session/i);
  });
});

describe('the agent limit is checked before any question', () => {
  beforeEach(() => useService());

  it('the 11th launch on a terminal fails at once: nothing asked, the limit and "destroy one first"', async () => {
    for (let i = 1; i < 10; i++) await launchAgent(service, { name: `agent-${i}` });
    service.cliRequests();
    const r = await cli(['launch'], { tty: true });
    expect(r.asked).toEqual([]);
    expect(r).toEqual({
      code: 6,
      stdout: '',
      stderr:
        'Error: Agent limit reached (10): this account has 10 live agents (free a ' +
        "slot: superagent destroy <agent> ('superagent list' shows them))\n",
      asked: [],
    });
    expect(service.cliRequests().map((q) => `${q.method} ${q.path}`)).toEqual(['GET /v1/superagents']);
  });
});

describe('small things a new user meets', () => {
  it('config path --json prints an object naming the path', async () => {
    const config = new MemoryConfig();
    const r = await runLine(undefined, ['config', 'path', '--json'], { config });
    expect(r).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ path: config.path }, null, 2)}\n`,
      stderr: '',
      asked: [],
    });
  });

  it('assistant ask --model gpt-4o on the embedded service names server --connect-provider', async () => {
    const env = { SUPERAGENT_DATA_DIR: scratch.scratch('superagent-data-') };
    const r = await runLine(undefined, ['assistant', 'ask', '--model', 'gpt-4o', 'hello'], { env });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "Error: No API key connected for provider 'openai', which --model gpt-4o needs (start " +
        'the embedded service with one: superagent server --connect-provider openai)\n',
      asked: [],
    });
  });

  it('classic update takes an id prefix, in one list call', async () => {
    await useService();
    const created = await service.call('POST', '/v1/agents', {
      body: { name: 'Whale Watcher', goal: 'Spot large wallet moves', instructions: 'Alert on big transfers.' },
    });
    expect(created.status, created.text).toBe(201);
    const id: string = created.json.agent_id;
    service.cliRequests();
    const r = await cli(['classic', 'update', id.slice(0, 8), '--description', 'whales only']);
    expect(r.code, r.stderr).toBe(0);
    expect(service.cliRequests().map((q) => `${q.method} ${q.path}`)).toEqual([
      'GET /v1/agents',
      `PATCH /v1/agents/${id}`,
    ]);
    expect((await service.call('GET', `/v1/agents/${id}`)).json.description).toBe('whales only');
  });

  it('get wraps a long description on words, with a hanging indent, at 80 columns', async () => {
    await useService();
    const description =
      'A patient swing trader for BTC and ETH that waits for confirmed breakouts above weekly ' +
      'resistance, sizes positions at one percent of equity, and never uses leverage above 3x.';
    const id = (await launchAgent(service, { name: 'wordy', description })).agent_id;
    const r = await cli(['get', 'wordy'], { tty: { stdout: true, columns: 80 } });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect([...line].length, line).toBeLessThan(80);
    const at = lines.findIndex((l) => l.startsWith('Description:'));
    const indent = /^Description:\s+/.exec(lines[at]!)![0].length;
    const rest = lines.slice(at + 1).findIndex((l) => !l.startsWith(' '.repeat(indent)));
    const block = lines.slice(at, at + 1 + rest);
    expect(block.length).toBeGreaterThan(1);
    for (const l of block.slice(1)) expect(l).toMatch(new RegExp(`^ {${indent}}\\S`));
    // cut only between words: the pieces put back together are the description
    expect(block.map((l) => l.slice(indent)).join(' ')).toBe(description);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^ID:\\s+${id}$`)));
  });
});
