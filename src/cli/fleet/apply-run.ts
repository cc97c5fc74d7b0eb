// Carrying out the steps of a plan, one at a time and paced, stopping at the first failure with
// what was done and what was not. Running apply again converges: it plans from what the service
// has then, and a launch that may have reached the service is found by name, never sent again.
import { AgentLimitError } from '../../api/errors.js';
import { InterruptedError, SuperagentError, TerminatedError, rephrased } from '../../core/errors.js';
import type { Context } from '../context.js';
import { errorLine, exitCodeFor } from '../exit-codes.js';
import { ourCommand } from '../commands/shared/command-line.js';
import type { FleetSession } from './session.js';
import { Progress } from './progress.js';
import { TwinAgentsError } from '../commands/shared/launch-lock.js';
import { withStop, type Stop } from '../commands/shared/stop.js';
import { LaunchTurn } from './launch-turn.js';
import { knownIds, type Step } from './steps.js';
import { planJson } from './render.js';
import { roomHint } from './room.js';

const AGAIN =
  'run apply again, which plans from what the service has now and finds an agent whose launch may have reached ' +
  'the service by its name instead of launching it twice';

export interface Outcome {
  done: Step[];
  notDone: Step[];
  failure?: unknown;
  /** the failure came while the first step not done was sending its requests */
  midStep?: boolean;
}

/**
 * Runs `steps` in order; the first failure stops the run (later steps may depend on it), and so do
 * Ctrl-C and SIGTERM, at once (shared/stop.ts). The launches, and the destroys that make room for
 * them (the first steps), run in the service's launch turn (LaunchTurn).
 */
export function runSteps(ctx: Context, session: FleetSession, steps: Step[]): Promise<Outcome> {
  return withStop(ctx, (stop) => stepByStep(ctx, session, steps, stop));
}

async function stepByStep(ctx: Context, session: FleetSession, steps: Step[], stop: Stop): Promise<Outcome> {
  const progress = new Progress(ctx, steps.length);
  const x = { ctx, client: session.client, ids: knownIds(session.plan) };
  const done: Step[] = [];
  const launches = steps.filter((s) => s.kind === 'launch');
  const makingRoom = steps.filter((s) => s.frees !== undefined);
  const turnStart = makingRoom[0] ?? launches[0];
  let turn: LaunchTurn | undefined;
  session.budget.onWait = (ms) => progress.waiting(ms, steps.length - done.length);
  try {
    for (const [i, step] of steps.entries()) {
      let midStep = false;
      try {
        if (step === turnStart) turn = await stop.race(LaunchTurn.take(x, launches, makingRoom, stop.signal));
        if (step.kind === 'launch') turn!.beforeLaunch(step);
        progress.start(i, step);
        midStep = true;
        await stop.race(step.run(x));
      } catch (failure) {
        return { done, notDone: steps.slice(i), failure, midStep };
      }
      done.push(step);
      progress.done(step);
      if (step === launches.at(-1)) {
        try {
          await stop.race(turn!.end(x));
        } catch (failure) {
          return { done, notDone: steps.slice(i + 1), failure };
        }
      }
    }
  } finally {
    turn?.release();
    progress.stop();
  }
  return { done, notDone: [] };
}

const labels = (steps: Step[]) => steps.map((s) => s.label);

/**
 * What apply prints at the end (data with --json), and the failure to exit with, if any. `again`: the
 * command that runs this apply again (its file and flags), for the hint.
 */
export async function finish(ctx: Context, session: FleetSession, outcome: Outcome, again: string): Promise<void> {
  const p = ctx.printer;
  const { done, notDone, failure } = outcome;
  const total = done.length + notDone.length;
  if (p.json) {
    // step null: the failure came after the last step (twins found after the launches)
    const step = notDone[0]?.label ?? null;
    const failed =
      failure === undefined ? undefined : { step, message: errorLine(failure), exit_code: exitCodeFor(failure) };
    p.printJson({
      ...(await planJson(session.plan)),
      applied: labels(done),
      not_applied: labels(notDone),
      ...(failed ? { failed } : {}),
      requests: session.budget.sent,
    });
  }
  if (failure === undefined) {
    if (!p.json && !p.stdoutIsTTY)
      p.data(`Applied ${total} step${total === 1 ? '' : 's'} (${session.budget.sent} requests).`);
    p.success(`Applied ${total} step${total === 1 ? '' : 's'} to ${session.service}`);
    return;
  }
  // said whatever the streams are: in a CI log, this is what someone fixes the next run from
  const list = (steps: Step[]) => (steps.length ? steps.map((s) => s.label).join(', ') : 'nothing');
  p.stderrWrite(`Done (${done.length} of ${total}): ${list(done)}\nNot done (${notDone.length}): ${list(notDone)}\n`);
  if (!(failure instanceof SuperagentError)) throw failure; // a bug: reported as one
  // twins found after the launches: apply again cannot help until one is destroyed, as its hint says
  if (failure instanceof TwinAgentsError) {
    const hint = `destroy one, then apply again: ${ourCommand(ctx, 'destroy', failure.ours)}, then ${again}`;
    throw rephrased(failure, `apply stopped after step ${done.length} of ${total}: ${failure.message}`, hint);
  }
  // the list read after the last launch may fail too: no step was left
  const next = notDone[0];
  const stopped = next
    ? `apply stopped at step ${done.length + 1} of ${total} (${next.label})`
    : `apply stopped after step ${done.length} of ${total}`;
  // Ctrl-C, SIGTERM: said with the word for it, as the command ended at once
  if (failure instanceof InterruptedError || failure instanceof TerminatedError) {
    const sent = outcome.midStep ? ', whose request may have reached the service' : '';
    const hint = `check with 'superagent list', or ${AGAIN}: ${again}`;
    throw rephrased(failure, `${failure.message}: ${stopped}${sent}`, hint);
  }
  // at the limit (the service's 403, or reached since the plan), apply again needs room first
  if (failure instanceof AgentLimitError) {
    throw rephrased(failure, `${stopped}: ${failure.message}`, `${roomHint(session.plan)}: ${again}`);
  }
  // the failure's own hint (try again by hand, say) gives way to the one way back: apply again
  throw rephrased(failure, `${stopped}: ${failure.message}`, `${AGAIN}: ${again}`);
}
