// Loaded on first use, from its own bundle (scripts/build.mjs): the terminal line chart `pnl` draws,
// so that no other command loads it.
import { plot } from 'simple-ascii-chart';

export interface ChartOptions {
  /** the terminal's width: no line of the chart is wider than this less one */
  columns: number;
  /** how a value on the vertical axis is written */
  format: (value: number) => string;
  /** the times of the first and last values, written under the horizontal axis */
  first: string;
  last: string;
}

const TICKS = 5;
/** rows between two labels: each label on a row of its own, the rows between them evenly shared */
const ROWS_PER_STEP = 2;
/** narrower than this, a line chart says nothing a few numbers would not say better */
const MIN_PLOT = 16;
const MAX_PLOT = 72;

/** Labels for the vertical axis: TICKS round values, evenly spaced, from below the lowest to above the highest. */
export function yTicks(low: number, high: number): number[] {
  const raw = Math.max((high - low) / (TICKS - 1), Math.abs(high) * 1e-6, 0.01);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10, 20]) {
    const step = m * magnitude;
    const start = Math.floor(low / step) * step;
    if (start + step * (TICKS - 1) >= high) return Array.from({ length: TICKS }, (_, i) => start + step * i);
  }
  return [];
}

/** `values` taken at `width` evenly spaced places (one per column, so no column holds two glyphs). */
function sample(values: readonly number[], width: number): number[] {
  if (values.length <= width) return [...values];
  return Array.from({ length: width }, (_, c) => values[Math.round((c * (values.length - 1)) / (width - 1))]!);
}

/**
 * A line chart of `values` in order, left to right, in plain characters (no colour), the first and
 * last times under it; undefined when the terminal is too narrow to draw one cleanly.
 */
export function lineChart(values: readonly number[], o: ChartOptions): string | undefined {
  const ticks = yTicks(Math.min(...values), Math.max(...values));
  const labels = ticks.map(o.format);
  const labelWidth = Math.max(...labels.map((l) => l.length));
  const room = o.columns - 1;
  // the label, the axis, the plot, and the arrow (or a space) after it
  const width = Math.min(MAX_PLOT, room - labelWidth - 2);
  if (ticks.length === 0 || width < MIN_PLOT) return undefined;
  const shown = sample(values, width);
  // a single value draws nothing: it is drawn twice, a flat line
  const points: Array<[number, number]> = shown.map((v, i) => [i, v]);
  if (points.length === 1) points.push([1, shown[0]!]);
  const chart = plot(points, {
    width,
    height: (TICKS - 1) * ROWS_PER_STEP + 1,
    yRange: [ticks[0]!, ticks[TICKS - 1]!],
    customYAxisTicks: ticks,
    hideXAxisTicks: true,
    formatter: (value, { axis }) => (axis === 'y' ? o.format(value) : ''),
  });
  const lines = chart.split('\n').map((l) => l.trimEnd());
  while (lines[0] === '') lines.shift();
  while (lines[lines.length - 1] === '') lines.pop();
  const span = o.first.length + 1 + o.last.length;
  if (span <= width) lines.push(' '.repeat(labelWidth + 1) + o.first + o.last.padStart(width - o.first.length));
  else lines.push(`${o.first} to`, o.last);
  if (lines.some((l) => [...l].length > room)) return undefined;
  return lines.join('\n');
}
