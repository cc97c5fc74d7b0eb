// The 10-agent limit and a fleet file: `apply --prune` whose launches only fit once the agents not in
// the file are gone destroys as many of them as the launches need first (each still consented to);
// `plan` of a file apply would refuse for the limit shows the plan and fails as apply would (exit 6),
// and apply without --prune over the limit fails before any write, saying that --prune would make room.
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent, type TestService, UNFUNDED } from '../helpers/service.js';

const t = perTest();
let svc: TestService;
const cli = cliFor(() => svc);
/** x1 … x10, launched in that order (the list answers newest first) */
let ids: Record<string, string>;

function fleetFile(names: string[]): string {
  const dir = t.scratch('superagent-fleet-limit-');
  fs.writeFileSync(path.join(dir, 'superagents.yaml'), `agents:\n${names.map((n) => `  - name: ${n}\n`).join('')}`);
  return path.join(dir, 'superagents.yaml');
}

const requests = () =>
  svc
    .cliRequests()
    .map(
      (q) =>
        `${q.method} ` +
        q.path.replace(/[0-9a-f-]{36}/, (id) => Object.entries(ids).find(([, v]) => v === id)?.[0] ?? 'ID'),
    );
const writes = () => requests().filter((r) => !r.startsWith('GET '));
const names = async () =>
  (await svc.call('GET', '/v1/superagents')).json.agents.map((a: { name: string }) => a.name).sort();

beforeEach(async () => {
  svc = await t.service(UNFUNDED); // not about money: its agents hold nothing
  ids = {};
  for (let i = 1; i <= 10; i++) ids[`x${i}`] = (await launchAgent(svc, { name: `x${i}` })).agent_id;
  svc.cliRequests();
});

describe('apply --prune at the limit', () => {
  it(
    'destroys as many agents as the launches need before ' + 'them, the rest last: the end state fits, exit 0',
    async () => {
      const file = fleetFile(['x1', 'fresh', 'fresher']);
      const r = await cli(['apply', '-f', file, '--prune', '--yes']);
      expect(r.code, r.stderr).toBe(0);
      expect(await names()).toEqual(['fresh', 'fresher', 'x1']);
      // the two newest of the agents not in the file go first (the plan lists them newest first)
      expect(writes()).toEqual([
        'DELETE /v1/superagents/x10',
        'DELETE /v1/superagents/x9',
        'POST /v1/superagents',
        'POST /v1/superagents',
        ...['x8', 'x7', 'x6', 'x5', 'x4', 'x3', 'x2'].map((n) => `DELETE /v1/superagents/${n}`),
      ]);
      expect(r.stdout).toContain('[1/11] destroy x10: done\n[2/11] destroy x9: done\n[3/11] launch fresh: done\n');
    },
  );

  it(
    'on a terminal, each agent to destroy is still typed, the ' +
      'ones destroyed first included; a wrong one applies nothing',
    async () => {
      const file = fleetFile(['x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'x7', 'x8', 'x9', 'fresh']);
      const wrong = await cli(['apply', '-f', file, '--prune'], { tty: true, answers: [true, 'x01'] });
      expect(wrong.code).toBe(2);
      expect(wrong.asked.at(-1)).toContain('Destroying x10 cannot be undone');
      expect(writes()).toEqual([]);
      const right = await cli(['apply', '-f', file, '--prune'], { tty: true, answers: [true, 'x10'] });
      expect(right.code, right.stderr).toBe(0);
      expect(writes()).toEqual(['DELETE /v1/superagents/x10', 'POST /v1/superagents']);
    },
  );

  it('plan --prune says which agents apply destroys before the launches, and why', async () => {
    const r = await cli(['plan', '-f', fleetFile(['x1', 'fresh']), '--prune', '--detailed-exit-code']);
    expect(r.code, r.stderr).toBe(9);
    expect(r.stdout).toContain(
      'note: apply destroys x10 before the launches: the service holds at most 10 live agents\n',
    );
  });
});

describe('over the limit', () => {
  it('apply without --prune: exit 6 before any write, with the numbers, and that --prune would make room', async () => {
    const r = await cli(['apply', '-f', fleetFile(['x1', 'fresh']), '--yes']);
    expect(r.code).toBe(6);
    expect(r.stderr).toBe(
      'Error: Agent limit reached (10): the service has 10 live agents and the file adds 1 ' +
        "(free a slot: superagent destroy <agent> ('superagent list' shows them), " +
        "or let 'apply --prune' destroy the 9 agents not in the file, then apply again)\n",
    );
    expect(writes()).toEqual([]);
  });

  it(
    'plan of that file shows the plan, then fails as apply ' + 'would: exit 6, even with --detailed-exit-code',
    async () => {
      const file = fleetFile(['x1', 'fresh']);
      for (const extra of [[], ['--detailed-exit-code']]) {
        const r = await cli(['plan', '-f', file, ...extra]);
        expect(r.code).toBe(6);
        expect(r.stdout).toContain('+ fresh: launch\n');
        expect(r.stderr).toContain(
          'Error: Agent limit reached (10): the service has 10 live agents and the file adds 1 (',
        );
      }
      expect(writes()).toEqual([]);
    },
  );

  it(
    'a file of more agents than the limit, with --prune: ' + 'plan and apply exit 6 saying how many the file holds',
    async () => {
      const file = fleetFile(['x1', ...Array.from({ length: 10 }, (_, i) => `new${i}`)]);
      for (const command of ['plan', 'apply']) {
        const r = await cli([command, '-f', file, '--prune', '--yes']);
        expect(r.code).toBe(6);
        expect(r.stderr).toContain(
          'Error: Agent limit reached (10): the file holds 11 agents (take some out of the file)\n',
        );
      }
      expect(writes()).toEqual([]);
      expect(await names()).toHaveLength(10);
    },
  );
});
