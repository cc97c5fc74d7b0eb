// A new user's first ten minutes: names (no two live agents of one name, exit 6), what a name costs
// (one request), and argument handling (unknown flags, typos and extra words answered in one line in
// our voice, exit 2 before any request).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/context.js';
import { eachWithDemo } from '../helpers/demo-agent.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent, type TestService } from '../helpers/service.js';

let service: TestService;
let demo: string;
const scratch = perTest();
const cli = cliFor(() => service);

eachWithDemo(scratch, (s, id) => ((service = s), (demo = id)));

const requests = () => service.cliRequests().map((r) => `${r.method} ${r.path}`);
const LIST = 'GET /v1/superagents';
const taken = (id: string, hint = 'choose another name, or pass --allow-duplicate-name') =>
  `Error: an agent named 'demo' already exists: ${id} (${hint})\n`;

async function names(): Promise<string[]> {
  return ((await service.call('GET', '/v1/superagents')).json.agents as Array<{ name: string }>)
    .map((a) => a.name)
    .sort();
}

describe('a name a live agent has is refused', () => {
  it.each([['demo'], ['DEMO'], ['  demo ']])(
    'launch --name %j: exit 6 naming the live agent, nothing sent but the list',
    async (name) => {
      const r = await cli(['launch', '--name', name]);
      expect(r).toEqual({ code: 6, stdout: '', stderr: taken(demo), asked: [] });
      expect(requests()).toEqual([LIST]);
      expect(await names()).toEqual(['demo']);
    },
  );

  it('on a terminal too, before any question', async () => {
    const r = await cli(['launch', '--name', 'demo'], { tty: true });
    expect(r).toEqual({ code: 6, stdout: '', stderr: taken(demo), asked: [] });
    expect(requests()).toEqual([LIST]);
  });

  it(
    'launch --allow-duplicate-name skips the check, and ' + 'the embedded service refuses a second demo: exit 6',
    async () => {
      const r = await cli(['launch', '--name', 'demo', '--allow-duplicate-name']);
      expect([r.code, r.stderr]).toEqual([6, taken(demo, 'choose another name')]);
      expect(await names()).toEqual(['demo']);
    },
  );

  it('update X --name demo: exit 6 naming the live agent; X keeps its name', async () => {
    const scout = (await launchAgent(service, { name: 'scout' })).agent_id;
    service.cliRequests();
    const r = await cli(['update', 'scout', '--name', 'Demo']);
    expect(r).toEqual({ code: 6, stdout: '', stderr: taken(demo), asked: [] });
    expect(requests()).toEqual([LIST]);
    expect((await service.call('GET', `/v1/superagents/${scout}`)).json.name).toBe('scout');
  });

  it(
    'update X --name demo --allow-duplicate-name skips the check, ' +
      'and the embedded service refuses: exit 6 naming demo',
    async () => {
      const scout = (await launchAgent(service, { name: 'scout' })).agent_id;
      const r = await cli(['update', scout, '--name', 'demo', '--allow-duplicate-name']);
      expect(r).toEqual({ code: 6, stdout: '', stderr: taken(demo, 'choose another name'), asked: [] });
      expect(await names()).toEqual(['demo', 'scout']);
    },
  );

  it('an agent may be renamed to its own name in other letters (it is not a duplicate of itself)', async () => {
    const r = await cli(['update', 'demo', '--name', 'Demo']);
    expect(r).toEqual({ code: 0, stdout: `${demo}\n`, stderr: '', asked: [] });
    expect(await names()).toEqual(['Demo']);
  });

  it("a destroyed agent's name is free again", async () => {
    expect((await cli(['destroy', 'demo', '--yes'])).code).toBe(0);
    const r = await cli(['launch', '--name', 'demo']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const again = await cli(['update', r.stdout.trim(), '--name', 'demo']);
    expect(again.code, again.stderr).toBe(0);
    expect(await names()).toEqual(['demo']);
    // and the README's next line works: `demo` names one agent
    const got = await cli(['get', 'demo', '--json']);
    expect(JSON.parse(got.stdout).agent_id).toBe(r.stdout.trim());
  });
});

describe('a name costs one request', () => {
  it('get NAME reads the list only, and shows the record the list gave', async () => {
    const r = await cli(['get', 'demo', '--json']);
    expect(r.code).toBe(0);
    expect(requests()).toEqual([LIST]);
    expect(JSON.parse(r.stdout)).toEqual((await service.call('GET', `/v1/superagents/${demo}`)).json);
  });

  it('an id prefix also costs one list; a uuid one GET', async () => {
    expect((await cli(['get', demo.slice(0, 6)])).code).toBe(0);
    expect(requests()).toEqual([LIST]);
    expect((await cli(['get', demo])).code).toBe(0);
    expect(requests()).toEqual([`GET /v1/superagents/${demo}`]);
  });
});

describe('argument handling', () => {
  it('an unknown global flag is exit 2 in one line, pointing at --help; nothing runs', async () => {
    const r = await cli(['--foo']);
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr: "Error: unknown option '--foo' (see 'superagent --help')\n",
      asked: [],
    });
  });

  it.each([
    [['--jsn', 'list'], "Error: unknown option '--jsn' (did you mean '--json'?)\n"],
    [['list', '--jsn'], "Error: unknown option '--jsn' (did you mean '--json'?)\n"],
    [['lsit'], "Error: unknown command 'lsit' (did you mean 'list'?)\n"],
    [['config', 'sett'], "Error: unknown command 'config sett' (did you mean 'config set'?)\n"],
    [['soul', 'shwo', 'demo'], "Error: unknown command 'soul shwo' (did you mean 'soul show'?)\n"],
  ])('a typo in %j is exit 2 with the suggestion on the same line', async (argv, line) => {
    const r = await cli(argv);
    expect(r).toEqual({ code: 2, stdout: '', stderr: line, asked: [] });
    expect(requests()).toEqual([]);
  });

  it('a skill name typo: exit 2 with the suggestion in one line, nothing changed', async () => {
    const r = await cli(['skills', 'enable', 'demo', 'hyperliqud']);
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toMatch(/^Error: unknown skill 'hyperliqud' for demo \(did you mean 'hyperliquid'\?[^\n]*\)\n$/);
    expect(requests().filter((q) => !q.startsWith('GET '))).toEqual([]);
  });

  it('an agent name typo: exit 4 with the suggestion in one line', async () => {
    const r = await cli(['get', 'dem']);
    expect(r).toEqual({
      code: 4,
      stdout: '',
      stderr: "Error: no agent matches 'dem' (did you mean 'demo'?)\n",
      asked: [],
    });
  });

  it.each([
    [
      ['destroy', 'demo', 'extra'],
      "Error: too many arguments: 'extra' (usage: superagent destroy <agent> [options])\n",
    ],
    [['get', 'demo', 'a', 'b'], "Error: too many arguments: 'a' 'b' (usage: superagent get <agent> [options])\n"],
  ])('too many arguments, %j: our words and the usage line, exit 2, nothing sent', async (argv, line) => {
    const r = await cli(argv);
    expect(r).toEqual({ code: 2, stdout: '', stderr: line, asked: [] });
    expect(requests()).toEqual([]);
    expect(await names()).toEqual(['demo']);
  });

  it.each([[['get', '']], [['get', '  ']], [['destroy', '', '--yes']]])(
    'an empty agent %j is exit 2, not a search',
    async (argv) => {
      const r = await cli(argv);
      expect(r).toEqual({
        code: 2,
        stdout: '',
        stderr: 'Error: the agent is empty (give its name, its id or an id prefix of 4+ characters)\n',
        asked: [],
      });
      expect(requests()).toEqual([]);
    },
  );

  it.each([['nope'], [randomUUID()]])('chat demo x --session %s: exit 4, no such session', async (session) => {
    const r = await cli(['chat', 'demo', 'x', '--session', session]);
    expect(r).toEqual({
      code: 4,
      stdout: '',
      stderr: `Error: session ${session} not found (leave out --session to start a new conversation)\n`,
      asked: [],
    });
  });
});
