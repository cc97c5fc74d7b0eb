// guard's lines for a person: what the service or a source sent is shown, never obeyed by the terminal.
import { describe, expect, it } from 'vitest';
import { humanLine, type GuardEvent } from '../../src/cli/guard/events.js';

const event = (e: Partial<GuardEvent>): GuardEvent => ({
  time: '2026-11-27T07:53:34.000Z',
  agent_id: 'a',
  name: 'calm',
  event: 'start',
  rule: null,
  value: null,
  limit: null,
  action: 'watch',
  detail: 'guarded (running)',
  ...e,
});

describe("guard's human line", () => {
  it('an agent name or a detail with escapes, CR/LF or a direction override stays one visible line', () => {
    const name = 'ev\u001b]0;pwned\u0007\u001b[31mil\r\n2099-01-01 fake: paused\u202eX\u001b[0m';
    const line = humanLine(event({ name, detail: 'left open: \u001b[2Jx\nforged' }));
    expect(line).toBe(
      '2026-11-27 07:53:34Z ev^[]0;pwned^G^[[31mil^J2099-01-01 fake: paused<U+202E>X^[[0m: ' +
        'left open: ^[[2Jx^Jforged',
    );
  });

  it('a minimum is "below", a drawdown or loss "past"; a re-pause says the resume it overrides', () => {
    const breach = { event: 'breach', action: 'pause', detail: null } as const;
    expect(humanLine(event({ ...breach, rule: 'min-value', value: 8_965.74, limit: 9_500 }))).toBe(
      '2026-11-27 07:53:34Z calm: BREACH min-value $8,965.74, below $9,500.00: pausing it',
    );
    expect(humanLine(event({ ...breach, rule: 'max-loss', value: 300, limit: 200 }))).toContain(
      'BREACH max-loss $300.00, past $200.00: pausing it',
    );
    const detail = 'resumed by a person at 12.00%; now beyond 13.00%: pausing it again';
    expect(humanLine(event({ ...breach, rule: 'max-drawdown', value: 14.1, limit: 10, detail }))).toBe(
      `2026-11-27 07:53:34Z calm: BREACH max-drawdown 14.10%, past 10.00%: ${detail}`,
    );
  });
});
