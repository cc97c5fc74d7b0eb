// `superagent apply`: make the service match the fleet file. Shows the plan, confirms (a person on
// a terminal; --yes elsewhere), then takes the steps in a safe order within the service's requests
// a minute, and stops at the first failure saying what was and was not done.
import { LIMITS } from '../../contract.js';
import { UsageError } from '../../core/errors.js';
import { finish, runSteps } from '../fleet/apply-run.js';
import { LAUNCH_TURN_REQUESTS } from '../fleet/launch-turn.js';
import { pending, pruned } from '../fleet/plan.js';
import { FLEET_FILE } from '../fleet/schema.js';
import { openFleet, showPlan, type FleetSession } from '../fleet/session.js';
import { preflight, stepsOf, type Step } from '../fleet/steps.js';
import type { Context } from '../context.js';
import type { Input, Spec } from '../spec.js';
import { ourCommand } from './shared/command-line.js';
import { typedNameConfirms } from './shared/typed-name.js';
import { ABANDON_FUNDS, destroyQuestion, readEach, refusal, sayAbandoned } from './shared/funds-check.js';

export const spec = {
  description:
    `Make the service match a fleet file (default ./${FLEET_FILE}): shows the ` +
    `plan, asks to confirm on a terminal (elsewhere --yes is required), ` +
    'then launches, configures (profile, model, soul, skills), pauses or ' +
    'resumes, and with --prune destroys the agents not in the file, last ' +
    '(on a terminal you type their names); an agent to destroy that holds funds, or whose holdings cannot be read ' +
    '(a source switched off counts as not read), ' +
    'refuses the run before any step, as destroy does, unless --abandon-funds. ' +
    "Requests are paced to the service's limit of 60 a minute. A launch is never repeated; " +
    'the first failure stops the run, saying what was done and what was not, and running apply again converges. ' +
    'A bot token comes only from the variable bot_token_env names, and is never printed.',
  options: {
    file: {
      type: 'string',
      short: 'f',
      value: 'file',
      complete: 'file',
      description: `the fleet file (default: ./${FLEET_FILE})`,
    },
    prune: {
      type: 'boolean',
      description: 'also destroy the agents on the service that are not in the file (last, after every other step)',
    },
    abandonFunds: {
      type: 'boolean',
      description: 'with --prune: destroy them even though they hold funds, or what they hold could not be read',
    },
  },
  examples: [
    'superagent apply',
    'superagent apply --yes',
    'superagent apply -f fleet/prod.yaml --yes --prune',
    'superagent apply --yes --json',
  ],
} as const satisfies Spec;

type ApplyInput = Input<typeof spec>;

/** This apply as a command to run (again): its file, --prune and the service's flags; --yes if `yes`. */
function applyCommand(ctx: Context, input: ApplyInput, yes: boolean): string {
  const file = input.file !== undefined ? ['-f', input.file] : [];
  const flags = [...(input.prune ? ['--prune'] : []), ...(input.abandonFunds ? [ABANDON_FUNDS] : [])];
  return ourCommand(ctx, 'apply', ...file, ...flags, ...(yes ? ['--yes'] : []));
}

/** The person at the terminal agrees, and types the name of each agent to destroy; false: nothing applied. */
async function confirmed(ctx: Context, session: FleetSession, steps: Step[], abandon: boolean): Promise<boolean> {
  if (ctx.globals.yes) return true;
  const changes = `${steps.length} step${steps.length === 1 ? '' : 's'}`;
  if (!(await ctx.prompter.confirm(`Apply these changes to ${session.service} (${changes})?`, false))) return false;
  for (const step of steps.filter((s) => s.kind === 'destroy')) {
    // what each holds was read already: refused when held, or said when abandoned
    if (!(await typedNameConfirms(ctx, step.agent, destroyQuestion(step.agent, abandon)))) {
      throw new UsageError(`the name typed does not match ${step.agent}; nothing applied`);
    }
  }
  return true;
}

/**
 * The cost up front: the most requests the whole run sends, the plan's (already sent) included, so
 * that "Applied … (N requests)" never says more, unless the client retried one (a 503, a 429): those
 * cannot be known ahead. And how long the limit makes it take when it does.
 */
function budgetLine(session: FleetSession, steps: Step[]): string {
  const launching = steps.some((s) => s.kind === 'launch');
  const planned = session.budget.sent;
  const total = steps.reduce((n, s) => n + s.requests, launching ? LAUNCH_TURN_REQUESTS : 0) + planned;
  const minutes = Math.ceil(total / LIMITS.ratePerMinute) - 1;
  const slow =
    minutes > 0
      ? `; at ${LIMITS.ratePerMinute} requests a minute, ` +
        `that takes at least ${minutes} minute${minutes === 1 ? '' : 's'}`
      : '';
  const count = `${steps.length} step${steps.length === 1 ? '' : 's'}`;
  return `${count}, at most ${total} requests in all (the plan's ${planned} included; retries not counted)${slow}.`;
}

/** Before any step: what each agent to destroy holds (read side by side); refused unless abandoned. */
async function checkPruned(ctx: Context, session: FleetSession, abandon: boolean): Promise<void> {
  const read = await readEach(ctx, pruned(session.plan));
  if (abandon) return sayAbandoned(ctx, read);
  const refused = refusal(read);
  if (refused) throw refused;
}

export async function run(input: ApplyInput, ctx: Context): Promise<void> {
  // before anything is read or sent: without a person to ask, --yes is the only consent there is
  if (!ctx.globals.yes && !ctx.canPrompt) {
    throw new UsageError('--yes required to apply when not running interactively', applyCommand(ctx, input, true));
  }
  const session = await openFleet(ctx, { file: input.file, prune: input.prune });
  const again = applyCommand(ctx, input, ctx.globals.yes);
  const p = ctx.printer;
  if (!p.json) await showPlan(ctx, session.plan);
  if (!pending(session.plan)) {
    if (p.json) await finish(ctx, session, { done: [], notDone: [] }, again);
    return;
  }
  preflight(session.plan, ctx.env);
  await checkPruned(ctx, session, input.abandonFunds === true);
  const steps = stepsOf(session.plan);
  if (p.stdoutIsTTY || p.json) p.status(budgetLine(session, steps));
  else p.data(budgetLine(session, steps));
  if (!(await confirmed(ctx, session, steps, input.abandonFunds === true))) {
    p.status('Nothing applied.');
    return;
  }
  await finish(ctx, session, await runSteps(ctx, session, steps), again);
}
