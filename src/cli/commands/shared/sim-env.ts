// The variables that set the in-process embedded service's simulation (as `superagent server`'s
// --paper-balance, --sim-speed and --sim-scenario do): checked before the service starts, exit 2 if wrong.
import { SIM_SCENARIOS, type SimScenario } from '../../../contract.js';
import { UsageError } from '../../../core/errors.js';
import { parseNumber } from './numbers.js';

function numberFromEnv(env: NodeJS.ProcessEnv, name: string, range: { min: number; max: number }) {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  return parseNumber(name, value, range);
}

/** SUPERAGENT_PAPER_BALANCE: the paper USDC each agent launched on the embedded service gets (default 10000). */
export const paperBalanceFromEnv = (env: NodeJS.ProcessEnv) =>
  numberFromEnv(env, 'SUPERAGENT_PAPER_BALANCE', { min: 0, max: 1e12 });

/** SUPERAGENT_SIM_SPEED: how many times faster the in-process simulated market runs (server --sim-speed). */
export const simSpeedFromEnv = (env: NodeJS.ProcessEnv) =>
  numberFromEnv(env, 'SUPERAGENT_SIM_SPEED', { min: 0.001, max: 100_000 });

/** SUPERAGENT_SIM_SCENARIO: the in-process simulated market's scenario (server --sim-scenario), calm or crash. */
export function simScenarioFromEnv(env: NodeJS.ProcessEnv): SimScenario | undefined {
  const value = env.SUPERAGENT_SIM_SCENARIO;
  if (value === undefined || value === '') return undefined;
  if ((SIM_SCENARIOS as readonly string[]).includes(value)) return value as SimScenario;
  throw new UsageError(
    `SUPERAGENT_SIM_SCENARIO must be one of: ${SIM_SCENARIOS.join(', ')}; not '${value.slice(0, 40)}'`,
  );
}

/** The simulation's options for startServer, from the environment (undefined: the service default). */
export function simOptionsFromEnv(env: NodeJS.ProcessEnv) {
  return {
    paperBalanceUsd: paperBalanceFromEnv(env),
    simSpeed: simSpeedFromEnv(env),
    simScenario: simScenarioFromEnv(env),
  };
}
