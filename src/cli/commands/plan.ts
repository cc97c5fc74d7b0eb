// `superagent plan`: what `apply` would change, agent by agent, without changing anything.
import { EXIT } from '../exit-codes.js';
import { FLEET_FILE } from '../fleet/schema.js';
import { pending, pruned } from '../fleet/plan.js';
import { planJson } from '../fleet/render.js';
import { assertRoom } from '../fleet/room.js';
import { openFleet, showPlan } from '../fleet/session.js';
import type { Context } from '../context.js';
import { fundsNote, readEach, refusal } from './shared/funds-check.js';
import type { Input, Spec } from '../spec.js';

export const spec = {
  description:
    `Compare a fleet file (default ./${FLEET_FILE}) with the service ` +
    `and print, per agent, what 'superagent apply' would change: ` +
    'a launch, the profile, the model, the soul (as a unified diff), skills, ' +
    'pause or resume; agents only on the service are listed ' +
    "as what 'apply --prune' would destroy. Changes nothing. Exit 0 " +
    'when nothing would change; with --detailed-exit-code, ' +
    'exit 9 when changes are pending (and 0 when none are). ' +
    'Problems in the file are reported with their line and column, ' +
    "before any request; a new agent's bot_token_env naming a variable unset or not holding a bot token is one too " +
    '(exit 2, before the plan is shown). ' +
    'A plan apply would refuse (its launches over the limit of live ' +
    'agents) is shown, then fails as apply would (exit 6). ' +
    'With --prune, what each agent to destroy holds is read as apply reads it: one that holds funds, ' +
    'or whose holdings cannot be read, gets a note, and the plan then fails as apply would (exit 6, or 7 ' +
    'when nothing is known but a source was not read), unless --abandon-funds.',
  options: {
    file: {
      type: 'string',
      short: 'f',
      value: 'file',
      complete: 'file',
      description: `the fleet file (default: ./${FLEET_FILE})`,
    },
    detailedExitCode: { type: 'boolean', description: 'exit 9 when changes are pending' },
    prune: {
      type: 'boolean',
      description: 'plan as apply --prune does: agents not in the file count as changes (to destroy)',
    },
    abandonFunds: {
      type: 'boolean',
      description: 'with --prune: plan as apply --prune --abandon-funds does (what is left behind is noted)',
    },
  },
  examples: [
    'superagent plan',
    'superagent plan -f fleet/prod.yaml',
    'superagent plan --detailed-exit-code || echo "changes pending"',
    'superagent plan --json | jq .changes_pending',
  ],
} as const satisfies Spec;

export async function run(input: Input<typeof spec>, ctx: Context): Promise<number> {
  const { plan } = await openFleet(ctx, { file: input.file, prune: input.prune });
  const abandon = input.abandonFunds === true;
  // the agents apply --prune would refuse to destroy, read as apply reads them: said in the plan
  const doomed = pruned(plan);
  const holdings = await readEach(ctx, doomed);
  holdings.forEach((h, i) => {
    const note = fundsNote(h, abandon);
    if (note) plan.agents.find((a) => a.agent_id === doomed[i]!.agent_id)!.notes.push(note);
  });
  if (ctx.printer.json) ctx.printer.printJson(await planJson(plan));
  else await showPlan(ctx, plan);
  // what apply refuses before any write is not a plan to merge: said after the plan it is about
  assertRoom(plan);
  const refused = abandon ? undefined : refusal(holdings, { planned: true });
  if (refused) throw refused;
  return input.detailedExitCode && pending(plan) ? EXIT.changesPending : EXIT.ok;
}
