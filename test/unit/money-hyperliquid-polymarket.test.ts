// The Hyperliquid and Polymarket readers (src/api/money/) against recorded answers on loopback.
import { describe, expect, it } from 'vitest';
import { BadAnswerError } from '../../src/core/errors.js';
import {
  readAllMids,
  readHlAccount,
  readHlOrders,
  readHlPortfolio,
  readHlSpot,
} from '../../src/api/money/hyperliquid.js';
import { readPmPositions, readPmValue } from '../../src/api/money/polymarket.js';
import { chainSourcesHarness, EVM_OWNER, fixture } from '../helpers/chain-sources.js';

const start = chainSourcesHarness();

async function rejection(p: Promise<unknown>): Promise<Error> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BadAnswerError);
  expect((err as Error).message).not.toContain('\n');
  return err as Error;
}

describe('Hyperliquid', () => {
  it('reads the perp account, its positions, spot, orders, portfolio and mids', async () => {
    const s = await start();
    const { json } = s.http;
    expect(await readHlAccount(s.hyperliquid, EVM_OWNER, json)).toEqual({
      accountValue: '10050.1',
      withdrawable: '9360.08',
      positions: [
        {
          coin: 'ETH',
          side: 'long',
          size: '1',
          entryPrice: '3400',
          positionValue: '3450.1',
          unrealizedPnl: '50.1',
          leverage: { type: 'cross', value: '5' },
          liquidationPrice: '2731.42',
        },
      ],
    });
    expect(await readHlSpot(s.hyperliquid, EVM_OWNER, json)).toEqual([
      { coin: 'USDC', total: '14.625485', hold: '0' },
      { coin: 'HYPE', total: '2.5', hold: '0' },
      { coin: 'PURR', total: '0', hold: '0' },
    ]);
    const orders = await readHlOrders(s.hyperliquid, EVM_OWNER, json);
    expect(orders.map((o) => [o.coin, o.side, o.price, o.size])).toEqual([
      ['BTC', 'buy', '88000', '0.01'],
      ['ETH', 'sell', '3800', '0.5'],
    ]);
    const portfolio = await readHlPortfolio(s.hyperliquid, EVM_OWNER, json);
    const periods = ['day', 'week', 'month', 'allTime', 'perpDay', 'perpWeek', 'perpMonth', 'perpAllTime'];
    expect(portfolio.map((p) => p.period)).toEqual(periods);
    expect(portfolio[0]!.pnlHistory.at(-1)).toEqual([1764214800000, '50.1']);
    const mids = await readAllMids(s.hyperliquid, json);
    expect(mids.get('ETH')).toBe('3450.1');
    expect(s.asked).toEqual([
      'hyperliquid-clearinghouseState',
      'hyperliquid-spotClearinghouseState',
      'hyperliquid-openOrders',
      'hyperliquid-portfolio',
      'hyperliquid-allMids',
    ]);
  });

  it('a short position reads as short with its size unsigned', async () => {
    const s = await start();
    const state = fixture('hyperliquid-clearinghouseState');
    Object.assign(state.assetPositions[0].position, { szi: '-0.25', liquidationPx: null });
    s.overrides.set('hyperliquid-clearinghouseState', state);
    const [p] = (await readHlAccount(s.hyperliquid, EVM_OWNER, s.http.json)).positions;
    expect(p).toMatchObject({ side: 'short', size: '0.25', liquidationPrice: null });
  });

  it.each([
    [
      'an account value in exponent form',
      (st: any) => (st.marginSummary.accountValue = '1e5'),
      /clearinghouseState accountValue is not a decimal number \("1e5"\)/,
    ],
    [
      'a missing szi',
      (st: any) => delete st.assetPositions[0].position.szi,
      /clearinghouseState ETH szi is not a decimal number/,
    ],
    ['positions that are not a list', (st: any) => (st.assetPositions = {}), /assetPositions is missing or not a list/],
    ['a NaN withdrawable', (st: any) => (st.withdrawable = 'NaN'), /withdrawable is not a decimal number/],
    [
      'a negative account value',
      (st: any) => (st.marginSummary.accountValue = '-50000'),
      /clearinghouseState accountValue is negative \(-50000\)/,
    ],
    ['a negative withdrawable', (st: any) => (st.withdrawable = '-1'), /clearinghouseState withdrawable is negative/],
  ])('fails the source in one line on %s', async (_name, spoil, message) => {
    const s = await start();
    const state = fixture('hyperliquid-clearinghouseState');
    spoil(state);
    s.overrides.set('hyperliquid-clearinghouseState', state);
    const err = await rejection(readHlAccount(s.hyperliquid, EVM_OWNER, s.http.json));
    expect(err.message).toMatch(message);
    expect(err.message.startsWith(new URL(s.hyperliquid).host)).toBe(true);
  });

  it('fails on a malformed mid, an unknown order side and a broken portfolio point', async () => {
    const s = await start();
    s.overrides.set('hyperliquid-allMids', { ETH: '34,50.1' });
    expect((await rejection(readAllMids(s.hyperliquid, s.http.json))).message).toMatch(/allMids ETH is not a decimal/);
    s.overrides.set('hyperliquid-openOrders', [{ ...fixture('hyperliquid-openOrders')[0], side: 'X' }]);
    const orders = await rejection(readHlOrders(s.hyperliquid, EVM_OWNER, s.http.json));
    expect(orders.message).toMatch(/side is neither B nor A/);
    s.overrides.set('hyperliquid-portfolio', [['day', { accountValueHistory: [[1, 'x']], pnlHistory: [], vlm: '0' }]]);
    const err = await rejection(readHlPortfolio(s.hyperliquid, EVM_OWNER, s.http.json));
    expect(err.message).toMatch(/portfolio day accountValueHistory value is not a decimal number \("x"\)/);
  });

  it('fails on a negative spot amount', async () => {
    const s = await start();
    const spot = fixture('hyperliquid-spotClearinghouseState');
    spot.balances[0].total = '-40000';
    s.overrides.set('hyperliquid-spotClearinghouseState', spot);
    const err = await rejection(readHlSpot(s.hyperliquid, EVM_OWNER, s.http.json));
    expect(err.message).toMatch(/spotClearinghouseState USDC total is negative/);
  });

  it.each(['-3000', '0', '0.000'])('fails on a mid price that is not above zero (%s)', async (mid) => {
    const s = await start();
    s.overrides.set('hyperliquid-allMids', { BTC: '88000', ETH: mid });
    const err = await rejection(readAllMids(s.hyperliquid, s.http.json));
    expect(err.message).toMatch(/allMids ETH is not above zero/);
  });

  const day = (points: unknown[]) => [['day', { accountValueHistory: points, pnlHistory: points, vlm: '0' }]];
  const T = 1764214800000;

  it.each([
    ['beyond year 3000', 8.7e15],
    ['zero', 0],
    ['negative', -1],
    ['not whole', T + 0.5],
  ])('fails on a portfolio time %s', async (_name, time) => {
    const s = await start();
    s.overrides.set(
      'hyperliquid-portfolio',
      day([
        [T, '1'],
        [time, '2'],
      ]),
    );
    const err = await rejection(readHlPortfolio(s.hyperliquid, EVM_OWNER, s.http.json));
    expect(err.message).toMatch(/portfolio day accountValueHistory time is not a time in ms/);
  });

  it('sorts a portfolio history sent out of time order', async () => {
    const s = await start();
    s.overrides.set(
      'hyperliquid-portfolio',
      day([
        [T + 300_000, '1'],
        [T, '9'],
        [T + 200_000, '3'],
      ]),
    );
    const [period] = await readHlPortfolio(s.hyperliquid, EVM_OWNER, s.http.json);
    const sorted = [
      [T, '9'],
      [T + 200_000, '3'],
      [T + 300_000, '1'],
    ];
    expect(period).toMatchObject({ accountValueHistory: sorted, pnlHistory: sorted });
  });

  it('fails on a portfolio history with two points at one time (which one holds is unknown)', async () => {
    const s = await start();
    s.overrides.set(
      'hyperliquid-portfolio',
      day([
        [T, '1'],
        [T, '50'],
        [T + 1, '2'],
      ]),
    );
    const err = await rejection(readHlPortfolio(s.hyperliquid, EVM_OWNER, s.http.json));
    expect(err.message).toMatch(new RegExp(`portfolio day accountValueHistory lists time ${T} twice`));
  });
});

describe('Polymarket', () => {
  it('reads the positions and their value', async () => {
    const s = await start();
    expect(await readPmPositions(s.polymarket, EVM_OWNER, s.http.json)).toEqual([
      {
        title: 'Will ETH close above $4,000 on December 31?',
        outcome: 'Yes',
        size: '120.5',
        avgPrice: '0.42',
        curPrice: '0.55',
        currentValue: '66.275',
        cashPnl: '15.665',
      },
    ]);
    expect(await readPmValue(s.polymarket, EVM_OWNER, s.http.json)).toBe('66.275');
  });

  it('a user with nothing has an empty value list: 0', async () => {
    const s = await start();
    s.overrides.set('polymarket-value', []);
    s.overrides.set('polymarket-positions', []);
    expect(await readPmValue(s.polymarket, EVM_OWNER, s.http.json)).toBe('0');
    expect(await readPmPositions(s.polymarket, EVM_OWNER, s.http.json)).toEqual([]);
  });

  it('fails on a value that is a string of words or a position without a size', async () => {
    const s = await start();
    s.overrides.set('polymarket-value', [{ user: EVM_OWNER, value: 'lots' }]);
    const value = await rejection(readPmValue(s.polymarket, EVM_OWNER, s.http.json));
    expect(value.message).toMatch(/value value is not a decimal number \("lots"\)/);
    const positions = fixture('polymarket-positions');
    delete positions[0].size;
    s.overrides.set('polymarket-positions', positions);
    const sizeless = await rejection(readPmPositions(s.polymarket, EVM_OWNER, s.http.json));
    expect(sizeless.message).toMatch(/positions "Will ETH close above \$4,000 on [^"]*" size is not a decimal number/);
  });

  it('fails on the same position listed twice', async () => {
    const s = await start();
    const [position] = fixture('polymarket-positions');
    s.overrides.set('polymarket-positions', [position, { ...position }]);
    const err = await rejection(readPmPositions(s.polymarket, EVM_OWNER, s.http.json));
    expect(err.message).toMatch(/positions "Will ETH close above \$4,000 on [^"]*" Yes is listed twice/);
  });
});
