// guard's decision on one agent's readings and recorded state, with a clock the test sets: the peak a
// drawdown is measured from, and which recorded breach keeps a resumed agent running.
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/cli/guard/decide.js';
import type { Readings } from '../../src/cli/guard/figures.js';
import { emptyAgent, type AgentState } from '../../src/cli/guard/state.js';
import type { Rules } from '../../src/cli/guard/rules.js';

const H = 3_600_000;
const D = 24 * H;
const W = 7 * D;
const T0 = Date.UTC(2026, 10, 27);
const rules: Rules = { 'max-drawdown': 20 };
const unread = { value: null, reason: 'not asked' } as const;

/** The account value now and Hyperliquid's history over the window. */
const readings = (value: number, history: Array<[number, number]>): Readings => ({
  account: { value },
  history: { value: history, ignored: null },
  loss: unread,
  total: unread,
});

/** One check at `now`: its drawdown and action, the state changed as guard changes it. */
function check(
  state: AgentState,
  now: number,
  value: number,
  o: { history?: Array<[number, number]>; status?: string } = {},
) {
  const agent = { agent_id: 'a', name: 'a', status: o.status ?? 'running' };
  const d = decide(agent, readings(value, o.history ?? [[now - D, 10_000]]), {
    rules,
    windowMs: W,
    now,
    dryRun: false,
    state,
  });
  d.change(state, d.pause);
  return { value: d.values['max-drawdown']?.value, action: d.events.find((e) => e.event === 'breach')?.action };
}

describe('the peak a drawdown is measured from', () => {
  it('one outlier reading is never a peak: the next honest value is no drawdown, a real fall is', () => {
    const s = emptyAgent();
    expect(check(s, T0, 10_000)).toEqual({ value: 0, action: undefined });
    expect(check(s, T0 + 60_000, 1e30)).toEqual({ value: 0, action: undefined });
    expect(check(s, T0 + 120_000, 10_000)).toEqual({ value: 0, action: undefined });
    expect(check(s, T0 + 180_000, 7_000)).toEqual({ value: 30, action: 'pause' });
  });

  it("a lone spike in Hyperliquid's history is no peak either; two points in a row are", () => {
    const spike: Array<[number, number]> = [
      [T0 - 3 * H, 10_000],
      [T0 - 2 * H, 1e12],
      [T0 - H, 10_000],
    ];
    expect(check(emptyAgent(), T0, 10_000, { history: spike })).toEqual({ value: 0, action: undefined });
    const plateau: Array<[number, number]> = [
      [T0 - 3 * H, 12_500],
      [T0 - 2 * H, 12_500],
      [T0 - H, 10_000],
    ];
    expect(check(emptyAgent(), T0, 10_000, { history: plateau })).toEqual({ value: 20, action: undefined });
    expect(check(emptyAgent(), T0, 9_000, { history: plateau })).toEqual({ value: 28, action: 'pause' });
  });
});

describe('a resumed agent and the breach recorded', () => {
  const resumed = (record: { value: number; peak?: number }): AgentState => ({
    peaks: [],
    breaches: { 'max-drawdown': { limit: 20, time: T0, ...record } },
  });
  const history: Array<[number, number]> = [
    [T0 - 2 * H, 10_000],
    [T0 - H, 10_000],
  ];

  it('not beyond a breach measured from the same peak: tolerated; beyond it: paused again', () => {
    expect(check(resumed({ value: 30, peak: 10_000 }), T0, 7_500, { history }).action).toBe('tolerated');
    expect(check(resumed({ value: 30, peak: 10_000 }), T0, 6_000, { history }).action).toBe('pause');
  });

  it('a breach recorded at 100%, from another peak, or with no peak recorded shields nothing', () => {
    expect(check(resumed({ value: 100, peak: 1e30 }), T0, 5_000, { history }).action).toBe('pause');
    expect(check(resumed({ value: 100, peak: 10_000 }), T0, 5_000, { history }).action).toBe('pause');
    expect(check(resumed({ value: 60, peak: 12_000 }), T0, 5_000, { history }).action).toBe('pause');
    expect(check(resumed({ value: 60 }), T0, 5_000, { history }).action).toBe('pause');
  });

  it('the outlier attack: a lying reading, a resume, then a real fall is paused', () => {
    const s = emptyAgent();
    check(s, T0, 10_000, { history });
    check(s, T0 + 60_000, 1e30, { history });
    expect(check(s, T0 + 120_000, 10_000, { history }).action).toBeUndefined();
    expect(check(s, T0 + 180_000, 5_000, { history })).toEqual({ value: 50, action: 'pause' });
    expect(s.breaches['max-drawdown']).toMatchObject({ value: 50, peak: 10_000 });
    // a person resumes it: within what was recorded, tolerated; a peak leaving the window ends that
    expect(check(s, T0 + 240_000, 5_500, { history }).action).toBe('tolerated');
  });
});

describe('the margin a resumed agent is given', () => {
  const history: Array<[number, number]> = [
    [T0 - 2 * H, 10_000],
    [T0 - H, 10_000],
  ];
  /** The breach event of one check of a running agent resumed after a breach recorded at `at`. */
  function breach(rule: 'max-drawdown' | 'min-value', limit: number, at: number, r: Readings) {
    const record = { value: at, limit, time: T0, ...(rule === 'max-drawdown' ? { peak: 10_000 } : {}) };
    const state: AgentState = { peaks: [], breaches: { [rule]: record } };
    const agent = { agent_id: 'a', name: 'a', status: 'running' };
    const d = decide(agent, r, { rules: { [rule]: limit }, windowMs: W, now: T0, dryRun: false, state });
    return d.events.find((e) => e.event === 'breach');
  }

  it('a drawdown: a tenth of the limit, 1 point at least, beyond the recorded one; the re-pause says why', () => {
    expect(breach('max-drawdown', 20, 30, readings(6_850, history))).toMatchObject({
      action: 'tolerated',
      detail: 'resumed by a person at 30.00%: left running until beyond 32.00%',
    });
    expect(breach('max-drawdown', 20, 30, readings(6_750, history))).toMatchObject({
      action: 'pause',
      detail: 'resumed by a person at 30.00%; now beyond 32.00%: pausing it again',
    });
    expect(breach('max-drawdown', 5, 30, readings(6_950, history))?.action).toBe('tolerated');
    expect(breach('max-drawdown', 5, 30, readings(6_890, history))?.action).toBe('pause');
  });

  it('a wallet total: 1% of the limit below the recorded one', () => {
    const total = (value: number): Readings => ({ ...readings(value, history), total: { value } });
    expect(breach('min-value', 9_500, 8_965.74, total(8_964.68))).toMatchObject({
      action: 'tolerated',
      detail: 'resumed by a person at $8,965.74: left running until below $8,870.74',
    });
    expect(breach('min-value', 9_500, 8_965.74, total(8_870))?.action).toBe('pause');
  });
});

describe('a clock that jumps', () => {
  it('a year ahead for one check: back at the real time, its peak is stamped now and ages out with the window', () => {
    const s = emptyAgent();
    const flat = (now: number, v: number): Array<[number, number]> => [[now - H, v]];
    check(s, T0, 10_000, { history: flat(T0, 10_000) });
    check(s, T0 + 365 * D, 10_000, { history: flat(T0 + 365 * D, 10_000) });
    check(s, T0 + 60_000, 10_000, { history: flat(T0 + 60_000, 10_000) });
    expect(Math.max(...s.peaks.map(([t]) => t), s.last![0])).toBe(T0 + 60_000);
    expect(check(s, T0 + 30 * D, 7_000, { history: flat(T0 + 30 * D, 7_000) })).toEqual({
      value: 0,
      action: undefined,
    });
  });

  it('a breach recorded while the clock was ahead is stamped now too', () => {
    const s: AgentState = { peaks: [], breaches: { 'max-loss': { value: 300, limit: 200, time: T0 + 365 * D } } };
    check(s, T0, 10_000);
    expect(s.breaches['max-loss']!.time).toBe(T0);
  });
});
