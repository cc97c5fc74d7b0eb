// The fleet view's lines (src/cli/top/view.ts) at 120, 80, 40 and 20 columns: columns left out in
// order, money never cut, the selection marked, stale figures marked with their reason, text from
// the service made terminal-safe.
import { describe, expect, it } from 'vitest';
import { fresh, staled, unread } from '../../src/cli/top/figure.js';
import type { AgentFigures, Snapshot } from '../../src/cli/top/feed.js';
import { fleetLines } from '../../src/cli/top/view.js';
import { visibleWidth } from '../../src/ui/format.js';
import { createPrinter, plain } from '../../src/ui/printer.js';
import { toTerminal } from '../../src/ui/terminal-safe.js';

const NOW = Date.UTC(2026, 10, 22, 12);

function agent(name: string, over: Partial<AgentFigures> = {}): AgentFigures {
  return {
    agent_id: `${name}-id`,
    name,
    model: 'claude-sonnet-4-5',
    status: 'running',
    healthy: fresh(true, NOW - 10_000),
    value: fresh(10_000, NOW),
    partial: [],
    pnl24h: fresh(1234.56, NOW),
    open: fresh(3, NOW),
    ...over,
  };
}

const AGENTS = [
  agent('alpha-trader'),
  agent('beta', { status: 'paused', healthy: staled(fresh(false, NOW - 60_000), '429') }),
  agent('gamma\u001b[31m', { value: staled(unread<number>(), 'hyperliquid down'), partial: [] }),
];

function snapshot(agents = AGENTS): Snapshot {
  return {
    agents,
    list: { readAt: NOW - 2_000, stale: null },
    chains: { readAt: NOW, failed: null },
    totals: {
      agents: agents.length,
      running: 2,
      value: 20_000,
      pnl24h: 3703.68,
      open: 9,
      complete: false,
      read: { value: 2, pnl24h: 3, open: 3 },
    },
    sent: 0,
  };
}

const view = (width: number, selected = 0, s = snapshot()) =>
  fleetLines({ snapshot: s, width, selected, now: NOW, budget: 30, colour: plain });
const headOf = (lines: string[]) => lines.find((l) => l.includes('NAME'))!;

describe('top view', () => {
  it('a short terminal: the selected agent is shown first of all, the notes and spacing go before it', () => {
    for (const height of [2, 3, 4, 5]) {
      const lines = fleetLines({
        snapshot: snapshot(),
        width: 100,
        height,
        selected: 1,
        now: NOW,
        budget: 30,
        colour: plain,
      });
      expect(lines.length, `height ${height}`).toBeLessThanOrEqual(height);
      expect(
        lines.filter((l) => l.startsWith('› ')),
        `height ${height}`,
      ).toEqual([expect.stringMatching(/^› beta /)]);
    }
  });

  it('120 columns: every column, the totals and read times in the header, nothing wider', () => {
    const lines = view(120);
    expect(lines.every((l) => visibleWidth(l) <= 120)).toBe(true);
    expect(
      headOf(lines)
        .split(/\s{2,}/)
        .filter(Boolean),
    ).toEqual(['NAME', 'STATUS', 'HEALTH', 'VALUE', 'PNL 24H', 'OPEN', 'MODEL']);
    const totals = 'value $20,000.00* (2 of 3)   24h PnL +$3,703.68*   open 9*';
    expect(lines[0]).toBe(`superagent top   3 agents, 2 running   ${totals}`);
    expect(lines[1]).toBe('list 2s ago   health oldest 60s ago   chains now   budget 30/min');
    const alpha = lines.find((l) => l.includes('alpha-trader'))!;
    expect(alpha).toMatch(/^› alpha-trader +running +ok +\$10,000\.00 +\+\$1,234\.56 +3 +claude-sonnet-4-5$/);
  });

  it('nothing read: no total claimed (never $0.00), and the chains said failed or never read', () => {
    const none = { ...unread<number>(), stale: '429 from hyperliquid' };
    const agents = [agent('alpha', { value: none, pnl24h: none, open: none })];
    const read = { value: 0, pnl24h: 0, open: 0 };
    const s = snapshot(agents);
    const failed = { ...s, chains: { readAt: null, failed: '429 from hyperliquid' }, totals: { ...s.totals, read } };
    const lines = view(120, 0, failed);
    expect(lines[0]).toContain('value —   24h PnL —   open —');
    expect(lines[1]).toContain('chains failed: 429 from hyperliquid');
    expect(view(120, 0, { ...failed, chains: { readAt: null, failed: null } })[1]).toContain('chains never read');
    // some read, some not: how many the sum is of
    expect(view(120)[0]).toContain('value $20,000.00* (2 of 3)');
  });

  it('many stale agents or a long name: one line a reason, names counted past the width', () => {
    const stale = staled(fresh(1, NOW - 60_000), '429');
    const many = [
      agent('L'.repeat(100), { open: stale }),
      ...Array.from({ length: 30 }, (_, i) => agent(`a${i}`, { open: stale })),
    ];
    const notes = view(80, 0, snapshot(many)).filter((l) => l.startsWith('*'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^\* stale \(429\): L{15}…, a0, a1, .*, \+\d+ more$/);
    expect(visibleWidth(notes[0]!)).toBeLessThanOrEqual(80);
  });

  it('stale figures: the last value kept and marked, the reason said below; never a zero', () => {
    const lines = view(120);
    expect(lines.find((l) => l.includes('beta'))).toMatch(/paused +unhealthy\*/);
    expect(lines.find((l) => l.includes('gamma'))).toMatch(/ok +stale +\+\$1,234/);
    expect(lines).toContain('* stale (429): beta');
    expect(lines).toContain('* stale (hyperliquid down): gamma^[[31m');
  });

  it('text from the service made terminal-safe: no escape reaches the terminal', () => {
    expect(view(120).join('\n')).not.toContain('\u001b');
  });

  it("in colour (the printer's, as markers until written): the same columns, no line wider", async () => {
    const tty = { isTTY: true, columns: 120, write: () => true };
    const p = await createPrinter(tty, tty, { json: false, quiet: false, color: true, env: { TERM: 'xterm' } });
    const lines = fleetLines({ snapshot: snapshot(), width: 120, selected: 0, now: NOW, budget: 30, colour: p.out });
    const shown = lines.map((l) => toTerminal(l).replace(/\u001b\[[0-9;]*m/g, ''));
    expect(shown).toEqual(view(120));
  });

  it('under NO_COLOR no escape at all', async () => {
    const tty = { isTTY: true, columns: 120, write: () => true };
    const p = await createPrinter(tty, tty, { json: false, quiet: false, color: true, env: { NO_COLOR: '1' } });
    const lines = fleetLines({ snapshot: snapshot(), width: 120, selected: 0, now: NOW, budget: 30, colour: p.out });
    expect(toTerminal(lines.join('\n'))).not.toContain('\u001b');
  });

  it('80 columns: the model left out first', () => {
    const lines = view(80);
    expect(lines.every((l) => visibleWidth(l) <= 80)).toBe(true);
    expect(headOf(lines)).not.toContain('MODEL');
    expect(headOf(lines)).toContain('OPEN');
  });

  it('40 columns: name, status and value; the money figures whole', () => {
    const lines = view(40, 1);
    expect(lines.every((l) => visibleWidth(l) <= 40)).toBe(true);
    expect(headOf(lines).trim().split(/\s+/)).toEqual(['NAME', 'STATUS', 'VALUE']);
    expect(lines.find((l) => l.includes('alpha'))).toContain('$10,000.00');
    expect(lines.find((l) => l.startsWith('› '))).toContain('beta');
  });

  it('a narrow header leaves figures out whole, the total value last', () => {
    expect(view(30).slice(0, 2)).toEqual(['value $20,000.00* (2 of 3)', 'list 2s ago   chains now']);
  });

  it('20 columns: the name, cut, and the value whole', () => {
    const lines = view(20);
    expect(lines.every((l) => visibleWidth(l) <= 20)).toBe(true);
    expect(headOf(lines).trim().split(/\s+/)).toEqual(['NAME', 'VALUE']);
    expect(lines.find((l) => l.startsWith('› '))).toMatch(/^› alpha… +\$10,000\.00$/);
  });

  it('more agents than rows: the window follows the selection', () => {
    const many = Array.from({ length: 30 }, (_, i) => agent(`agent-${i}`));
    const lines = fleetLines({
      snapshot: snapshot(many),
      width: 80,
      height: 9,
      selected: 20,
      now: NOW,
      budget: 30,
      colour: plain,
    });
    const rows = lines.filter((l) => /agent-\d+/.test(l));
    expect(rows).toHaveLength(5);
    expect(rows[4]).toMatch(/^› agent-20 /);
  });
});
