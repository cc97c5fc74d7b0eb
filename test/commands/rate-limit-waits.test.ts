// Waiting on 429s, per command: a command waits 60 s at most in all (less with a shorter --timeout),
// says so before it waits, and past that fails at once (exit 5) with the service's real Retry-After.
// The kill switch (`pause --all`) sends every pause before any other request, and the pauses a 429
// refused wait once together, not one after the other. Against a hosted stand-in on loopback; the
// waits go to the fake clock (no real time passes).
import { describe, expect, it } from 'vitest';
import { FakeClock, runLine, type RunOptions } from '../helpers/context.js';
import { startHostedMock, type Route } from '../helpers/hosted-mock.js';
import { perTest } from '../helpers/service-support.js';

const KEY = 'gb_sk_live_ratelimit0123456789';
const temp = perTest();

const AGENTS = Array.from({ length: 10 }, (_, i) => ({
  agent_id: `a1b2c3d4-5678-90ab-cdef-${String(i).padStart(12, '0')}`,
  name: `agent-${i}`,
  status: 'running',
}));
const ID = AGENTS.map((a) => a.agent_id);

const limited = (secs: number) => ({
  status: 429,
  json: { statusCode: 429, message: 'Rate limit exceeded', retryAfter: secs },
  headers: { 'retry-after': String(secs) },
});
const paused = (p: string) => ({ json: { agent_id: p.split('/')[3], status: 'paused' } });
const PAUSE = /^\/v1\/superagents\/([^/]+)\/pause$/;

/** A hosted stand-in with the ten agents; `pause` answers each pause (its id and how many times it was asked). */
function fleet(
  pause: (path: string, nth: number) => ReturnType<Route>,
  list: (nth: number) => ReturnType<Route> = () => ({ json: { agents: AGENTS } }),
): Route {
  const asked = new Map<string, number>();
  let lists = 0;
  return ({ method, path }) => {
    if (method === 'GET' && path === '/v1/superagents') return list(++lists);
    if (method === 'POST' && PAUSE.test(path)) {
      const n = (asked.get(path) ?? 0) + 1;
      asked.set(path, n);
      return pause(path, n);
    }
    return undefined;
  };
}

async function cli(route: Route, argv: string[], o: RunOptions = {}) {
  const mock = await startHostedMock(route);
  temp.closeAfter(mock);
  const clock = new FakeClock();
  const r = await runLine({ url: mock.url, key: KEY }, argv, { clock, ...o });
  return { ...r, slept: clock.slept, requests: mock.requests.map((q) => `${q.method} ${q.path}`) };
}

const pauses = (ids: string[]) => ids.map((id) => `POST /v1/superagents/${id}/pause`).sort();
const NOTICE_20 =
  '! Rate limited by the service; waiting 20 s (its Retry-After) before ' +
  'retrying (1 of 3; this command waits at most 60 s in all)';

describe('pause --all, the kill switch, against 429s', () => {
  it(
    '10 agents, each pause refused once with Retry-After ' + '20: one wait of 20 s for all, then all are paused',
    async () => {
      const r = await cli(
        fleet((p, n) => (n === 1 ? limited(20) : paused(p))),
        ['pause', '--all'],
      );
      expect(r.code, r.stderr).toBe(0);
      expect(r.slept).toEqual([20_000]);
      expect(r.stderr).toBe(`${NOTICE_20}\n`);
      expect(r.stdout.trimEnd().split('\n')).toEqual(AGENTS.map((a) => `${a.agent_id}\t${a.name}\tpaused\tdone`));
      // every pause went out before any was sent again
      expect(r.requests[0]).toBe('GET /v1/superagents');
      expect(r.requests.slice(1, 11).sort()).toEqual(pauses(ID));
      expect(r.requests.slice(11).sort()).toEqual(pauses(ID));
    },
  );

  it(
    'a service that keeps answering 429: 60 s of waiting at ' +
      'most, then exit 5 with the real Retry-After on each line',
    async () => {
      const r = await cli(
        fleet(() => limited(20)),
        ['pause', '--all'],
      );
      expect(r.code).toBe(5);
      expect(r.slept).toEqual([20_000, 20_000, 20_000]);
      expect(r.stdout).toBe('');
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines.filter((l) => l.startsWith('! Rate limited'))).toHaveLength(3);
      expect(lines.filter((l) => l.startsWith('✗'))).toEqual(
        AGENTS.map((a) => `✗ ${a.name}: Rate limit exceeded (the service asks to wait 20 s before trying again)`),
      );
      expect(r.requests).toHaveLength(1 + 4 * 10);
    },
  );

  it('--timeout 10 caps the waiting: a Retry-After of 20 s is not waited, exit 5 at once', async () => {
    const r = await cli(
      fleet(() => limited(20)),
      ['pause', '--all', '--timeout', '10'],
    );
    expect(r.code).toBe(5);
    expect(r.slept).toEqual([]);
    expect(r.requests.slice(1).sort()).toEqual(pauses(ID));
    const hint =
      'the service asks to wait 20 s before trying again: more than is ' +
      'left of the 10 s this command may wait on rate limits';
    expect(r.stderr.trimEnd().split('\n')).toEqual(AGENTS.map((a) => `✗ ${a.name}: Rate limit exceeded (${hint})`));
  });

  it('the list’s wait counts too: after 50 s for it, a pause asked to wait 20 s more fails at once', async () => {
    const r = await cli(
      fleet(
        () => limited(20),
        (n) => (n === 1 ? limited(50) : { json: { agents: AGENTS.slice(0, 2) } }),
      ),
      ['pause', '--all'],
    );
    expect(r.code).toBe(5);
    expect(r.slept).toEqual([50_000]);
    expect(r.stderr).toContain(
      '✗ agent-0: Rate limit exceeded (the service asks to wait 20 s before trying ' +
        'again: more than is left of the 60 s this command may wait on rate limits)\n',
    );
  });

  it(
    'pauses go out before the request that explains a refusal ' + '(a 409 is explained after every pause is sent)',
    async () => {
      const route: Route = ({ method, path }) => {
        if (method === 'POST' && path === `/v1/superagents/${ID[0]}/pause`)
          return { status: 409, json: { statusCode: 409, message: 'Agent is not running' } };
        if (method === 'POST' && PAUSE.test(path)) return paused(path);
        if (method === 'GET' && path === `/v1/superagents/${ID[0]}`)
          return { json: { ...AGENTS[0], status: 'paused' } };
        return undefined;
      };
      const r = await cli(route, ['pause', ID[0]!, ID[1]!, ID[2]!]);
      expect(r.code).toBe(6);
      expect(r.requests.slice(0, 3).sort()).toEqual(pauses(ID.slice(0, 3)));
      expect(r.requests.slice(3)).toEqual([`GET /v1/superagents/${ID[0]}`]);
      expect(r.stderr).toBe(`✗ ${ID[0]}: already paused ('superagent resume ${ID[0]}' runs it again)\n`);
    },
  );
});

describe('any command: one budget of 60 s for its 429 waits', () => {
  it('a wait past what is left is not begun: exit 5 at once, naming the service’s Retry-After', async () => {
    const r = await cli(() => limited(61), ['list']);
    expect(r.code).toBe(5);
    expect(r.slept).toEqual([]);
    expect(r.stderr).toBe(
      'Error: Rate limit exceeded (the service asks to wait 61 s before trying again: ' +
        'more than is left of the 60 s this command may wait on rate limits)\n',
    );
  });
});

describe('the chat REPL, where each line is a command of its own', () => {
  it(
    'each message gets its own 60 s of waiting: two lines each ' + 'refused once with Retry-After 40 are both answered',
    async () => {
      const agent = AGENTS[0]!;
      const chats = new Map<string, number>();
      const sse = (text: string) =>
        [
          { event: 'RunContent', content: text, session_id: 's-1' },
          { event: 'RunCompleted', content: text, session_id: 's-1' },
        ]
          .map((e) => `data: ${JSON.stringify(e)}\n\n`)
          .join('') + 'data: [DONE]\n\n';
      const route: Route = ({ method, path, body }) => {
        if (method === 'GET' && path === '/v1/superagents') return { json: { agents: AGENTS } };
        if (method === 'GET' && path === `/v1/superagents/${agent.agent_id}`) return { json: agent };
        if (method === 'POST' && path === `/v1/superagents/${agent.agent_id}/chat`) {
          const message = String(body?.message);
          const n = (chats.get(message) ?? 0) + 1;
          chats.set(message, n);
          return n === 1 ? limited(40) : { sse: sse(`answer to ${message}\n`) };
        }
        return undefined;
      };
      const r = await cli(route, ['chat', agent.name], {
        tty: { stdin: true, stdout: true, stderr: true },
        input: 'first\nsecond\n',
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.slept).toEqual([40_000, 40_000]);
      expect(r.stdout).toContain('answer to first');
      expect(r.stdout).toContain('answer to second');
    },
  );
});
