// `superagent positions` and `superagent pnl` against the embedded service's simulation, after its
// paper Hyperliquid account has traded as the (fake) service clock moved.
import { describe, expect, it } from 'vitest';
import { cliFor, MemoryConfig } from '../helpers/context.js';
import { launchAgent } from '../helpers/service.js';
import { perTest } from '../helpers/service-support.js';
import { closedPortUrl, fakeClock, hlInfo, untilPositions, withHyperliquid } from '../helpers/sim.js';

const t = perTest();

/** A service whose agent `trader` holds Hyperliquid positions. */
async function traded() {
  const clock = fakeClock();
  const svc = await t.service({ simClock: clock.now });
  const agent = await withHyperliquid(svc, 'trader');
  const state = await untilPositions(svc, clock, agent.wallet_address);
  return { svc, agent, state, cli: cliFor(() => svc) };
}

describe('positions', () => {
  it('--json: the Hyperliquid positions as the source has them, orders, spot, Polymarket, no errors', async () => {
    const { agent, state, cli } = await traded();
    const r = await cli('positions trader --json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['agent_id', 'hyperliquid', 'polymarket', 'errors', 'switched_off']);
    expect(out.agent_id).toBe(agent.agent_id);
    // the same numbers, written without trailing zeros ("100304.0" is 100304)
    const plain = (n: string) => (n.includes('.') ? n.replace(/\.?0+$/, '') : n);
    const expected = state.assetPositions.map(({ position: p }: any) => ({
      coin: p.coin,
      side: p.szi.startsWith('-') ? 'short' : 'long',
      size: plain(p.szi.replace(/^-/, '')),
      entry_price: plain(p.entryPx),
    }));
    expect(out.hyperliquid.positions.map((p: any) => ({ ...p, ...pick(p) }))).toMatchObject(expected);
    expect(out.hyperliquid.account_value).toBeGreaterThan(0);
    expect(Array.isArray(out.hyperliquid.open_orders)).toBe(true);
    expect(out.polymarket).toEqual({ positions: [], value: 0 });
    expect(out.errors).toEqual([]);
  });

  it('a source it reads switched off is named in one stderr line, as wallet does; the others are not', async () => {
    const svc = await t.service({ simClock: fakeClock().now });
    await launchAgent(svc, { name: 'flat' });
    const cli = cliFor(() => svc);
    const env = { SUPERAGENT_POLYMARKET_URL: 'off', SUPERAGENT_RPC_BASE: 'off' };
    const r = await cli('positions flat', { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('! not read, switched off: polymarket (what is shown leaves it out)\n');
    expect(r.stdout).toMatch(/^account\t/);
    const json = await cli('positions flat --json', { env });
    expect([json.code, json.stderr]).toEqual([0, r.stderr]);
    expect(JSON.parse(json.stdout).polymarket).toBeNull();
    expect(JSON.parse(json.stdout).switched_off).toEqual(['polymarket']);
    const config = new MemoryConfig();
    expect((await cli('config set hyperliquid_url off', { config })).code).toBe(0);
    const none = await cli('positions flat', { config, env: { SUPERAGENT_POLYMARKET_URL: 'off' } });
    expect([none.code, none.stdout]).toEqual([0, '']);
    const off = '! no position was read: hyperliquid and polymarket are switched off (to switch one on, ';
    expect(none.stderr.startsWith(off)).toBe(true);
    expect(none.stderr).toMatch(/config unset hyperliquid_url or polymarket_url\)\n$/);
  });

  it('piped: one row per position, its kind first; on a terminal: the sections', async () => {
    const { state, cli } = await traded();
    const r = await cli('positions trader');
    expect(r.code).toBe(0);
    const rows = r.stdout
      .replace(/\n$/, '')
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows[0]).toEqual(['account', expect.stringMatching(/^\d+\.\d\d$/), expect.stringMatching(/^\d+\.\d\d$/)]);
    const positions = rows.filter((row) => row[0] === 'position');
    expect(positions.map((row) => row[1])).toEqual(state.assetPositions.map((a: any) => a.position.coin));
    expect(positions.filter((row) => row.length !== 9)).toEqual([]);
    const tty = await cli('positions trader', { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toMatch(/Hyperliquid {2}account value \$[\d,]+\.\d\d, withdrawable/);
    expect(tty.stdout).toContain('Positions');
    expect(tty.stdout).toContain('Polymarket  positions worth $0.00');
  });

  it('piped with no position: the account row all the same (account value, withdrawable)', async () => {
    const svc = await t.service({ simClock: fakeClock().now });
    await launchAgent(svc, { name: 'flat' });
    const r = await cliFor(() => svc)('positions flat');
    expect([r.code, r.stdout]).toEqual([0, 'account\t10000.00\t10000.00\n']);
  });

  it('Polymarket failing: Hyperliquid printed, polymarket named, exit 7', async () => {
    const { cli } = await traded();
    const r = await cli('positions trader --json', { env: { SUPERAGENT_POLYMARKET_URL: await closedPortUrl() } });
    expect(r.code).toBe(7);
    const out = JSON.parse(r.stdout);
    expect(out.hyperliquid.positions.length).toBeGreaterThan(0);
    expect(out.polymarket).toBeNull();
    expect(out.errors.map((e: any) => e.source)).toEqual(['polymarket']);
    expect(r.stderr).toMatch(/^polymarket: /m);
  });
});

/** The fields compared with the source's own (the rest are dollars, checked elsewhere). */
const pick = (p: any) => ({ coin: p.coin, side: p.side, size: p.size, entry_price: p.entry_price });

describe('pnl', () => {
  it('--json: the week’s points as Hyperliquid’s portfolio has them, and the change', async () => {
    const { svc, agent, cli } = await traded();
    const week = (await hlInfo(svc, 'portfolio', agent.wallet_address)).find(([n]: [string]) => n === 'week')[1];
    const r = await cli('pnl trader --json');
    expect([r.code, r.stderr]).toEqual([0, '']);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['agent_id', 'period', 'points', 'change_usd']);
    expect(out.period).toBe('week');
    expect(out.points.length).toBe(week.accountValueHistory.length);
    expect(out.points.length).toBeGreaterThan(0);
    const [t0, v0] = week.accountValueHistory[0];
    expect(out.points[0]).toEqual({
      time: new Date(t0).toISOString(),
      account_value: Math.round(Number(v0) * 100) / 100,
      pnl: Math.round(Number(week.pnlHistory[0][1]) * 100) / 100,
    });
    const pnls = week.pnlHistory.map(([, v]: [number, string]) => Number(v));
    expect(out.change_usd).toBeCloseTo(pnls[pnls.length - 1] - pnls[0], 2);
  });

  it('piped: time, account value and pnl per point; on a terminal, a chart and the change', async () => {
    const { cli } = await traded();
    const r = await cli('pnl trader --period all');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z\t-?\d+\.\d\d\t-?\d+\.\d\d$/);
    const tty = await cli('pnl trader', { tty: true });
    expect(tty.code).toBe(0);
    expect(tty.stdout).toMatch(/Account value: {2}\$[\d,]+\.\d\d\n/);
    expect(tty.stdout).toMatch(/PnL \(week\): +[+-]?\$/);
    // the footer's two values start in one column
    const footer = tty.stdout.trimEnd().split('\n').slice(-2);
    expect(footer.map((l) => l.search(/[+-]?\$/))).toEqual([16, 16]);
    expect(tty.stdout.split('\n').length).toBeGreaterThan(8);
  });

  it('Hyperliquid switched off by the profile setting: the hint names the setting', async () => {
    const svc = await t.service({ simClock: fakeClock().now });
    await launchAgent(svc, { name: 'flat' });
    const cli = cliFor(() => svc);
    const config = new MemoryConfig();
    expect((await cli('config set hyperliquid_url off', { config })).code).toBe(0);
    const r = await cli('pnl flat', { config });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('superagent config unset hyperliquid_url');
    expect(r.stderr).not.toContain('SUPERAGENT_HYPERLIQUID_URL');
  });

  it('an unknown period is refused (exit 2)', async () => {
    const { cli } = await traded();
    expect((await cli('pnl trader --period year')).code).toBe(2);
  });
});
