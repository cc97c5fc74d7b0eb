// How top spends its service budget (src/cli/top/plan.ts): credit per kind at its own rate, never more
// than the budget has room for now (the keys' reserve is the pacer's: test/unit/kill-switch-pacer.test.ts).
import { describe, expect, it } from 'vitest';
import { Plan } from '../../src/cli/top/plan.js';

const budgetWith = (perMinute: number, room: number) => ({ perMinute, room: () => room });

describe('top plan', () => {
  it('a list rate a little under one a refresh is kept, not halved by the credit it may hold', () => {
    const plan = new Plan(budgetWith(23, 23), 5_000);
    let lists = 0;
    for (let i = 0; i < 120; i++) {
      plan.tick(i * 5_000);
      lists += plan.take('list');
    }
    // 11.5 a minute for ten minutes
    expect(lists).toBeGreaterThanOrEqual(114);
  });

  it('the list once a refresh at most; health checks with what is left, spread over the minute', () => {
    const plan = new Plan(budgetWith(28, 28), 5_000);
    plan.tick(0);
    expect(plan.take('list')).toBe(1);
    expect(plan.take('list')).toBe(0);
    // 28 - 12 lists = 16 a minute: 2 a refresh at most (1.33 earned every 5 s)
    expect(plan.take('health', 10)).toBe(2);
    plan.tick(5_000);
    expect([plan.take('list'), plan.take('health', 10)]).toEqual([1, 1]);
    plan.tick(10_000);
    expect([plan.take('list'), plan.take('health', 10)]).toEqual([1, 1]);
  });

  it('nothing beyond the room the budget has now', () => {
    const plan = new Plan(budgetWith(30, 2), 5_000);
    plan.tick(0);
    // the last request of the room is the next list's: health checks leave it
    expect(plan.take('health', 10)).toBe(1);
    expect(new Plan(budgetWith(30, 1), 5_000).take('health', 10)).toBe(0);
    expect(new Plan(budgetWith(30, 1), 5_000).takeOnce(10)).toBe(1);
    expect(new Plan(budgetWith(30, 0), 5_000).take('list')).toBe(0);
  });
});
