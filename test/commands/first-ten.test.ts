// A new user's first ten minutes on a fresh clone and home: narrow terminals, piped rows, fleet
// tokens from the environment, what `get` shows after `launch`, the assistant's unknown fields.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StartSpinner } from '../../src/cli/context.js';
import { cliFor, runLine } from '../helpers/context.js';
import { HOSTED_AGENT, startHostedMock } from '../helpers/hosted-mock.js';
import { eachWithDemo } from '../helpers/demo-agent.js';
import { perTest } from '../helpers/service-support.js';
import type { TestService } from '../helpers/service.js';

let service: TestService;
let demo: string;
const scratch = perTest();
const cli = cliFor(() => service);

eachWithDemo(scratch, (s, id) => ((service = s), (demo = id)));

describe('narrow terminals leave columns out, never wrap them', () => {
  const heads = async (words: string, columns: number) => {
    const r = await cli(words, { tty: { stdout: true, stderr: true, columns } });
    expect(r.code).toBe(0);
    const all = r.stdout.trimEnd().split('\n');
    for (const line of all) expect(line.length).toBeLessThan(columns);
    // the table, then a note naming what it left out
    const note = all.findIndex((l) => l.startsWith('left out for width:'));
    expect(note).toBeGreaterThan(0);
    const lines = all.slice(0, note);
    // no cell of its own on a line (a wrapped `…` or half a header)
    for (const line of lines.slice(1)) expect(line.split(/\s{2,}/).length).toBe(lines[0]!.split(/\s{2,}/).length);
    return lines[0]!.split(/\s+/);
  };

  it('list: CREATED goes first, then the model, then the status; the id is never left out', async () => {
    expect(await heads('list', 40)).toEqual(['NAME', 'ID', 'STATUS', 'MODEL']);
    expect(await heads('list', 30)).toEqual(['NAME', 'ID', 'STATUS']);
    expect(await heads('list', 20)).toEqual(['NAME', 'ID']);
  });

  it('skills: the description goes; at 30 columns a long name is cut with …', async () => {
    expect(await heads('skills demo', 40)).toEqual(['NAME', 'ENABLED']);
    expect(await heads('skills demo', 30)).toEqual(['NAME', 'ENABLED']);
  });
});

describe('--help on a narrow terminal wraps to it, on words', () => {
  it.each([40, 30])('at %i columns no line is wider, so the terminal breaks no word', async (columns) => {
    for (const words of ['skills enable --help', 'launch --help', 'chat --help', '--help']) {
      const r = await cli(words, { tty: { stdout: true, stderr: true, columns } });
      expect(r.code).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      const wide = lines.filter((line) => line.length > columns);
      expect(wide, `${words} at ${columns}`).toEqual([]);
      // every word of the usage line and of each option is still there, whole
      expect(r.stdout.replace(/\s+/g, ' ')).toMatch(/Usage: superagent \S/);
    }
  });

  it('at 30 columns, the usage and an option keep their words whole', async () => {
    const r = await cli('skills enable --help', { tty: { stdout: true, stderr: true, columns: 30 } });
    const text = r.stdout.replace(/\s+/g, ' ');
    expect(text).toContain('Usage: superagent skills enable <agent> <skill...> [options]');
    expect(text).toContain('--json machine output: the API JSON on stdout, nothing else there');
  });
});

describe('one piped row shape per command, no trailing tab', () => {
  it('pause, resume and restart: id, name, status now, done; the name empty when given by uuid', async () => {
    const rows = [];
    for (const words of [
      ['pause', demo],
      ['resume', demo.slice(0, 6)],
      ['pause', 'demo'],
      ['restart', demo],
    ]) {
      const r = await cli(words);
      expect([r.code, r.stderr]).toEqual([0, '']);
      rows.push(r.stdout);
    }
    expect(rows).toEqual([
      // a uuid costs no request: the name is not known, and left empty
      `${demo}\t\tpaused\tdone\n`,
      `${demo}\tdemo\trunning\tdone\n`,
      `${demo}\tdemo\tpaused\tdone\n`,
      `${demo}\t\trunning\tdone\n`,
    ]);
  });

  it('model: the model id alone, no empty provider after a tab', async () => {
    expect(await cli('model demo')).toEqual({ code: 0, stdout: 'gpt-4o\n', stderr: '', asked: [] });
  });
});

describe("the waiting spinner counts the command's whole wait", () => {
  afterEach(() => vi.useRealTimers());

  it('each request after the first counts on from the waits before it, not from zero', async () => {
    // only Date is faked: every wait for the service takes one second, and nothing else takes any time
    vi.useFakeTimers({ toFake: ['Date'] });
    const starts: number[] = [];
    const spinner: StartSpinner = (label, o) => {
      if (label === 'Waiting for the service…') starts.push(o.startedAt!);
      return { stop: () => vi.setSystemTime(Date.now() + 1000) };
    };
    const first = Date.now();
    // a name costs the list, then the pause, then the wallet (what the paused agent left open): three waits
    const r = await cli('pause demo', { tty: { stderr: true }, world: { spinner } });
    expect(r.code, r.stderr).toBe(0);
    expect(starts).toEqual([first, first, first]);
  });
});

describe('get leaves out what its answer never carries', () => {
  it('right after launch: no `Bot: –` nor `Wallet: –`; the wallet row says where the addresses are', async () => {
    const tty = await cli('get demo', { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stdout).not.toContain('–');
    expect(tty.stdout).not.toMatch(/^Bot:/m);
    expect(tty.stdout).toMatch(/^Wallet: +superagent wallet demo$/m);
    const piped = await cli('get demo');
    const keys = piped.stdout.split('\n').map((l) => l.split('\t')[0]);
    expect(keys).toEqual(['name', 'id', 'status', 'model', 'created', '']);
  });
});

describe('the simulated assistant says null for a field it cannot know', () => {
  it('assistant ask --fields price,foo: a price, and foo null (never "foo for ETH")', async () => {
    const r = await cli(['assistant', 'ask', 'ETH?', '--fields', 'price,foo']);
    expect(r.code, r.stderr).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(Object.keys(answer)).toEqual(['price', 'foo']);
    expect(typeof answer.price).toBe('number');
    expect(answer.foo).toBeNull();
  });
});

describe('completion offers agent names, an id only where a name is ambiguous', () => {
  it('one value per agent: its name, or its id when another agent has the same name', async () => {
    const agent = (n: number, name: string) => ({
      ...HOSTED_AGENT,
      agent_id: n + HOSTED_AGENT.agent_id.slice(1),
      name,
    });
    const agents = [agent(1, 'demo'), agent(2, 'Twin'), agent(3, 'twin')];
    const mock = await startHostedMock((req) => (req.path === '/v1/superagents' ? { json: { agents } } : undefined));
    scratch.closeAfter(mock);
    const target = { url: mock.url, key: 'sa_sk_completion_test_key_0001' };
    const r = await runLine(target, ['__complete', 'agents'], { env: { SUPERAGENT_COMPLETION_BUDGET_MS: '10000' } });
    expect(r.code).toBe(0);
    const values = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t')[0]);
    expect(values).toEqual(['demo', ...agents.slice(1).map((a) => a.agent_id)]);
  });
});

describe('completion offers the skills a command can act on', () => {
  it('skills AGENT off: the disabled ones (for enable); on: the enabled ones (for disable); alone: all', async () => {
    const ask = async (...words: string[]) => {
      const r = await cli(['__complete', 'skills', 'demo', ...words]);
      expect(r.code).toBe(0);
      return r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split('\t'));
    };
    const all = await ask();
    const on = all.filter(([, d]) => d!.startsWith('on:')).map(([v]) => v);
    const off = all.filter(([, d]) => d!.startsWith('off:')).map(([v]) => v);
    expect([on.length > 0, off.length > 0]).toEqual([true, true]);
    expect((await ask('off')).map(([v]) => v)).toEqual(off);
    expect((await ask('on')).map(([v]) => v)).toEqual(on);
  });
});

describe('piped input to the assistant, as to chat', () => {
  const questions = () =>
    service
      .cliRequests()
      .filter((r) => r.method === 'POST' && r.path === '/v1/chat')
      .map((r) => r.body as { message: string; session_id?: string });

  it('echo q | superagent assistant: each line a question of one conversation, answered on stdout', async () => {
    const r = await cli('assistant', { input: 'What is moving SOL?\nAnd ETH?\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('SOL');
    const sent = questions();
    expect(sent.map((q) => q.message)).toEqual(['What is moving SOL?', 'And ETH?']);
    expect(sent[1]!.session_id).toEqual(expect.any(String));
    // chat takes a piped message too (a one-line pipe is one turn either way)
    expect((await cli('chat demo', { input: 'q\n' })).code).toBe(0);
  });
});
