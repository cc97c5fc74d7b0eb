// The paper Hyperliquid account of each agent launched on the embedded service: funded at launch,
// traded by a running agent with the hyperliquid skill as the (fake) service clock moves, held
// while paused, gone when destroyed, kept across restarts of the service.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { launchAgent } from '../helpers/service.js';
import { perTest } from '../helpers/service-support.js';
import { agentPath } from '../helpers/superagent-fixtures.js';
import { fakeClock, hlInfo, untilPositions, withHyperliquid } from '../helpers/sim.js';

const t = perTest();

const allTime = (portfolio: any[]) => portfolio.find(([name]) => name === 'allTime')[1];
const positionsOf = (state: any) => state.assetPositions.map(({ position: p }: any) => [p.coin, p.szi, p.entryPx]);

describe('the paper account', () => {
  it('a launched agent has 10000 USDC of account value on its simulated Hyperliquid, read without a key', async () => {
    const svc = await t.service({ simClock: fakeClock().now });
    const { wallet_address } = await launchAgent(svc, { name: 'Funded' });
    const state = await hlInfo(svc, 'clearinghouseState', wallet_address);
    const summary = { accountValue: '10000.0', totalNtlPos: '0.0', totalRawUsd: '10000.0', totalMarginUsed: '0.0' };
    expect(state.marginSummary).toEqual(summary);
    expect(state.crossMarginSummary).toEqual(state.marginSummary);
    expect(state.withdrawable).toBe('10000.0');
    expect(state.assetPositions).toEqual([]);
    expect(typeof state.time).toBe('number');
    expect(await hlInfo(svc, 'spotClearinghouseState', wallet_address)).toEqual({ balances: [] });
  });

  it('the paper balance is a server option', async () => {
    const svc = await t.service({ simClock: fakeClock().now, paperBalanceUsd: 250.5 });
    const { wallet_address } = await launchAgent(svc, { name: 'Small' });
    expect((await hlInfo(svc, 'clearinghouseState', wallet_address)).marginSummary.accountValue).toBe('250.5');
  });

  it('an address that is no agent answers as an empty account', async () => {
    const svc = await t.service({ simClock: fakeClock().now });
    const user = '0x' + '12'.repeat(20);
    const state = await hlInfo(svc, 'clearinghouseState', user);
    expect(state.marginSummary.accountValue).toBe('0.0');
    expect(state.assetPositions).toEqual([]);
    expect(await hlInfo(svc, 'openOrders', user)).toEqual([]);
    const portfolio = await hlInfo(svc, 'portfolio', user);
    const periods = ['day', 'week', 'month', 'allTime', 'perpDay', 'perpWeek', 'perpMonth', 'perpAllTime'];
    expect(portfolio.map(([name]: [string]) => name)).toEqual(periods);
    expect(allTime(portfolio)).toEqual({ accountValueHistory: [], pnlHistory: [], vlm: '0.0' });
  });

  it('a running agent with the hyperliquid skill trades as simulated time passes: positions, orders', async () => {
    const clock = fakeClock();
    const svc = await t.service({ simClock: clock.now });
    const { wallet_address: user } = await withHyperliquid(svc);
    const before = allTime(await hlInfo(svc, 'portfolio', user)).accountValueHistory.length;
    const state = await untilPositions(svc, clock, user);
    const position = state.assetPositions[0];
    expect(position.type).toBe('oneWay');
    expect(position.position.szi).toMatch(/^-?\d+\.\d+$/);
    expect(position.position.leverage.type).toBe('cross');
    // the default soul says "Never use more than 3x leverage"
    expect(position.position.leverage.value).toBeLessThanOrEqual(3);
    let sawOrder = false;
    for (let i = 0; i < 60 && !sawOrder; i++) {
      clock.advance(60);
      sawOrder = (await hlInfo(svc, 'openOrders', user)).length > 0;
    }
    expect(sawOrder).toBe(true);
    const history = allTime(await hlInfo(svc, 'portfolio', user));
    expect(history.accountValueHistory.length).toBeGreaterThan(before + 10);
    expect(history.pnlHistory.length).toBe(history.accountValueHistory.length);
    expect(Number(history.vlm)).toBeGreaterThan(0);
  });

  it('an agent without the hyperliquid skill (off by default) does not trade', async () => {
    const clock = fakeClock();
    const svc = await t.service({ simClock: clock.now });
    const { wallet_address: user } = await launchAgent(svc, { name: 'Idle' });
    clock.advance(3_000);
    const state = await hlInfo(svc, 'clearinghouseState', user);
    expect(state.assetPositions).toEqual([]);
    expect(state.marginSummary.accountValue).toBe('10000.0');
  });

  it('a paused agent keeps its positions and stops trading; resumed, it trades again', async () => {
    const clock = fakeClock();
    const svc = await t.service({ simClock: clock.now });
    const { agent_id, wallet_address: user } = await withHyperliquid(svc);
    await untilPositions(svc, clock, user);
    expect((await svc.call('POST', `${agentPath(agent_id)}/pause`)).status).toBe(200);
    const held = positionsOf(await hlInfo(svc, 'clearinghouseState', user));
    const vlm = allTime(await hlInfo(svc, 'portfolio', user)).vlm;
    clock.advance(3_000);
    const later = await hlInfo(svc, 'clearinghouseState', user);
    expect(positionsOf(later)).toEqual(held);
    expect(allTime(await hlInfo(svc, 'portfolio', user)).vlm).toBe(vlm);
    expect((await svc.call('POST', `${agentPath(agent_id)}/resume`)).status).toBe(200);
    clock.advance(3_000);
    expect(allTime(await hlInfo(svc, 'portfolio', user)).vlm).not.toBe(vlm);
  });

  it('destroying the agent removes its account', async () => {
    const clock = fakeClock();
    const svc = await t.service({ simClock: clock.now });
    const { agent_id, wallet_address: user } = await withHyperliquid(svc);
    await untilPositions(svc, clock, user);
    expect((await svc.call('DELETE', agentPath(agent_id))).status).toBe(200);
    const state = await hlInfo(svc, 'clearinghouseState', user);
    expect(state.marginSummary.accountValue).toBe('0.0');
    expect(state.assetPositions).toEqual([]);
    expect(allTime(await hlInfo(svc, 'portfolio', user)).accountValueHistory).toEqual([]);
  });

  it('the account is kept in the data dir: a restarted service answers the same', async () => {
    const clock = fakeClock();
    const first = await t.service({ simClock: clock.now });
    const { wallet_address: user } = await withHyperliquid(first);
    const state = await untilPositions(first, clock, user);
    await first.close();
    const again = await t.serviceOn(first.dataDir, { simClock: clock.now });
    expect(await hlInfo(again, 'clearinghouseState', user)).toEqual(state);
  });

  it('an agent from a store written before paper accounts gets one at start-up, with the paper balance', async () => {
    const clock = fakeClock();
    const first = await t.service({ simClock: clock.now });
    const { wallet_address: user } = await withHyperliquid(first, 'Old Timer');
    await first.close();
    // what an older version left: the agent, and no simulation records at all
    const simDir = fs.readdirSync(first.dataDir, { recursive: true, encoding: 'utf8' }).find((f) => /sim$/.test(f));
    fs.rmSync(path.join(first.dataDir, simDir!), { recursive: true });
    const again = await t.serviceOn(first.dataDir, { simClock: clock.now, paperBalanceUsd: 500 });
    expect((await hlInfo(again, 'clearinghouseState', user)).marginSummary.accountValue).toBe('500.0');
    expect(allTime(await hlInfo(again, 'portfolio', user)).accountValueHistory).toHaveLength(1);
    // and it trades like any other
    await untilPositions(again, clock, user);
  });

  it('portfolio periods nest: day in week in month in allTime, each from its first point, in order', async () => {
    const clock = fakeClock();
    const svc = await t.service({ simClock: clock.now });
    const { wallet_address: user } = await withHyperliquid(svc);
    for (let i = 0; i < 9; i++) {
      clock.advance(480); // three market days, read every eight hours
      await hlInfo(svc, 'clearinghouseState', user);
    }
    const periods = Object.fromEntries(await hlInfo(svc, 'portfolio', user));
    const names = ['day', 'week', 'month', 'allTime'];
    const histories = names.map((name) => periods[name].accountValueHistory);
    const now = clock.now();
    expect(histories[0][0][0]).toBeGreaterThanOrEqual(now - 86_400_000);
    expect(histories[0].length).toBeGreaterThan(90); // a point every 15 market minutes
    for (let i = 1; i < names.length; i++) {
      expect(histories[i].slice(-histories[i - 1].length)).toEqual(histories[i - 1]);
    }
    for (const name of names) {
      const { accountValueHistory: values, pnlHistory: pnl } = periods[name];
      const times = values.map(([time]: [number]) => time);
      expect(times).toEqual([...times].sort((x: number, y: number) => x - y));
      expect(new Set(times).size).toBe(times.length);
      expect(times.at(-1)).toBe(now);
      expect(pnl[0][1]).toBe('0.0');
      expect(Number(pnl.at(-1)[1])).toBeCloseTo(Number(values.at(-1)[1]) - Number(values[0][1]), 5);
      expect(periods[`perp${name[0].toUpperCase()}${name.slice(1)}`]).toEqual(periods[name]);
    }
  });

  it('restarted at speeds 1, 600, 1, 600, 10: every period lists each time once, in order, none ahead', async () => {
    const clock = fakeClock();
    const first = await t.service({ simClock: clock.now });
    const { wallet_address: user } = await withHyperliquid(first);
    let svc = first;
    for (const simSpeed of [600, 1, 600, 10]) {
      clock.advance(15); // a point at the slower pace lands within the faster walk's span
      await hlInfo(svc, 'clearinghouseState', user);
      await svc.close();
      svc = await t.serviceOn(first.dataDir, { simClock: clock.now, simSpeed });
      clock.advance(0.5);
      for (const [, { accountValueHistory: values }] of await hlInfo(svc, 'portfolio', user)) {
        const times = values.map(([time]: [number]) => time);
        for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1]);
        expect(times.at(-1)).toBe(clock.now());
      }
    }
  });

  it('a history kept out of order (a store written before this was handled) is repaired on the next read', async () => {
    const clock = fakeClock();
    const first = await t.service({ simClock: clock.now });
    const { wallet_address: user } = await withHyperliquid(first);
    clock.advance(60);
    await hlInfo(first, 'clearinghouseState', user);
    await first.close();
    const file = fs
      .readdirSync(first.dataDir, { recursive: true, encoding: 'utf8' })
      .find((f) => f.includes(`paper.${user.toLowerCase()}`));
    const kept = JSON.parse(fs.readFileSync(path.join(first.dataDir, file!), 'utf8'));
    const history = kept.record.paper.history;
    kept.record.paper.history = [...history, history[1], [clock.now() + 1e9, 1, 0]];
    fs.writeFileSync(path.join(first.dataDir, file!), JSON.stringify(kept));
    const again = await t.serviceOn(first.dataDir, { simClock: clock.now });
    const { accountValueHistory } = allTime(await hlInfo(again, 'portfolio', user));
    const times = accountValueHistory.map(([time]: [number]) => time);
    // the last kept point is at now (60 minutes: a point every 15): each time once, none ahead
    expect(times).toEqual(history.map(([time]: [number]) => time));
    expect(times.at(-1)).toBe(clock.now());
  });

  it('a clock jump of 10000 steps and one of years are answered, the history bounded', async () => {
    const clock = fakeClock();
    const svc = await t.service({ simClock: clock.now });
    const { wallet_address: user } = await withHyperliquid(svc);
    clock.advance(10_000);
    expect((await hlInfo(svc, 'clearinghouseState', user)).marginSummary.accountValue).toMatch(/^\d+\.\d+$/);
    clock.advance(5 * 365 * 24 * 60);
    await hlInfo(svc, 'clearinghouseState', user);
    expect(allTime(await hlInfo(svc, 'portfolio', user)).accountValueHistory.length).toBeLessThanOrEqual(601);
  });

  it('allMids quotes every simulated coin as a decimal string', async () => {
    const svc = await t.service({ simClock: fakeClock().now });
    const mids = await hlInfo(svc, 'allMids');
    for (const coin of ['BTC', 'ETH', 'SOL', 'HYPE', 'BONK', 'PEPE', 'POL', 'BNB'])
      expect(mids[coin]).toMatch(/^\d+\.\d+$/);
  });

  it('a request Hyperliquid would not understand is refused with 422', async () => {
    const svc = await t.service({ simClock: fakeClock().now });
    const bodies = [
      { type: 'userFills', user: '0x' + '1'.repeat(40) },
      { type: 'clearinghouseState', user: 'nobody' },
      { type: 'openOrders' },
    ];
    for (const body of bodies) {
      expect((await svc.call('POST', '/sim/hyperliquid/info', { body, key: null })).status).toBe(422);
    }
  });
});
