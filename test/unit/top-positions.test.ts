// The positions view of `top` (src/cli/top/positions-view.ts): read again every interval, a market not
// read again keeps its last figures, marked '*' with the reason and when they were read.
import { describe, expect, it } from 'vitest';
import type { HoldingsResult } from '../../src/api/money/holdings.js';
import { positionsLines, reread } from '../../src/cli/top/positions-view.js';

const T0 = Date.parse('2026-11-22T12:00:00Z');
const hl = { account_value: 1234.5, withdrawable: 0, positions: [], open_orders: [], spot: [] };
const money = (o: Partial<HoldingsResult>): HoldingsResult => ({
  balances: [],
  hyperliquid: null,
  polymarket: null,
  total_usd: 0,
  errors: [],
  partial: false,
  ...o,
});

describe('top positions view', () => {
  it('a market missed by the next read keeps its figures, marked stale with the reason and the read time', () => {
    const first = reread({ state: 'reading' }, money({ hyperliquid: hl }), T0);
    expect(positionsLines('demo', first, 100, T0)[0]).toBe('Positions of demo   read now');
    const missed = money({ errors: [{ source: 'hyperliquid', message: '127.0.0.1 answered 429 (rate limited)' }] });
    const second = reread(first, missed, T0 + 5_000);
    const third = reread(second, missed, T0 + 10_000);
    const lines = positionsLines('demo', third, 100, T0 + 12_000);
    expect(lines[0]).toBe('Positions of demo   read 2s ago');
    expect(lines).toContain(
      'Hyperliquid   account value $1,234.50*   stale: 127.0.0.1 answered 429 (rate limited) (read 12s ago)',
    );
    // read again: the mark goes
    const back = positionsLines('demo', reread(third, money({ hyperliquid: hl }), T0 + 15_000), 100, T0 + 15_000);
    expect(back).toContain('Hyperliquid   account value $1,234.50');
  });
});
