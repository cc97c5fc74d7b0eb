// The money views on narrow terminals: no line wider than the terminal, and no amount cut (a cut
// number is a wrong number); columns are left out instead.
import { describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/context.js';
import { launchAgent } from '../helpers/service.js';
import { perTest } from '../helpers/service-support.js';
import { fakeClock, untilPositions, withHyperliquid } from '../helpers/sim.js';

const t = perTest();

const narrow = (columns: number) => ({ tty: { stdout: true, stderr: true, columns } });
const oneLine = (text: string) => text.replace(/\s+/g, ' ');
const SGR = /\u001b\[[0-9;]*m/g;

/** Every line at most `columns` wide, and no amount cut; an address is one value, never cut, so left aside. */
function fits(text: string, columns: number): void {
  const lines = text
    .trimEnd()
    .split('\n')
    .filter((l) => !/^(EVM|Solana):/.test(l));
  expect(lines.filter((l) => [...l].length > columns)).toEqual([]);
  expect(lines.filter((l) => /[-+$\d][^ ]*…/.test(l))).toEqual([]);
}

describe('money views on a narrow terminal', () => {
  it('positions at 40 and 30 columns: whole amounts, columns left out, no line wraps', async () => {
    const clock = fakeClock();
    const svc = await t.service({ simClock: clock.now });
    const agent = await withHyperliquid(svc, 'trader');
    await untilPositions(svc, clock, agent.wallet_address);
    const cli = cliFor(() => svc);
    for (const columns of [40, 30]) {
      const r = await cli('positions trader', narrow(columns));
      expect(r.code).toBe(0);
      fits(r.stdout, columns);
      expect(r.stdout).toMatch(/ \$[\d,]+\.\d\d/);
    }
  });

  it('wallet at 40 and 30 columns: the dollar value whole', async () => {
    const svc = await t.service({ simClock: fakeClock().now });
    await launchAgent(svc, { name: 'holder' });
    const cli = cliFor(() => svc);
    for (const columns of [40, 30]) {
      const r = await cli('wallet holder', narrow(columns));
      expect(r.code).toBe(0);
      fits(r.stdout, columns);
      expect(r.stdout).toMatch(/hyperl\S* +account\S*( value)? +\$10,000\.00/);
    }
  });

  it('a coloured positions heading stays on one line at 100 and 120 columns, as without colour', async () => {
    const clock = fakeClock();
    const svc = await t.service({ simClock: clock.now });
    await withHyperliquid(svc, 'trader');
    const cli = cliFor(() => svc);
    for (const columns of [100, 120]) {
      const r = await cli('positions trader', { ...narrow(columns), env: { TERM: 'xterm-256color' } });
      expect(r.stdout).toContain('\u001b[');
      expect(r.stdout.replace(SGR, '')).toMatch(/^Hyperliquid {2}account value \$[\d,.]+, withdrawable \$/m);
    }
  });

  it('a table that leaves columns out says which under it, wrapped to the width', async () => {
    const clock = fakeClock();
    const svc = await t.service({ simClock: clock.now });
    const agent = await withHyperliquid(svc, 'trader');
    await untilPositions(svc, clock, agent.wallet_address);
    const cli = cliFor(() => svc);
    const positions = await cli('positions trader', narrow(40));
    fits(positions.stdout, 40);
    expect(oneLine(positions.stdout)).toMatch(/left out for width: [A-Z, ]*SIZE[A-Z, ]*; --json or a wider terminal/);
    await launchAgent(svc, { name: 'holder' });
    const wallet = await cli('wallet holder', narrow(24));
    expect(oneLine(wallet.stdout)).toContain('left out for width: AMOUNT; --json or a wider terminal shows them');
    const wide = await cli('positions trader', narrow(200));
    expect(wide.stdout).not.toContain('left out');
  });

  it('pnl at 12 and 24 columns cuts no amount', async () => {
    const clock = fakeClock();
    const svc = await t.service({ simClock: clock.now });
    const agent = await withHyperliquid(svc, 'trader');
    await untilPositions(svc, clock, agent.wallet_address);
    const cli = cliFor(() => svc);
    for (const columns of [12, 24]) {
      const r = await cli('pnl trader --period all', narrow(columns));
      expect(r.code).toBe(0);
      expect(r.stdout.split('\n').filter((l) => /[-+$\d][^ ]*…/.test(l))).toEqual([]);
    }
  });
});
