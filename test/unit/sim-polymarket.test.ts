// The paper Polymarket engine (src/server/sim/polymarket.ts): deterministic from the seed, the agent
// and the steps; a few small bets at a time, never more than the cash; prices between 0.02 and 0.98.
import { describe, expect, it } from 'vitest';
import { advancePm, newPmAccount, outcomePrice, PM_MARKETS, type PmContext } from '../../src/server/sim/polymarket.js';

const ctx = (over: Partial<PmContext> = {}): PmContext => ({
  seed: 's',
  who: '0xabc',
  trading: true,
  deposit: 1_000_000_000n,
  ...over,
});

describe('the paper Polymarket account', () => {
  it('the same seed, agent and steps give the same account; another agent bets otherwise', () => {
    const [a, b, c] = [newPmAccount(0), newPmAccount(0), newPmAccount(0)];
    for (const to of [300, 700, 1_500]) {
      advancePm(a, to, ctx());
      advancePm(b, to, ctx());
      advancePm(c, to, ctx({ who: '0xdef' }));
    }
    expect(a).toEqual(b);
    expect(a.positions.length).toBeGreaterThan(0);
    expect(c).not.toEqual(a);
  });

  it('deposits once, never spends more than it has, holds at most three positions', () => {
    const a = newPmAccount(0);
    for (let to = 100; to <= 20_000; to += 100) {
      advancePm(a, to, ctx({ deposit: 40_000_000n }));
      expect(BigInt(a.cash)).toBeGreaterThanOrEqual(0n);
      expect(a.positions.length).toBeLessThanOrEqual(3);
    }
    expect(a.funded).toBe(true);
    const idle = newPmAccount(0);
    advancePm(idle, 5_000, ctx({ trading: false }));
    expect(idle).toEqual({ cash: '0', funded: false, positions: [], step: 5_000 });
  });

  it('an outcome is priced between 0.02 and 0.98, Yes and No summing to 1, moving with the steps', () => {
    for (let m = 0; m < PM_MARKETS.length; m++) {
      const seen = new Set<number>();
      for (let step = 0; step < 20_000; step += 500) {
        const yes = outcomePrice('s', m, 0, step);
        expect(yes).toBeGreaterThanOrEqual(20);
        expect(yes).toBeLessThanOrEqual(980);
        expect(yes + outcomePrice('s', m, 1, step)).toBe(1000);
        seen.add(yes);
      }
      expect(seen.size).toBeGreaterThan(5);
    }
  });
});
