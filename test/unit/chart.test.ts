// The pnl line chart: round, evenly spaced labels; no line wider than the terminal; none at all
// (undefined, the caller prints a table) where it cannot be drawn cleanly.
import { describe, expect, it } from 'vitest';
import { lineChart, yTicks } from '../../src/vendor/chart.js';

const format = (n: number) => `$${n.toFixed(2)}`;
const times = { first: '12:00', last: '14:00 UTC' };

describe('lineChart', () => {
  it('labels: evenly spaced values covering the range, a flat line too', () => {
    for (const [low, high] of [
      [9920.66, 10020.1],
      [10000, 10000],
      [-3.2, 7.9],
    ]) {
      const ticks = yTicks(low!, high!);
      expect(ticks[0]).toBeLessThanOrEqual(low!);
      expect(ticks[ticks.length - 1]).toBeGreaterThanOrEqual(high!);
      const steps = new Set(ticks.slice(1).map((t, i) => (t - ticks[i]!).toFixed(6)));
      expect(steps.size).toBe(1);
    }
  });

  it('many points, one value, 2 points: no line wider than the terminal; too narrow: undefined', () => {
    const many = Array.from({ length: 500 }, (_, i) => 10000 + 100 * Math.sin(i / 20));
    for (const values of [many, [10000], [10000, 10050]])
      for (const columns of [120, 80, 40, 30]) {
        const chart = lineChart(values, { columns, format, ...times })!;
        expect(chart.split('\n').filter((l) => [...l].length >= columns)).toEqual([]);
      }
    expect(lineChart(many, { columns: 24, format, ...times })).toBeUndefined();
  });
});
