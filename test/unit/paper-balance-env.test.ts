// SUPERAGENT_PAPER_BALANCE: the paper USDC of agents launched on the in-process embedded service.
import { describe, expect, it } from 'vitest';
import { paperBalanceFromEnv, simSpeedFromEnv } from '../../src/cli/commands/shared/connect.js';
import { UsageError } from '../../src/core/errors.js';

describe('paperBalanceFromEnv', () => {
  it('unset or empty leaves the service default; a number is taken as it is', () => {
    expect(paperBalanceFromEnv({})).toBeUndefined();
    expect(paperBalanceFromEnv({ SUPERAGENT_PAPER_BALANCE: '' })).toBeUndefined();
    expect(paperBalanceFromEnv({ SUPERAGENT_PAPER_BALANCE: '2500.5' })).toBe(2500.5);
    expect(paperBalanceFromEnv({ SUPERAGENT_PAPER_BALANCE: '0' })).toBe(0);
  });

  it('anything else is a usage error naming the variable', () => {
    for (const value of ['lots', '-1', 'Infinity', '1e13']) {
      expect(() => paperBalanceFromEnv({ SUPERAGENT_PAPER_BALANCE: value })).toThrow(UsageError);
      expect(() => paperBalanceFromEnv({ SUPERAGENT_PAPER_BALANCE: value })).toThrow(/SUPERAGENT_PAPER_BALANCE/);
    }
  });
});

describe('simSpeedFromEnv', () => {
  it('SUPERAGENT_SIM_SPEED speeds the in-process simulated market as server --sim-speed does', () => {
    expect(simSpeedFromEnv({})).toBeUndefined();
    expect(simSpeedFromEnv({ SUPERAGENT_SIM_SPEED: '60' })).toBe(60);
    for (const value of ['fast', '0', '1e6']) {
      expect(() => simSpeedFromEnv({ SUPERAGENT_SIM_SPEED: value })).toThrow(/SUPERAGENT_SIM_SPEED/);
    }
  });
});
