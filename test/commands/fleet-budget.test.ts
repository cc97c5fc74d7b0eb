// apply's budget line is a true upper bound of the requests it sends: counted by a stand-in for the
// hosted service, a run whose every step makes the most requests it can (a new agent's skills read
// before and after, every field of another changed, a prune) sends exactly as many as announced, the
// plan's reads and the launch turn's lists included, and "Applied" counts the same requests.
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FakeClock, runLine } from '../helpers/context.js';
import { startHostedMock, type Agent, type Route } from '../helpers/hosted-mock.js';
import { perTest } from '../helpers/service-support.js';

const t = perTest();
const KEY = 'gb_sk_live_4f8a2b9c1d3e5f7a9b0c';

/** An agent as the hosted list gives it, and what the stand-in keeps beside it. */
interface Held extends Agent {
  soul: string;
  disabled: string[];
}

/** A hosted stand-in that keeps what it is told: agents, their souls, skills and status. */
/** `failOnce`: the first request whose method and path end so is answered 503 (and retried). */
function keeping(agents: Held[], o: { failOnce?: string } = {}): Route {
  const summary = ({ soul: _s, disabled: _d, ...rest }: Held) => rest;
  const skills = (a: Held) => ({
    agent_id: a.agent_id,
    skills: ['alpha-skill', 'beta-skill'].map((name) => ({
      name,
      description: name,
      enabled: !a.disabled.includes(name),
    })),
  });
  let failing = o.failOnce;
  return ({ method, path: p, body }) => {
    if (failing && `${method} ${p}`.replace(/ \/v1\/superagents\/[^/]+/, ' ') === failing) {
      failing = undefined;
      return { status: 503, json: { statusCode: 503, message: 'Service Unavailable' } };
    }
    if (p === '/v1/superagents' && method === 'GET') return { json: { agents: agents.map(summary) } };
    if (p === '/v1/superagents' && method === 'POST') {
      const a: Held = {
        agent_id: randomUUID(),
        name: body.name,
        description: body.description ?? '',
        status: 'running',
        model: body.model,
        created_at: '2026-03-15T10:00:00Z',
        soul: body.soul_md ?? '# soul\n',
        disabled: [],
      };
      agents.unshift(a);
      return {
        json: { agent_id: a.agent_id, name: a.name, bot_username: null, wallet_address: null, status: 'running' },
      };
    }
    const m = /^\/v1\/superagents\/([^/]+)(?:\/(\w+))?$/.exec(p);
    const a = m && agents.find((x) => x.agent_id === m[1]);
    if (!m || !a) return undefined;
    const ok = { json: { agent_id: a.agent_id, status: a.status } };
    switch (`${method} ${m[2] ?? ''}`) {
      case 'GET files':
        return { json: { agent_id: a.agent_id, soul_md: a.soul, memory_md: '' } };
      case 'GET skills':
        return { json: skills(a) };
      case 'PUT skills':
        a.disabled = body.disabled;
        return ok;
      case 'PUT profile':
        Object.assign(a, body);
        return ok;
      case 'PUT model':
        a.model = body.model;
        return ok;
      case 'PUT soul':
        a.soul = body.soul_md;
        return ok;
      case 'POST pause':
        a.status = 'paused';
        return ok;
      case 'DELETE ':
        agents.splice(agents.indexOf(a), 1);
        return { json: { agent_id: a.agent_id, status: 'destroyed' } };
      default:
        return undefined;
    }
  };
}

function fleet(): string {
  const dir = t.scratch('superagent-fleet-budget-');
  fs.mkdirSync(path.join(dir, 'souls'));
  fs.writeFileSync(path.join(dir, 'souls', 'old.md'), '# old\nNew rules.\n');
  fs.writeFileSync(
    path.join(dir, 'superagents.yaml'),
    'agents:\n' +
      '  - name: old\n    description: changed\n    model: grok-4\n    soul: ' +
      'souls/old.md\n    skills: { enabled: [alpha-skill] }\n    status: paused\n' +
      '  - name: new1\n    model: gpt-4o\n    skills: { enabled: [beta-skill] }\n    status: paused\n',
  );
  return path.join(dir, 'superagents.yaml');
}

const held = (): Held[] => [
  {
    agent_id: randomUUID(),
    name: 'old',
    description: '',
    status: 'running',
    model: 'gpt-4o',
    created_at: '2026-03-14T10:00:00Z',
    soul: '# old\n',
    disabled: [],
  },
  {
    agent_id: randomUUID(),
    name: 'stray',
    description: '',
    status: 'running',
    model: 'gpt-4o',
    created_at: '2026-03-13T10:00:00Z',
    soul: '# stray\n',
    disabled: [],
  },
];

async function applyAgainst(route: Route) {
  const mock = await startHostedMock(route);
  t.closeAfter(mock);
  // a fake clock: the backoff before a retry takes no time
  const r = await runLine(
    { url: mock.url, key: KEY },
    ['apply', '-f', fleet(), '--prune', '--yes', '--abandon-funds'],
    {
      clock: new FakeClock(),
    },
  );
  return { r, sent: mock.requests.length };
}

describe("apply's budget line", () => {
  it(
    'the most requests it announces is what a run that makes ' +
      'the most of every step sends, and what Applied counts',
    async () => {
      const { r, sent } = await applyAgainst(keeping(held()));
      expect(r.code, r.stderr).toBe(0);
      // the plan: the list, old's soul and skills (3); the launch turn's two lists; 9 steps making 12
      expect(sent).toBe(17);
      expect(r.stdout).toContain("9 steps, at most 17 requests in all (the plan's 3 included; retries not counted).\n");
      expect(r.stdout).toContain('Applied 9 steps (17 requests).\n');
    },
  );

  it(
    'a launch refused (409) costs a list to name the agent, ' + 'within the bound (no list after the launches)',
    async () => {
      const dir = t.scratch('superagent-fleet-budget-');
      fs.writeFileSync(path.join(dir, 'superagents.yaml'), 'agents:\n  - name: new1\n    model: gpt-4o\n');
      const keep = keeping([]);
      const taken = { status: 409, json: { statusCode: 409, message: "An agent named 'new1' already exists" } };
      const refused: Route = (req) => (req.method === 'POST' && req.path === '/v1/superagents' ? taken : keep(req));
      const mock = await startHostedMock(refused);
      t.closeAfter(mock);
      const argv = ['apply', '-f', path.join(dir, 'superagents.yaml'), '--yes'];
      const r = await runLine({ url: mock.url, key: KEY }, argv, { clock: new FakeClock() });
      expect(r.code).toBe(6);
      const announced = Number(/at most (\d+) requests/.exec(r.stdout)![1]);
      // the plan's list, the launch turn's list, the launch, the list that names the agent
      expect(mock.requests.length).toBe(4);
      expect(mock.requests.length).toBeLessThanOrEqual(announced);
    },
  );

  it('a retry is a request more than announced (as the line says), and Applied counts it', async () => {
    const { r, sent } = await applyAgainst(keeping(held(), { failOnce: 'PUT /soul' }));
    expect(r.code, r.stderr).toBe(0);
    expect(sent).toBe(18);
    expect(r.stdout).toContain('at most 17 requests in all');
    expect(r.stdout).toContain('Applied 9 steps (18 requests).\n');
  });
});
