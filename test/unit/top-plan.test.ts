// How top spends its service budget (src/cli/top/plan.ts): credit per kind at its own rate, a reserve
// kept for the keys, never more than the budget has room for now.
import { describe, expect, it } from 'vitest';
import { Plan, reserveFor } from '../../src/cli/top/plan.js';

const budgetWith = (perMinute: number, room: number) => ({ perMinute, room: () => room });

describe('top plan', () => {
  it('keeps a reserve for the keys, smaller for a small budget', () => {
    expect([reserveFor(30), reserveFor(5), reserveFor(2)]).toEqual([2, 1, 0]);
  });

  it('the list once a refresh at most; health checks with what is left, spread over the minute', () => {
    const plan = new Plan(budgetWith(30, 30), 5_000);
    plan.tick(0);
    expect(plan.take('list')).toBe(1);
    expect(plan.take('list')).toBe(0);
    // 30 - 2 kept - 12 lists = 16 a minute: 2 a refresh at most (1.33 earned every 5 s)
    expect(plan.take('health', 10)).toBe(2);
    plan.tick(5_000);
    expect([plan.take('list'), plan.take('health', 10)]).toEqual([1, 1]);
    plan.tick(10_000);
    expect([plan.take('list'), plan.take('health', 10)]).toEqual([1, 1]);
  });

  it('nothing beyond the room the budget has now, less the reserve', () => {
    const plan = new Plan(budgetWith(30, 3), 5_000);
    plan.tick(0);
    expect(plan.take('health', 10)).toBe(1);
    expect(plan.takeOnce(10)).toBe(1);
    expect(new Plan(budgetWith(30, 2), 5_000).take('list')).toBe(0);
  });
});
