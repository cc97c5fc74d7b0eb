// The fleet as code through the commands layer: export → plan shows nothing; each field
// edited → plan shows exactly it → apply → plan shows nothing; a second apply makes no write;
// --prune destroys only what is not in the file; consent (a terminal, or --yes).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { cliFor } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent, type TestService, UNFUNDED } from '../helpers/service.js';

const t = perTest();
const SOUL = '# alpha\n\nYou trade ETH momentum.\n\n## Rules\n- Never risk more than 2% on one trade.\n';

interface Fleet {
  svc: TestService;
  dir: string;
  file: string;
  cli: ReturnType<typeof cliFor>;
  ids: Record<string, string>;
}

/**
 * A service with two agents (alpha running on gpt-4o with a soul of its own, beta paused), exported into a fresh dir.
 */
async function exported(): Promise<Fleet> {
  const svc = await t.service(UNFUNDED); // not about money: its agents hold nothing
  const alpha = await launchAgent(svc, { name: 'alpha', description: 'ETH momentum', soul_md: SOUL });
  const beta = await launchAgent(svc, { name: 'beta', model: 'claude-sonnet-4-20250514', model_provider: 'anthropic' });
  expect((await svc.call('POST', `/v1/superagents/${beta.agent_id}/pause`)).status).toBe(200);
  const dir = t.scratch('superagent-fleet-');
  const cli = cliFor(() => svc);
  const r = await cli(['export', '--dir', dir]);
  expect(r.code, r.stderr).toBe(0);
  svc.cliRequests();
  return {
    svc,
    dir,
    file: path.join(dir, 'superagents.yaml'),
    cli,
    ids: { alpha: alpha.agent_id, beta: beta.agent_id },
  };
}

/** Changes the file as a person would, through a YAML document (comments and layout kept). */
function edit(f: Fleet, change: (doc: ReturnType<typeof parseDocument>) => void): void {
  const doc = parseDocument(fs.readFileSync(f.file, 'utf8'));
  change(doc);
  fs.writeFileSync(f.file, doc.toString());
}

async function planJson(f: Fleet): Promise<any> {
  const r = await f.cli(['plan', '-f', f.file, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

const writes = (svc: TestService) => svc.cliRequests().filter((q) => q.method !== 'GET');
const route = (q: { method: string; path: string }) => `${q.method} ${q.path.replace(/[0-9a-f-]{36}/, 'ID')}`;

describe('export, then plan', () => {
  it('writes the fleet and one soul per agent; plan against it shows no changes and exits 0', async () => {
    const f = await exported();
    const doc = parseDocument(fs.readFileSync(f.file, 'utf8')).toJS();
    expect(doc.agents).toEqual([
      {
        name: 'alpha',
        description: 'ETH momentum',
        model: 'gpt-4o',
        soul: 'souls/alpha.md',
        skills: { enabled: ['evm-wallet', 'solana-wallet', 'portfolio-tracker', 'market-intel'] },
        status: 'running',
      },
      {
        name: 'beta',
        description: '',
        model: 'claude-sonnet-4-20250514',
        soul: 'souls/beta.md',
        skills: { enabled: ['evm-wallet', 'solana-wallet', 'portfolio-tracker', 'market-intel'] },
        status: 'paused',
      },
    ]);
    expect(fs.readFileSync(path.join(f.dir, 'souls/alpha.md'), 'utf8')).toBe(SOUL);
    expect(fs.readFileSync(path.join(f.dir, 'souls/beta.md'), 'utf8')).toBe(
      (await f.svc.call('GET', `/v1/superagents/${f.ids.beta}/files`)).json.soul_md,
    );

    const r = await f.cli(['plan', '-f', f.file, '--detailed-exit-code']);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, `No changes: the service matches ${f.file} (2 agents).\n`, '']);
    expect(writes(f.svc)).toEqual([]);
  });

  it('prints the files it wrote, and a second export with nothing changed writes none', async () => {
    const f = await exported();
    const again = await f.cli(['export', '--dir', f.dir]);
    expect([again.code, again.stdout]).toEqual([0, '']);
    fs.writeFileSync(path.join(f.dir, 'souls/beta.md'), 'edited by hand\n');
    const refused = await f.cli(['export', '--dir', f.dir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--yes required to overwrite ${path.join(f.dir, 'souls/beta.md')}`);
    const forced = await f.cli(['export', '--dir', f.dir, '--yes']);
    expect([forced.code, forced.stdout]).toEqual([0, `${path.join(f.dir, 'souls/beta.md')}\n`]);
  });
});

interface FieldCase {
  field: string;
  change(f: Fleet): void;
  /** the write requests apply makes, in order */
  writes: string[];
  /** the body of the first write, when it says more than the service shows (the provider) */
  body?: unknown;
  /** the service shows the change */
  check(f: Fleet): Promise<void>;
}

const record = async (f: Fleet, id: string) => (await f.svc.call('GET', `/v1/superagents/${id}`)).json;

const FIELDS: FieldCase[] = [
  {
    field: 'description',
    change: (f) => edit(f, (d) => d.setIn(['agents', 0, 'description'], 'Short-term ETH momentum trades')),
    writes: ['PUT /v1/superagents/ID/profile'],
    check: async (f) => expect((await record(f, f.ids.alpha!)).description).toBe('Short-term ETH momentum trades'),
  },
  {
    field: 'model',
    change: (f) => edit(f, (d) => d.setIn(['agents', 0, 'model'], 'grok-4')),
    writes: ['PUT /v1/superagents/ID/model'],
    // the provider inferred from the model id, as launch does (the record does not show it)
    body: { model: 'grok-4', model_provider: 'xai' },
    check: async (f) => expect((await record(f, f.ids.alpha!)).model).toBe('grok-4'),
  },
  {
    field: 'soul',
    change: (f) => fs.writeFileSync(path.join(f.dir, 'souls/alpha.md'), SOUL.replace('2%', '1%')),
    writes: ['PUT /v1/superagents/ID/soul'],
    check: async (f) =>
      expect((await f.svc.call('GET', `/v1/superagents/${f.ids.alpha}/files`)).json.soul_md).toBe(
        SOUL.replace('2%', '1%'),
      ),
  },
  {
    field: 'skills',
    change: (f) => edit(f, (d) => d.setIn(['agents', 0, 'skills'], d.createNode({ disabled: ['market-intel'] }))),
    writes: ['PUT /v1/superagents/ID/skills'],
    check: async (f) => {
      const skills = (await f.svc.call('GET', `/v1/superagents/${f.ids.alpha}/skills`)).json.skills;
      expect(skills.filter((s: any) => !s.enabled).map((s: any) => s.name)).toEqual(['market-intel']);
    },
  },
  {
    field: 'status',
    change: (f) => edit(f, (d) => d.setIn(['agents', 1, 'status'], 'running')),
    writes: ['POST /v1/superagents/ID/resume'],
    check: async (f) => expect((await record(f, f.ids.beta!)).status).toBe('running'),
  },
];

describe('each field edited: plan shows exactly it, apply makes it, plan then shows nothing', () => {
  it.each(FIELDS)('$field', async (c) => {
    const f = await exported();
    c.change(f);
    const plan = await planJson(f);
    expect(plan.changes_pending).toBe(true);
    const changed = plan.agents.filter((a: any) => a.action !== 'none');
    expect(changed).toHaveLength(1);
    expect(changed[0].changes.map((ch: any) => ch.field)).toEqual([c.field]);
    expect(f.svc.cliRequests().every((q) => q.method === 'GET')).toBe(true);
    expect((await f.cli(['plan', '-f', f.file, '--detailed-exit-code'])).code).toBe(9);

    const applied = await f.cli(['apply', '-f', f.file, '--yes']);
    expect(applied.code, applied.stderr).toBe(0);
    const sent = writes(f.svc);
    expect(sent.map(route)).toEqual(c.writes);
    if (c.body !== undefined) expect(sent[0]!.body).toEqual(c.body);
    await c.check(f);

    const after = await f.cli(['plan', '-f', f.file, '--detailed-exit-code']);
    expect([after.code, after.stdout]).toEqual([0, `No changes: the service matches ${f.file} (2 agents).\n`]);
  });

  it('plan prints the change for people: the soul as a unified diff, the model with its provider', async () => {
    const f = await exported();
    fs.writeFileSync(path.join(f.dir, 'souls/alpha.md'), SOUL.replace('2%', '1%'));
    edit(f, (d) => d.setIn(['agents', 0, 'model'], 'gpt-4.1'));
    const r = await f.cli(['plan', '-f', f.file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      `~ alpha (${f.ids.alpha!.slice(0, 8)})\n    model: gpt-4o → gpt-4.1 (openai)\n    soul: souls/alpha.md\n`,
    );
    expect(r.stdout).toContain('      --- alpha/soul.md (on the service)\n      +++ souls/alpha.md\n');
    expect(r.stdout).toContain(
      '      -- Never risk more than 2% on one trade.\n      +- Never risk more than 1% on one trade.\n',
    );
    expect(r.stdout.endsWith('Plan: 1 to change, 1 unchanged.\n')).toBe(true);
  });

  it('a new agent is launched with its model, provider, description, soul and skills, then paused', async () => {
    const f = await exported();
    fs.writeFileSync(path.join(f.dir, 'souls/gamma.md'), '# gamma\nScalp SOL.\n');
    edit(f, (d) =>
      d.addIn(
        ['agents'],
        d.createNode({
          name: 'gamma',
          description: 'SOL scalper',
          model: 'gpt-4o-mini',
          soul: 'souls/gamma.md',
          skills: { enabled: ['solana-swap'] },
          status: 'paused',
        }),
      ),
    );
    const plan = await planJson(f);
    expect(plan.agents.find((a: any) => a.name === 'gamma')).toMatchObject({
      action: 'create',
      launch: { model: 'gpt-4o-mini', provider: 'openai', soul: 'souls/gamma.md' },
    });
    const r = await f.cli(['apply', '-f', f.file, '--yes']);
    expect(r.code, r.stderr).toBe(0);
    const sent = f.svc.cliRequests().filter((q) => q.method !== 'GET');
    expect(sent.map(route)).toEqual([
      'POST /v1/superagents',
      'PUT /v1/superagents/ID/skills',
      'POST /v1/superagents/ID/pause',
    ]);
    expect(sent[0]!.body).toEqual({
      name: 'gamma',
      model: 'gpt-4o-mini',
      model_provider: 'openai',
      description: 'SOL scalper',
      soul_md: '# gamma\nScalp SOL.\n',
    });
    expect(sent[1]!.body.disabled).not.toContain('solana-swap');
    expect(r.stdout).toContain(
      '[1/3] launch gamma: done\n[2/3] skills of gamma: done\n[3/3] pause gamma: done\nApplied 3 steps',
    );
    expect((await f.cli(['plan', '-f', f.file, '--detailed-exit-code'])).code).toBe(0);
  });

  it('a second apply right after a successful one makes no write request', async () => {
    const f = await exported();
    for (const c of FIELDS) c.change(f);
    expect((await f.cli(['apply', '-f', f.file, '--yes'])).code).toBe(0);
    expect(writes(f.svc).length).toBeGreaterThanOrEqual(FIELDS.length);
    const again = await f.cli(['apply', '-f', f.file, '--yes']);
    expect([again.code, again.stdout]).toEqual([0, `No changes: the service matches ${f.file} (2 agents).\n`]);
    const requests = f.svc.cliRequests();
    expect(requests.length).toBeGreaterThan(0);
    expect(requests.filter((q) => q.method !== 'GET')).toEqual([]);
  });
});

describe('--json', () => {
  it('plan and apply give the plan as data, apply with what it applied', async () => {
    const f = await exported();
    expect(await planJson(f)).toMatchObject({
      changes_pending: false,
      prune: false,
      agents: [
        { name: 'alpha', action: 'none', changes: [] },
        { name: 'beta', action: 'none', changes: [] },
      ],
    });
    edit(f, (d) => d.setIn(['agents', 1, 'status'], 'running'));
    const r = await f.cli(['apply', '-f', f.file, '--yes', '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ changes_pending: true, applied: ['resume beta'], not_applied: [] });
    expect(out.agents[1]).toEqual({
      name: 'beta',
      agent_id: f.ids.beta,
      action: 'update',
      changes: [{ field: 'status', from: 'paused', to: 'running' }],
      notes: [],
    });
  });
});

describe('agents only on the service', () => {
  it('plan names them; apply leaves them; apply --prune destroys them and nothing else', async () => {
    const f = await exported();
    const extra = await launchAgent(f.svc, { name: 'stray' });
    const shown = await f.cli(['plan', '-f', f.file, '--detailed-exit-code']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(
      `? stray (${extra.agent_id.slice(0, 8)}): not in the file; \`apply --prune\` would destroy it\n`,
    );
    expect((await f.cli(['plan', '-f', f.file, '--prune', '--detailed-exit-code'])).code).toBe(9);

    expect((await f.cli(['apply', '-f', f.file, '--yes'])).code).toBe(0);
    expect(writes(f.svc)).toEqual([]);
    const pruned = await f.cli(['apply', '-f', f.file, '--yes', '--prune']);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(writes(f.svc).map((q) => `${q.method} ${q.path}`)).toEqual([`DELETE /v1/superagents/${extra.agent_id}`]);
    const left = (await f.svc.call('GET', '/v1/superagents')).json.agents.map((a: any) => a.name).sort();
    expect(left).toEqual(['alpha', 'beta']);
  });
});

describe('consent', () => {
  it('without a terminal, apply needs --yes: exit 2 naming it, before any request', async () => {
    const f = await exported();
    edit(f, (d) => d.setIn(['agents', 0, 'description'], 'changed'));
    const r = await f.cli(['apply', '-f', f.file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `Error: --yes required to apply when not running interactively (superagent apply -f ${f.file} --yes)\n`,
    );
    expect(f.svc.cliRequests()).toEqual([]);
  });

  it('on a terminal, apply shows the plan and asks; no is nothing applied', async () => {
    const f = await exported();
    edit(f, (d) => d.setIn(['agents', 0, 'description'], 'changed'));
    const r = await f.cli(['apply', '-f', f.file], { tty: true, answers: [false] });
    expect(r.code).toBe(0);
    expect(r.asked).toEqual([`Apply these changes to ${f.svc.url} (1 step)?`]);
    expect(r.stderr).toContain("1 step, at most 6 requests in all (the plan's 5 included; retries not counted).\n");
    expect(r.stdout).toContain('description: "ETH momentum" → "changed"');
    expect(r.stderr).toContain('Nothing applied.');
    expect(writes(f.svc)).toEqual([]);
  });

  it('--prune on a terminal asks to type the name of each agent to destroy', async () => {
    const f = await exported();
    await launchAgent(f.svc, { name: 'stray' });
    const wrong = await f.cli(['apply', '-f', f.file, '--prune'], { tty: true, answers: [true, 'stary'] });
    expect([wrong.code, wrong.stderr]).toEqual([
      2,
      // the plan's 6: the 5 of the plan, and the wallet of stray (what it holds is read before anything is asked)
      "1 step, at most 7 requests in all (the plan's 6 included; retries not " +
        'counted).\nError: the name typed does not match stray; nothing applied\n',
    ]);
    expect(writes(f.svc)).toEqual([]);
    const right = await f.cli(['apply', '-f', f.file, '--prune'], { tty: true, answers: [true, 'stray'] });
    expect(right.code, right.stderr).toBe(0);
    expect(right.asked[1]).toContain('Destroying stray cannot be undone');
    expect(right.stderr).toContain('✓ destroy stray\n');
    expect(writes(f.svc).map(route)).toEqual(['DELETE /v1/superagents/ID']);
  });
});
