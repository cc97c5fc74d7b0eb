// Destroying an agent that still holds money (destroy, apply --prune): what it holds is read from the
// embedded service's simulated chains first; funds, open positions or orders, or an amount without a
// price refuse it (exit 6), a source not read with nothing known refuses it too (exit 7), and
// --abandon-funds lets it go, saying what is left behind. And pause: what the paused agents left open.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerOptions } from '../../src/server/index.js';
import { runLine, SOURCES_OFF, type RunOptions } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent, type TestService } from '../helpers/service.js';
import { fakeClock, untilPositions, withHyperliquid } from '../helpers/sim.js';

const t = perTest();
/** a port nothing listens on: a source pointed there is not read */
const UNREAD = 'http://127.0.0.1:1';

async function service(options: Partial<ServerOptions> = {}) {
  const svc = await t.service(options);
  const cli = (argv: string | string[], o: RunOptions = {}) => runLine(svc, argv, o);
  return { svc, cli };
}

async function statusOf(svc: TestService, id: string): Promise<string | number> {
  const r = await svc.call('GET', `/v1/superagents/${id}`);
  return r.status === 200 ? r.json.status : r.status;
}

/** An agent with at least one open position on its simulated Hyperliquid (the paper balance is its margin). */
async function trader(svc: TestService, clock: ReturnType<typeof fakeClock>, name: string) {
  const agent = await withHyperliquid(svc, name);
  await untilPositions(svc, clock, agent.wallet_address);
  return agent;
}

/** A fleet file of no agent: with --prune, every agent on the service is to be destroyed. */
function emptyFleet(): string {
  const dir = t.scratch('superagent-prune-funds-');
  fs.writeFileSync(path.join(dir, 'superagents.yaml'), 'agents: []\n');
  return path.join(dir, 'superagents.yaml');
}

/** the embedded service's paper money: only abandoning it is left */
const REFUSED = '; it is paper money: pass --abandon-funds to destroy it\n';
/** money the agent may really hold: what to do to get it out */
const MOVE_OUT =
  '; close its positions and move its funds out first (the agent can do it when asked, or the dashboard), ' +
  'or pass --abandon-funds\n';

describe('destroy reads what the agent holds first', () => {
  it('the paper balance refuses it (exit 6), naming the sum and where it is; nothing is destroyed', async () => {
    const { svc, cli } = await service();
    const { agent_id } = await launchAgent(svc, { name: 'demo' });
    const r = await cli('destroy demo --yes');
    expect(r).toMatchObject({ code: 6, stdout: '' });
    expect(r.stderr).toBe(`Error: demo holds $10,000.00: $10,000 on Hyperliquid${REFUSED}`);
    expect(await statusOf(svc, agent_id)).toBe('running');
  });

  it('an open position is named, with its side, size and profit', async () => {
    const clock = fakeClock();
    const { svc, cli } = await service({ simClock: clock.now });
    const { agent_id } = await trader(svc, clock, 'scalper');
    const r = await cli('destroy scalper --yes');
    expect(r.code).toBe(6);
    const position = String.raw`\w+ (long|short) [\d.]+, [+-]\$[\d.]+`;
    const dollars = String.raw`-?\$[\d,.]+`;
    const holds = String.raw`^Error: scalper holds ${dollars}: ${dollars} on Hyperliquid with \d+ open positions?`;
    expect(r.stderr).toMatch(new RegExp(`${holds} \\(${position}(; [^)]*)?\\)`));
    expect(r.stderr.endsWith(REFUSED)).toBe(true);
    expect(await statusOf(svc, agent_id)).toBe('running');
  });

  it('an amount without a price counts, however small its dollar value', async () => {
    const { svc, cli } = await service({ paperBalanceUsd: 0 });
    const { agent_id, wallet_address } = await launchAgent(svc, { name: 'dusty' });
    await svc.seedHoldings(wallet_address, { chain: 'bsc', asset: 'BNB', amount: '0.25' });
    // no prices to be had: Hyperliquid, which quotes them, switched off
    const r = await cli('destroy dusty --yes', { env: { SUPERAGENT_HYPERLIQUID_URL: 'off' } });
    expect([r.code, r.stderr]).toEqual([6, `Error: dusty holds $0.00: 0.25 BNB on bsc${REFUSED}`]);
    expect(await statusOf(svc, agent_id)).toBe('running');
  });

  it('piped without --yes: the command suggested keeps --abandon-funds', async () => {
    const { cli } = await service();
    const r = await cli('destroy demo --abandon-funds');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('superagent destroy demo --abandon-funds --yes');
  });

  it('--abandon-funds destroys it, saying on stderr what is left behind', async () => {
    const { svc, cli } = await service();
    const { agent_id } = await launchAgent(svc, { name: 'demo' });
    const r = await cli('destroy demo --yes --abandon-funds');
    expect(r).toEqual({
      code: 0,
      stdout: `${agent_id}\n`,
      stderr: 'Abandoning what demo holds: $10,000.00: $10,000 on Hyperliquid\n',
      asked: [],
    });
    expect(await statusOf(svc, agent_id)).toBe(404);
  });

  it('an agent that holds nothing is destroyed as before, nothing said about funds', async () => {
    const { svc, cli } = await service({ paperBalanceUsd: 0 });
    const { agent_id } = await launchAgent(svc, { name: 'empty' });
    expect(await cli('destroy empty --yes')).toEqual({ code: 0, stdout: `${agent_id}\n`, stderr: '', asked: [] });
    expect(await statusOf(svc, agent_id)).toBe(404);
  });

  it('a source not read, and nothing known: exit 7 naming it; --abandon-funds destroys it all the same', async () => {
    const { svc, cli } = await service({ paperBalanceUsd: 0 });
    const { agent_id } = await launchAgent(svc, { name: 'blind' });
    const env = { SUPERAGENT_RPC_SOLANA: UNREAD };
    const r = await cli('destroy blind --yes', { env });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(
      /^Error: blind: nothing found, but not read: solana \(.+\); try again, or pass --abandon-f/,
    );
    expect(await statusOf(svc, agent_id)).toBe('running');
    const abandoned = await cli('destroy blind --yes --abandon-funds', { env });
    expect(abandoned.code).toBe(0);
    expect(abandoned.stderr).toMatch(/^Abandoning what blind holds: nothing known; not read: solana \(/);
    expect(await statusOf(svc, agent_id)).toBe(404);
  });

  it('a source switched off is a source not read: exit 7 naming it, with the one that failed', async () => {
    const { svc, cli } = await service();
    const { agent_id } = await launchAgent(svc, { name: 'dark' });
    const env = { SUPERAGENT_HYPERLIQUID_URL: 'off', SUPERAGENT_RPC_SOLANA: UNREAD };
    const r = await cli('destroy dark --yes', { env });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(
      /^Error: dark: nothing found, but not read: hyperliquid \(switched off\), solana \(.+\); /,
    );
    expect(r.stderr).toMatch(
      /; try again, unset SUPERAGENT_HYPERLIQUID_URL to read hyperliquid, or pass --abandon-funds to destroy it an/,
    );
    expect(await statusOf(svc, agent_id)).toBe('running');
  });

  it('only a source switched off: says how to switch it on, not to try again', async () => {
    const { svc, cli } = await service({ paperBalanceUsd: 0 });
    await launchAgent(svc, { name: 'dim' });
    const r = await cli('destroy dim --yes', { env: { SUPERAGENT_HYPERLIQUID_URL: 'off' } });
    expect([r.code, r.stderr]).toEqual([
      7,
      'Error: dim: nothing found, but not read: hyperliquid (switched off); unset SUPERAGENT_HYPERLIQUID_URL ' +
        'to read hyperliquid, or pass --abandon-funds to destroy it anyway\n',
    ]);
  });

  it('every source switched off: exit 7 naming them all; --abandon-funds destroys it, saying so', async () => {
    const { svc, cli } = await service();
    const { agent_id } = await launchAgent(svc, { name: 'unlit' });
    const env = SOURCES_OFF;
    const r = await cli('destroy unlit --yes', { env });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('unlit: nothing found, but not read: every source is switched off; ');
    expect(await statusOf(svc, agent_id)).toBe('running');
    const abandoned = await cli('destroy unlit --yes --abandon-funds', { env });
    expect(abandoned.code).toBe(0);
    expect(abandoned.stderr).toMatch(/^Abandoning what unlit holds: nothing read \(every source is switched off\)/);
    expect(await statusOf(svc, agent_id)).toBe(404);
  });

  it('known funds win over a source not read: exit 6', async () => {
    const { svc, cli } = await service();
    await launchAgent(svc, { name: 'demo' });
    const r = await cli('destroy demo --yes', { env: { SUPERAGENT_RPC_SOLANA: UNREAD } });
    expect(r.code).toBe(6);
    expect(r.stderr).toBe(`Error: demo holds $10,000.00: $10,000 on Hyperliquid${MOVE_OUT}`);
  });

  it('money read from an endpoint of the user’s own is not paper money: says how to move it out', async () => {
    const { svc, cli } = await service({ paperBalanceUsd: 0 });
    const { wallet_address } = await launchAgent(svc, { name: 'real' });
    await svc.seedHoldings(wallet_address, { chain: 'base', asset: 'USDC', amount: '25' });
    const r = await cli('destroy real --yes', { env: { SUPERAGENT_RPC_BASE: `${svc.url}/sim/evm/base` } });
    expect([r.code, r.stderr]).toEqual([6, `Error: real holds $25.00: 25 USDC on base${MOVE_OUT}`]);
  });

  it('on a terminal with --abandon-funds the holdings are said once, and the question asks no withdrawal', async () => {
    const { svc, cli } = await service();
    const { agent_id } = await launchAgent(svc, { name: 'demo' });
    const r = await cli('destroy demo --abandon-funds', { tty: true, answers: ['demo'] });
    expect(r.stderr).toContain('Abandoning what demo holds: $10,000.00: $10,000 on Hyperliquid\n');
    expect(r.asked).toEqual(['Destroying demo cannot be undone, and what it holds is lost. Type its name to confirm:']);
    expect(r.code).toBe(0);
    expect(await statusOf(svc, agent_id)).toBe(404);
  });
});

describe('apply --prune reads each agent it would destroy, before destroying any', () => {
  it('refused when one holds funds: exit 6 naming it, and no agent destroyed', async () => {
    const { svc, cli } = await service({ paperBalanceUsd: 0 });
    const empty = await launchAgent(svc, { name: 'empty' });
    const rich = await launchAgent(svc, { name: 'rich' });
    await svc.seedHoldings(rich.wallet_address, { chain: 'base', asset: 'USDC', amount: '25' });
    const r = await cli(['apply', '-f', emptyFleet(), '--prune', '--yes']);
    expect(r.code).toBe(6);
    expect(r.stderr).toContain(`Error: rich holds $25.00: 25 USDC on base${REFUSED}`);
    expect(await statusOf(svc, empty.agent_id)).toBe('running');
    expect(await statusOf(svc, rich.agent_id)).toBe('running');
  });

  it('--abandon-funds prunes them, saying what each left behind', async () => {
    const { svc, cli } = await service();
    const a = await launchAgent(svc, { name: 'a1' });
    const b = await launchAgent(svc, { name: 'b2' });
    const r = await cli(['apply', '-f', emptyFleet(), '--prune', '--yes', '--abandon-funds']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Abandoning what a1 holds: $10,000.00: $10,000 on Hyperliquid\n');
    expect(r.stderr).toContain('Abandoning what b2 holds: $10,000.00: $10,000 on Hyperliquid\n');
    expect([await statusOf(svc, a.agent_id), await statusOf(svc, b.agent_id)]).toEqual([404, 404]);
  });

  it('on a terminal with --abandon-funds the name question does not say withdraw again', async () => {
    const { svc, cli } = await service();
    await launchAgent(svc, { name: 'a1' });
    const r = await cli(['apply', '-f', emptyFleet(), '--prune', '--abandon-funds'], {
      tty: true,
      answers: [true, 'a1'],
    });
    expect(r.code).toBe(0);
    expect(r.asked.at(-1)).toBe('Destroying a1 cannot be undone, and what it holds is lost. Type its name to confirm:');
  });
});

describe('plan --prune says what apply --prune will refuse, read as apply reads it', () => {
  const plan = (cli: (argv: string[], o?: RunOptions) => Promise<unknown>, ...more: string[]) =>
    cli(['plan', '-f', emptyFleet(), '--prune', ...more]) as ReturnType<typeof runLine>;

  it('an agent holding funds: a note in the plan, then exit 6 as apply would; nothing destroyed', async () => {
    const { svc, cli } = await service({ paperBalanceUsd: 0 });
    const rich = await launchAgent(svc, { name: 'rich' });
    await svc.seedHoldings(rich.wallet_address, { chain: 'base', asset: 'USDC', amount: '25' });
    const r = await plan(cli, '--detailed-exit-code');
    expect(r.code).toBe(6);
    expect(r.stdout).toContain(
      'note: rich: holds $25.00: 25 USDC on base; apply --prune will refuse it unless --abandon-funds\n',
    );
    // plan destroys nothing: the way on is apply's
    expect(r.stderr).toBe(
      'Error: rich holds $25.00: 25 USDC on base; it is paper money: apply --prune --abandon-funds destroys it\n',
    );
    expect(await statusOf(svc, rich.agent_id)).toBe('running');
  });

  it("--json: the note is that agent's notes; one whose holdings cannot be read exits 7", async () => {
    const { svc, cli } = await service({ paperBalanceUsd: 0 });
    const blind = await launchAgent(svc, { name: 'blind' });
    const r = await plan(cli, '--json');
    expect(r.code).toBe(0); // nothing held, every source read
    expect(JSON.parse(r.stdout).agents).toEqual([expect.objectContaining({ name: 'blind', notes: [] })]);
    const unread = await cli(['plan', '-f', emptyFleet(), '--prune', '--json'], {
      env: { SUPERAGENT_RPC_SOLANA: UNREAD },
    });
    expect(unread.code).toBe(7);
    const agent = JSON.parse(unread.stdout).agents[0];
    expect(agent).toMatchObject({ agent_id: blind.agent_id, action: 'destroy' });
    expect(agent.notes).toEqual([
      expect.stringMatching(
        /^nothing found, but not read: solana \(.+\); apply --prune will refuse it unless --abandon-funds$/,
      ),
    ]);
    expect(unread.stderr).toMatch(/^Error: blind: nothing found, but not read: solana/);
  });

  it('--abandon-funds plans as apply --prune --abandon-funds: says what is left behind, exit 0 or 9', async () => {
    const { svc, cli } = await service();
    const { agent_id } = await launchAgent(svc, { name: 'demo' });
    const r = await plan(cli, '--abandon-funds', '--detailed-exit-code');
    expect([r.code, r.stderr]).toEqual([9, '']);
    expect(r.stdout).toContain(
      'note: demo: apply --prune --abandon-funds abandons what it holds: $10,000.00: $10,000 on Hyperliquid\n',
    );
    expect(await statusOf(svc, agent_id)).toBe('running');
  });
});

describe('pause: what the paused agents left open', () => {
  it('pause --all sends every pause first, then says which agents left positions open', async () => {
    const clock = fakeClock();
    const { svc, cli } = await service({ simClock: clock.now });
    const busy = await trader(svc, clock, 'busy');
    const idle = await launchAgent(svc, { name: 'idle' });
    svc.exchanges.splice(0);
    const r = await cli('pause --all');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean).sort()).toEqual(
      [`${busy.agent_id}\tbusy\tpaused\tdone`, `${idle.agent_id}\tidle\tpaused\tdone`].sort(),
    );
    const open = String.raw`\d+ open positions? \(\w+ (long|short) [\d.]+.*\)( and \d+ open orders?)? on Hyperliquid`;
    expect(r.stderr).toMatch(
      new RegExp(
        `^busy is paused with ${open}: a paused agent does not manage them ` +
          `\\(superagent positions busy shows them; superagent resume busy hands them back\\)\n$`,
      ),
    );
    const paths = svc.exchanges.map((e) => `${e.method} ${e.path}`);
    const lastPause = Math.max(...paths.map((p, i) => (p.endsWith('/pause') ? i : -1)));
    const firstRead = paths.findIndex((p) => p.includes('/sim/') || p.endsWith('/wallet'));
    expect(paths.filter((p) => p.endsWith('/pause'))).toHaveLength(2);
    expect(firstRead).toBeGreaterThan(lastPause);
  });

  it('--json rows carry open_positions; null when it could not be read, the pause done all the same', async () => {
    const clock = fakeClock();
    const { svc, cli } = await service({ simClock: clock.now });
    const busy = await trader(svc, clock, 'busy');
    const idle = await launchAgent(svc, { name: 'idle' });
    const r = await cli('pause busy idle --json');
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout);
    expect(rows.map((row: any) => [row.agent_id, row.status])).toEqual([
      [busy.agent_id, 'paused'],
      [idle.agent_id, 'paused'],
    ]);
    expect(rows[0].open_positions).toBeGreaterThan(0);
    expect(rows[1].open_positions).toBe(0);
    // resting orders are said apart: an agent with only orders left must not read as nothing open
    expect(rows.map((row: any) => typeof row.open_orders)).toEqual(['number', 'number']);
    expect(rows[1].open_orders).toBe(0);
    await cli('resume busy idle');
    const unread = await cli('pause busy idle --json', { env: { SUPERAGENT_HYPERLIQUID_URL: UNREAD } });
    expect(unread.code).toBe(0);
    expect(JSON.parse(unread.stdout).map((row: any) => [row.open_positions, row.open_orders])).toEqual([
      [null, null],
      [null, null],
    ]);
    expect(unread.stderr).toMatch(
      /^Open positions not read for busy, idle \(hyperliquid: .*\); the pause itself is done\n$/,
    );
  });
});
