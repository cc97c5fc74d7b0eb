// `superagent pnl` on terminals of several widths: a chart no wider than the terminal, its dollar
// labels an even scale, the period's first and last times under it; too narrow, a short table.
import { describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/context.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent } from '../helpers/service.js';
import { fakeClock, untilPositions, withHyperliquid } from '../helpers/sim.js';

const t = perTest();

const dollars = (s: string) => Number(s.replace(/[$,]/g, ''));

describe('pnl chart', () => {
  it('at 80, 40 and 30 columns: no line wider, labels evenly spaced in rows and dollars, times under', async () => {
    const clock = fakeClock();
    const svc = await t.service({ simClock: clock.now });
    const agent = await withHyperliquid(svc, 'trader');
    await untilPositions(svc, clock, agent.wallet_address);
    const cli = cliFor(() => svc);
    const points = JSON.parse((await cli('pnl trader --period all --json')).stdout).points;
    expect(points.length).toBeGreaterThan(1);
    for (const columns of [80, 40, 30]) {
      const r = await cli('pnl trader --period all', { tty: { stdout: true, stderr: true, columns } });
      expect(r.code).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines.filter((l) => [...l].length >= columns)).toEqual([]);
      const labelled = lines.flatMap((l, row) => {
        const m = /^ *(-?\$[\d,]+\.\d\d)┤/.exec(l);
        return m ? [{ row, value: dollars(m[1]!) }] : [];
      });
      if (labelled.length === 0) {
        // too narrow for a chart: a table of points, the first and last times among them
        expect(r.stdout).toContain(points[0].time.slice(0, 16).replace('T', ' '));
        continue;
      }
      expect(labelled.length).toBeGreaterThanOrEqual(3);
      const steps = (key: 'row' | 'value') =>
        new Set(labelled.slice(1).map((x, i) => Math.round((x[key] - labelled[i]![key]) * 100)));
      expect(steps('row').size).toBe(1);
      expect(steps('value').size).toBe(1);
      const axis = lines.findIndex((l) => l.includes('└'));
      // a date, or within two days an hour (UTC)
      const when = (iso: string) => [iso.slice(0, 10), iso.slice(11, 16)];
      const under = lines.slice(axis + 1, axis + 3).join(' ');
      for (const iso of [points[0].time, points[points.length - 1].time])
        expect(when(iso).some((w) => under.includes(w))).toBe(true);
    }
  });

  it('an account that did not move: said flat in one line, no chart of cents', async () => {
    const clock = fakeClock();
    const svc = await t.service({ simClock: clock.now });
    await launchAgent(svc, { name: 'idle' });
    clock.advance(60);
    const cli = cliFor(() => svc);
    const points = JSON.parse((await cli('pnl idle --period day --json')).stdout).points;
    expect(points.length).toBeGreaterThan(1);
    const r = await cli('pnl idle --period day', { tty: { stdout: true, stderr: true, columns: 80 } });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('┤');
    expect(r.stdout).toMatch(/^flat at \$10,000\.00 from \S+ to \S+ UTC$/m);
  });
});
