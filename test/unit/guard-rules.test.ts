// guard's limits, window and state file, apart from any service.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { beyond, parseRules, parseWindow, past, periodFor } from '../../src/cli/guard/rules.js';
import { addSeen, GuardState, peakSeen, prune, STATE_MAX_BYTES } from '../../src/cli/guard/state.js';

const H = 3_600_000;
const D = 24 * H;

describe('guard rules', () => {
  it('windows: 7d, 24h, 90m; a bare number, another unit, zero and more than a year refused', () => {
    expect([parseWindow('7d'), parseWindow('24h'), parseWindow('90m')]).toEqual([7 * D, 24 * H, 90 * 60_000]);
    for (const bad of ['7', '1w', '0m', '366d', '-1d', '1.5d', '']) expect(() => parseWindow(bad)).toThrow(UsageError);
    expect(() => parseWindow('1w')).toThrow(/--window '1w' is not a duration/);
  });

  it('limits: PCT in (0,100), min-value USD > 0, max-loss USD ≥ 0, at least one', () => {
    expect(parseRules({ maxDrawdown: '99.5', minValue: '0.01', maxLoss: '0' })).toEqual({
      'max-drawdown': 99.5,
      'min-value': 0.01,
      'max-loss': 0,
    });
    const bad = [
      { maxDrawdown: '0' },
      { maxDrawdown: '100' },
      { minValue: '0' },
      { minValue: '-1' },
      { maxLoss: '1e3' },
    ];
    for (const b of bad) expect(() => parseRules(b)).toThrow(UsageError);
    expect(() => parseRules({ maxDrawdown: '100' })).toThrow(
      "--max-drawdown must be a plain decimal number above 0 and below 100, not '100'",
    );
    expect(() => parseRules({})).toThrow(/at least one limit/);
  });

  it('past and beyond: a value under min-value is past it; a drawdown or loss above its limit', () => {
    expect([past('min-value', 99, 100), past('min-value', 100, 100), past('max-loss', 101, 100)]).toEqual([
      true,
      false,
      true,
    ]);
    expect([beyond('min-value', 80, 90), beyond('max-drawdown', 25, 30)]).toEqual([true, false]);
  });

  it("the shortest of Hyperliquid's periods covering the window", () => {
    expect([
      periodFor(H),
      periodFor(D),
      periodFor(2 * D),
      periodFor(7 * D),
      periodFor(8 * D),
      periodFor(90 * D),
    ]).toEqual(['day', 'day', 'week', 'week', 'month', 'allTime']);
  });
});

describe('peaks seen', () => {
  it('the highest value within the window; one older than the window is dropped', () => {
    const peaks: Array<[number, number]> = [];
    addSeen(peaks, 0, 100, D);
    addSeen(peaks, H, 120, D);
    addSeen(peaks, 2 * H, 90, D);
    expect(peakSeen(peaks, 2 * H, D)).toBe(120);
    addSeen(peaks, H + D + 1, 80, D);
    expect(peakSeen(peaks, H + D + 1, D)).toBe(90);
    expect(peaks.length).toBeLessThanOrEqual(2);
  });

  it('a clock gone back loses no peak and makes none: what was seen keeps its order', () => {
    const peaks: Array<[number, number]> = [];
    addSeen(peaks, 10 * D, 150, D);
    addSeen(peaks, 9 * D, 100, D); // the clock went back a day
    expect(peakSeen(peaks, 9 * D, D)).toBe(150);
    expect(peaks).toEqual([[10 * D, 150]]);
  });

  it('a steady fall is kept in at most about 250 entries', () => {
    const peaks: Array<[number, number]> = [];
    for (let i = 0; i < 10_080; i++) addSeen(peaks, i * 60_000, 10_000 - i, 7 * D);
    expect(peaks.length).toBeLessThanOrEqual(251);
    expect(peakSeen(peaks, 10_079 * 60_000, 7 * D)).toBe(10_000);
  });
});

describe('state file', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  const fileIn = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guard-state-'));
    dirs.push(dir);
    return path.join(dir, 'guard', 'state.json');
  };

  it('two writers at once keep each other’s writes', async () => {
    const file = fileIn();
    const a = new GuardState(file, () => undefined);
    const b = new GuardState(file, () => undefined);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? a : b).update((d) => void (d.agents[`agent-${i}`] = { peaks: [[i, i]], breaches: {} })),
      ),
    );
    expect(Object.keys(a.read().agents).length).toBe(20);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a directory where the file should be is set aside too (not a crash)', async () => {
    const file = fileIn();
    fs.mkdirSync(file, { recursive: true });
    const warned: string[] = [];
    const state = new GuardState(file, (l) => warned.push(l));
    expect(state.read()).toEqual({ version: 1, agents: {} });
    expect(warned).toHaveLength(1);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('a file that is not guard’s is set aside with a warning naming both paths, and guard starts afresh', async () => {
    const file = fileIn();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"version":1,"agents":{"x":{"peaks":"no"}}}');
    const warned: string[] = [];
    const state = new GuardState(file, (l) => warned.push(l));
    await state.update((d) => void (d.agents.y = { peaks: [], breaches: {} }));
    expect(warned).toEqual([expect.stringContaining(`${file} could not be read as guard's state: set aside as`)]);
    expect(Object.keys(state.read().agents)).toEqual(['y']);
    expect(fs.readdirSync(path.dirname(file)).filter((f) => f.includes('unreadable'))).toHaveLength(1);
  });

  it('a file larger than guard writes is set aside unread, with the warning, and guard starts afresh', async () => {
    const file = fileIn();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '{"version":1,"agents":{"x":{"peaks":[],"breaches":{}}}}' + ' '.repeat(STATE_MAX_BYTES));
    const warned: string[] = [];
    const state = new GuardState(file, (l) => warned.push(l));
    expect(state.read()).toEqual({ version: 1, agents: {} });
    expect(warned).toEqual([expect.stringMatching(/is 5 MiB, larger than guard writes .*: set aside as /)]);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('pruned: agents the service lists as destroyed, and those unlisted with nothing newer than a year', () => {
    const agent = (t: number) => ({ peaks: [[t, 1]] as Array<[number, number]>, breaches: {} });
    const now = 400 * D;
    const data = {
      version: 1 as const,
      agents: { gone: agent(now), other: agent(now - 10 * D), old: agent(now - 366 * D), kept: agent(0) },
    };
    prune(data, { destroyed: new Set(['gone']), listed: new Set(['kept']), now });
    expect(Object.keys(data.agents).sort()).toEqual(['kept', 'other']);
  });
});
