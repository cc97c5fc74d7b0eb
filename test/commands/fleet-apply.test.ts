// apply when things go wrong or get big: a failure mid-apply stops it, saying what was
// and was not done, and a second apply converges; a launch that may have reached the service is
// never sent again; a 10-agent fleet stays within 60 requests a minute (a fake clock shared with
// the service's limiter: no test waits in real time); the account limit and bot tokens are checked
// before the first write.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FakeClock, cliFor, runLine } from '../helpers/context.js';
import { startHostedMock } from '../helpers/hosted-mock.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent, type TestService } from '../helpers/service.js';

const t = perTest();
const BOT_TOKEN = '7123456789:AAHk3_x-ZyQw9vLmN0pRsTuVwXyZaBcDeFg';
const BOT_SECRET = BOT_TOKEN.split(':')[1]!;

/** A fleet dir holding `yaml` as superagents.yaml, and souls/<name>.md for each soul given. */
function fleetDir(yaml: string, souls: Record<string, string> = {}): string {
  const dir = t.scratch('superagent-fleet-apply-');
  fs.mkdirSync(path.join(dir, 'souls'));
  for (const [name, text] of Object.entries(souls)) fs.writeFileSync(path.join(dir, 'souls', `${name}.md`), text);
  fs.writeFileSync(path.join(dir, 'superagents.yaml'), yaml);
  return path.join(dir, 'superagents.yaml');
}

const writes = (svc: TestService) =>
  svc
    .cliRequests()
    .filter((q) => q.method !== 'GET')
    .map((q) => `${q.method} ${q.path.replace(/[0-9a-f-]{36}/, 'ID')}`);
const names = async (svc: TestService) =>
  (await svc.call('GET', '/v1/superagents')).json.agents.map((a: { name: string }) => a.name).sort();

describe('a failure mid-apply', () => {
  it(
    'stops at the failing step, says what was done and what ' + 'was not; a second apply does the rest and converges',
    async () => {
      let failing = true;
      // every soul upload fails (503 then 500) while `failing`
      const svc = await t.service({
        faults: { errorRate: 1, onlyFor: (r) => failing && r.method === 'PUT' && r.path.endsWith('/soul') },
      });
      const alpha = await launchAgent(svc, { name: 'alpha' });
      const file = fleetDir(
        'agents:\n  - name: alpha\n    description: first\n    soul: ' +
          'souls/alpha.md\n    status: paused\n  - name: beta\n',
        { alpha: '# alpha\nNew rules.\n' },
      );
      const clock = new FakeClock(); // the client's backoff before retrying the 503
      const cli = cliFor(() => svc, { clock });

      const r = await cli(['apply', '-f', file, '--yes']);
      expect(r.code).toBe(7);
      expect(r.stdout).toContain('[1/4] launch beta: done\n[2/4] profile of alpha: done\n');
      expect(r.stdout).not.toContain('soul of alpha: done');
      expect(r.stderr).toContain(
        'Done (2 of 4): launch beta, profile of alpha\nNot done (2): soul of alpha, pause alpha\n',
      );
      expect(r.stderr).toMatch(
        new RegExp(
          String.raw`Error: apply stopped at step 3 of 4 \(soul of alpha\): .*injected fault.* ` +
            String.raw`\(run apply again, which plans from what the service has now`,
        ),
      );
      expect(r.stderr).toContain(`instead of launching it twice: superagent apply -f ${file} --yes)\n`);
      expect(writes(svc)).toEqual([
        'POST /v1/superagents',
        'PUT /v1/superagents/ID/profile',
        'PUT /v1/superagents/ID/soul',
        'PUT /v1/superagents/ID/soul',
      ]);
      // pause not reached
      expect((await svc.call('GET', `/v1/superagents/${alpha.agent_id}`)).json.status).toBe('running');

      failing = false;
      const again = await cli(['apply', '-f', file, '--yes']);
      expect(again.code, again.stderr).toBe(0);
      // only what was not done: no second launch of beta, no second profile change
      expect(writes(svc)).toEqual(['PUT /v1/superagents/ID/soul', 'POST /v1/superagents/ID/pause']);
      expect(await names(svc)).toEqual(['alpha', 'beta']);
      expect((await cli(['plan', '-f', file, '--detailed-exit-code'])).code).toBe(0);
    },
  );

  it('a launch whose answer never came is not sent again: the next apply finds the agent by its name', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // the launch is held before the service handles it, until the client has given up on it
    const svc = await t.service({
      faults: { latencyMs: 1, onlyFor: (r) => r.method === 'POST' && r.path === '/v1/superagents' },
      sleep: () => gate,
    });
    const file = fleetDir('agents:\n  - name: gamma\n    status: paused\n');
    const cli = cliFor(() => svc);

    const r = await cli(['apply', '-f', file, '--yes', '--timeout', '1']);
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('Not done (2): launch gamma, pause gamma\n');
    expect(r.stderr).toContain('the request may have reached the service and was not repeated');
    release();
    for (let i = 0; i < 500 && !(await names(svc)).includes('gamma'); i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await names(svc)).toEqual(['gamma']);
    // the one launch held, sent once (recorded if its answer went out at all)
    expect(writes(svc).filter((w) => w !== 'POST /v1/superagents')).toEqual([]);

    const again = await cli(['apply', '-f', file, '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(writes(svc)).toEqual(['POST /v1/superagents/ID/pause']);
    expect(await names(svc)).toEqual(['gamma']);
  });
});

describe('the rate budget', () => {
  it('a 10-agent fleet: launched, then every field of every agent changed, without one 429', async () => {
    const clock = new FakeClock();
    // the service's limiter runs on the same fake clock: 60 requests in a fake minute, then 429
    const svc = await t.service({ rateLimit: 60, rateClock: () => clock.now() });
    const cli = cliFor(() => svc, { clock });
    const agents = Array.from({ length: 10 }, (_, i) => `agent-${i}`);
    const yaml = (round: number) =>
      'agents:\n' +
      agents
        .map((name, i) =>
          [
            `  - name: ${name}`,
            `    description: round ${round}`,
            `    model: ${round === 1 ? 'gpt-4o' : 'grok-4'}`,
            `    soul: souls/${name}-${round}.md`,
            `    skills: { enabled: [${round === 1 ? 'market-intel' : 'hyperliquid'}] }`,
            `    status: ${(i + round) % 2 === 0 ? 'paused' : 'running'}`,
          ].join('\n'),
        )
        .join('\n') +
      '\n';
    const souls = (round: number) =>
      Object.fromEntries(agents.map((name) => [`${name}-${round}`, `# ${name}\nRound ${round}.\n`]));

    const first = await cli(['apply', '-f', fleetDir(yaml(1), souls(1)), '--yes']);
    expect(first.code, first.stderr).toBe(0);
    expect(svc.cliRequests().length).toBeLessThanOrEqual(60);
    await clock.sleep(60_000); // the next run starts in a fresh minute of the service's
    clock.slept = [];

    const file = fleetDir(yaml(2), souls(2));
    const second = await cli(['apply', '-f', file, '--yes']);
    expect(second.code, second.stderr).toBe(0);
    const requests = svc.exchanges.filter((e) => e.userAgent?.startsWith('superagent/'));
    // 21 reads (list, 10 souls, 10 skill lists) and 6 steps of at most 1 write and 1 read-back each: over 60
    expect(requests.length).toBe(81);
    expect(requests.filter((e) => e.status === 429)).toEqual([]);
    // it waited for the minute to turn, said so on stderr, and never more than that
    expect(clock.slept.length).toBeGreaterThan(0);
    expect(clock.slept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(60_000);
    expect(second.stderr).toMatch(
      /Waiting \d+ s to stay within the service's limit of requests a minute \(\d+ steps? to go\)\n/,
    );
    expect(second.stdout).toContain(
      "50 steps, at most 81 requests in all (the plan's 21 included; retries not " +
        'counted); at 60 requests a minute, that takes at least 1 minute.\n',
    );
    expect(second.stdout).toContain('Applied 50 steps (81 requests).\n');
    svc.cliRequests();
    expect((await cli(['plan', '-f', file, '--detailed-exit-code'])).code).toBe(0);
  });
});

describe('checked before the first write', () => {
  it(
    'the account limit: 9 live agents and 2 new ones in the file ' +
      'is exit 6 (a conflict, not a bad key), nothing launched',
    async () => {
      const svc = await t.service();
      for (let i = 0; i < 9; i++) await launchAgent(svc, { name: `a${i}` });
      const live = Array.from({ length: 9 }, (_, i) => `  - name: a${i}\n    description: changed\n`).join('');
      const file = fleetDir(`agents:\n${live}  - name: b1\n  - name: b2\n`);
      const r = await cliFor(() => svc)(['apply', '-f', file, '--yes']);
      expect(r.code).toBe(6);
      const limit = 'Error: Agent limit reached (10): the service has 9 live agents and the file adds 2';
      expect(r.stderr).toContain(`${limit} (free a slot: superagent destroy <agent>`);
      expect(writes(svc)).toEqual([]);
    },
  );

  it(
    'a bot token comes from its variable only: launched with ' + 'it, never printed; unset is exit 2 before any write',
    async () => {
      const svc = await t.service();
      await launchAgent(svc, { name: 'alpha' });
      const file = fleetDir(
        'agents:\n  - name: alpha\n    description: changed\n  - name: bot\n    bot_token_env: BOT_TOKEN_FOR_FLEET\n',
      );
      const cli = cliFor(() => svc);

      const unset = await cli(['apply', '-f', file, '--yes']);
      expect(unset.code).toBe(2);
      expect(unset.stderr).toMatch(
        /superagents\.yaml:5:20: BOT_TOKEN_FOR_FLEET is not set, and bot is launched with the bot token it holds/,
      );
      expect(writes(svc)).toEqual([]);
      const bad = await cli(['apply', '-f', file, '--yes'], { env: { BOT_TOKEN_FOR_FLEET: 'not-a-token' } });
      expect(bad.stderr).toContain('the value of BOT_TOKEN_FOR_FLEET is not a valid Telegram bot token');
      expect(bad.stderr).not.toContain('not-a-token');

      const r = await cli(['apply', '-f', file, '--yes', '--debug'], { env: { BOT_TOKEN_FOR_FLEET: BOT_TOKEN } });
      expect(r.code, r.stderr).toBe(0);
      const launch = svc.exchanges.find((e) => e.method === 'POST' && e.path === '/v1/superagents')!;
      expect(JSON.parse(launch.requestBody!).telegram_bot_token).toBe(BOT_TOKEN);
      expect(JSON.parse(launch.responseBody).bot_username).toEqual(expect.any(String));
      expect(r.stdout + r.stderr).not.toContain(BOT_SECRET);
      expect(r.stderr).toContain('"telegram_bot_token":"7123456789:…"'); // the trace ran, masked
      const json = await cli(['plan', '-f', file, '--json'], { env: { BOT_TOKEN_FOR_FLEET: BOT_TOKEN } });
      expect(json.stdout).not.toContain(BOT_SECRET);
    },
  );
});

describe('a bot token from the environment is checked by plan too', () => {
  it('unset or malformed: plan and apply say where, exit 2, before any plan is printed or write sent', async () => {
    const svc = await t.service();
    const file = fleetDir('agents:\n  - name: sol-swing\n    bot_token_env: SOL_SWING_BOT_TOKEN\n');
    const cli = cliFor(() => svc);
    const where = /^Error: .*superagents\.yaml:3:20: /;
    for (const env of [{}, { SOL_SWING_BOT_TOKEN: 'not-a-token' }]) {
      for (const words of [
        ['plan', '-f', file],
        ['plan', '-f', file, '--json'],
        ['apply', '-f', file, '--yes'],
      ]) {
        const r = await cli(words, { env });
        expect([r.code, r.stdout], words.join(' ')).toEqual([2, '']);
        expect(r.stderr).toMatch(where);
        expect(r.stderr).not.toContain('not-a-token');
      }
    }
    expect(writes(svc)).toEqual([]);
    const ok = await cli(['plan', '-f', file], { env: { SOL_SWING_BOT_TOKEN: BOT_TOKEN } });
    expect([ok.code, ok.stderr]).toEqual([0, '']);
    expect(ok.stdout).toContain('    bot token: from $SOL_SWING_BOT_TOKEN\n');
  });
});

describe('on a terminal', () => {
  it('progress goes to stderr, a ✓ line per step; stdout holds the plan alone', async () => {
    const svc = await t.service();
    const file = fleetDir('agents:\n  - name: delta\n    status: paused\n');
    const r = await cliFor(() => svc)(['apply', '-f', file, '--yes'], { tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      "+ delta: launch\n    model: claude-sonnet-4-20250514 (anthropic)\n    soul: the service's " +
        'default\n    status: paused (paused after the launch)\nPlan: 1 to launch.\n',
    );
    expect(r.stderr).toContain(
      "2 steps, at most 5 requests in all (the plan's 1 included; retries not " +
        'counted).\n✓ launch delta\n✓ pause delta\n✓ Applied 2 steps to ',
    );
  });
});

describe('a name in a step line', () => {
  const KEY_BODY = 'Q1w2E3r4T5y6U7i8O9p0';

  it('shows a key in it masked, piped and on a terminal', async () => {
    const svc = await t.service();
    const file = fleetDir(`agents:\n  - name: ci-SA_SK_${KEY_BODY}\n`);
    const cli = cliFor(() => svc);
    const piped = await cli(['apply', '-f', file, '--yes']);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toContain('[1/1] launch ci-SA_SK_…O9p0: done\n');
    const again = fleetDir(`agents:\n  - name: ci-SA_SK_${KEY_BODY}\n    status: paused\n`);
    const tty = await cli(['apply', '-f', again, '--yes'], { tty: true });
    expect(tty.stderr).toContain('✓ pause ci-SA_SK_…O9p0\n');
    expect(piped.stdout + piped.stderr + tty.stdout + tty.stderr).not.toContain(KEY_BODY);
  });

  it('from the service (a prune): its controls, tab and line break shown, in the plan and the steps', async () => {
    const evil = { agent_id: randomUUID(), name: `ev\u001b[2Jil\n[9/9] fake\tgb_sk_${KEY_BODY}`, status: 'running' };
    const mock = await startHostedMock(({ method, path: p }) => {
      if (method === 'GET' && p === '/v1/superagents') return { json: { agents: [evil] } };
      const gone = { agent_id: evil.agent_id, status: 'destroyed' };
      if (method === 'DELETE' && p === `/v1/superagents/${evil.agent_id}`) return { json: gone };
      return undefined;
    });
    t.closeAfter(mock);
    const target = { url: mock.url, key: 'gb_sk_live_4f8a2b9c1d3e5f7a9b0c' };
    const r = await runLine(target, ['apply', '-f', fleetDir('agents: []\n'), '--prune', '--yes', '--abandon-funds']);
    expect(r.code, r.stderr).toBe(0);
    const shown = 'ev^[[2Jil^J[9/9] fake^Igb_sk_…O9p0';
    expect(r.stdout).toContain(`- ${shown} (${evil.agent_id.slice(0, 8)}): destroy (not in the file)\n`);
    expect(r.stdout).toContain(`[1/1] destroy ${shown}: done\n`);
    expect(r.stdout + r.stderr).not.toContain(KEY_BODY);
  });
});
