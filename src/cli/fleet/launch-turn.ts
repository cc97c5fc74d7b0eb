// apply's launches, safe from a second run launching the same names. The plan was made from a list
// read before the confirmation, so the launches run in the service's launch turn
// (commands/shared/launch-lock.ts) after the names and the limit are checked again on a list read
// in it; a run on another machine takes no turn of ours, so the list is read once more after the
// launches, and a second live agent of a name apply launched is a loud failure. The destroys that make
// room for the launches (apply --prune at the account's limit) come first in the turn.
import { AGENT_LIMIT_HINT, AgentLimitError } from '../../api/errors.js';
import { superagents } from '../../api/superagents.js';
import { LIMITS } from '../../contract.js';
import type { HeldLock } from '../../core/file-lock.js';
import { assertNameFree } from '../commands/shared/agent-ref.js';
import { assertNoTwins, assertTurnHeld, takeLaunchTurn } from '../commands/shared/launch-lock.js';
import type { Exec, Step } from './steps.js';

/** The requests a launch turn adds to apply's: the list read before the launches and the one after. */
export const LAUNCH_TURN_REQUESTS = 2;

export class LaunchTurn {
  private constructor(
    private readonly turn: HeldLock,
    private readonly launches: Step[],
  ) {}

  /**
   * Takes the turn, then checks on the list as it is now that each name is still free and there is
   * room for all once the destroys before them (`making room`) are done. `stop` lets it go at once.
   */
  static async take(x: Exec, launches: Step[], makingRoom: Step[], stop: AbortSignal): Promise<LaunchTurn> {
    const turn = await takeLaunchTurn(x.ctx, stop);
    try {
      const live = await superagents.list(x.client);
      const limit = LIMITS.agentsPerAccount;
      const freed = live.filter((a) => makingRoom.some((s) => s.frees === a.agent_id)).length;
      if (live.length - freed + launches.length > limit) {
        const destroying = freed > 0 ? `, ${freed} of them to destroy first,` : '';
        const now = `the service has ${live.length} live agents${destroying} and the file adds ${launches.length}`;
        throw new AgentLimitError(`Agent limit reached (${limit}): ${now}`, AGENT_LIMIT_HINT);
      }
      // launched since the plan was made (by another run): the plan is out of date
      for (const step of launches) assertNameFree(live, step.agent);
    } catch (err) {
      turn.release();
      throw err;
    }
    return new LaunchTurn(turn, launches);
  }

  /** Before each launch: the turn is still ours (assertTurnHeld). */
  beforeLaunch(step: Step): void {
    assertTurnHeld(this.turn, step.agent);
  }

  /** After the last launch: each name launched must be one live agent. The turn ends however this ends. */
  async end(x: Exec): Promise<void> {
    try {
      // the hint, with the command to apply again, is apply's (finish)
      const launched = this.launches.map((s): [string, string] => [s.agent, x.ids.get(s.agent)!]);
      await assertNoTwins(x.client, launched, 'launched by this apply');
    } finally {
      this.release();
    }
  }

  release(): void {
    this.turn.release();
  }
}
