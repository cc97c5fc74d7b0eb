// Loaded on first use, from its own bundle (scripts/build.mjs): the terminal line chart `pnl` draws,
// so that no other command loads it.
import { plot } from 'simple-ascii-chart';

export interface ChartOptions {
  width: number;
  height: number;
  /** how a value on the vertical axis is written */
  format: (value: number) => string;
}

/** A line chart of `values` in order, left to right, in plain characters (no colour). */
export function lineChart(values: readonly number[], o: ChartOptions): string {
  const points: Array<[number, number]> = values.map((v, i) => [i, v]);
  // a single point draws nothing: it is drawn twice, a flat line
  if (points.length === 1) points.push([1, values[0]!]);
  return plot(points, {
    width: o.width,
    height: o.height,
    hideXAxisTicks: true,
    formatter: (value, { axis }) => (axis === 'y' ? o.format(value) : ''),
  });
}
