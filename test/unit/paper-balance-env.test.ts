// SUPERAGENT_PAPER_BALANCE: the paper USDC of agents launched on the in-process embedded service.
import { describe, expect, it } from 'vitest';
import { paperBalanceFromEnv, simScenarioFromEnv, simSpeedFromEnv } from '../../src/cli/commands/shared/sim-env.js';
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

describe('simScenarioFromEnv', () => {
  it('SUPERAGENT_SIM_SCENARIO picks the in-process market scenario as server --sim-scenario does', () => {
    expect(simScenarioFromEnv({})).toBeUndefined();
    expect(simScenarioFromEnv({ SUPERAGENT_SIM_SCENARIO: '' })).toBeUndefined();
    expect(simScenarioFromEnv({ SUPERAGENT_SIM_SCENARIO: 'crash' })).toBe('crash');
    expect(simScenarioFromEnv({ SUPERAGENT_SIM_SCENARIO: 'calm' })).toBe('calm');
    const wrong = () => simScenarioFromEnv({ SUPERAGENT_SIM_SCENARIO: 'boom' });
    expect(wrong).toThrow(UsageError);
    expect(wrong).toThrow("SUPERAGENT_SIM_SCENARIO must be one of: calm, crash; not 'boom'");
  });
});
