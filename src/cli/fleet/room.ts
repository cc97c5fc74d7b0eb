// A plan against the account's limit of live agents. apply launches before it destroys, so that a
// failed launch has destroyed nothing; with --prune, when the launches only fit once agents not in
// the file are gone, as many of those as the launches need are destroyed first (the rest stay last).
// A plan whose end state is over the limit is refused before any write, by plan as by apply.
import { AgentLimitError, DESTROY_TO_FREE } from '../../api/errors.js';
import { LIMITS } from '../../contract.js';
import { cellSafe } from '../../ui/format.js';
import type { AgentPlan, Plan } from './plan.js';

const LIMIT = LIMITS.agentsPerAccount;
const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** The agents apply --prune destroys before its launches, to make room for them: the plan's first ones. */
export function destroyedFirst(plan: Plan): AgentPlan[] {
  const launches = plan.agents.filter((a) => a.action === 'create').length;
  const over = plan.live + launches - LIMIT;
  return over > 0 ? plan.agents.filter((a) => a.action === 'destroy').slice(0, over) : [];
}

const count = (plan: Plan, action: AgentPlan['action']) => plan.agents.filter((a) => a.action === action).length;

/**
 * How to make room for the plan's launches: launch's advice (AGENT_LIMIT_HINT) for as many slots as
 * they lack, and apply's own way when it would do (--prune, the agents not in the file gone).
 */
export function roomHint(plan: Plan): string {
  const launches = count(plan, 'create');
  const outside = count(plan, 'not-in-file');
  const slots = Math.max(1, plan.live + launches - LIMIT);
  const prune =
    !plan.prune && outside > 0 && plan.live - outside + launches <= LIMIT
      ? `, or let 'apply --prune' destroy the ${plural(outside, 'agent')} not in the file`
      : '';
  return `free ${slots === 1 ? 'a slot' : `${slots} slots`}: ${DESTROY_TO_FREE}${prune}, then apply again`;
}

/** Throws when the plan launches agents and leaves more live agents than the account may hold. */
export function assertRoom(plan: Plan): void {
  const launches = count(plan, 'create');
  if (launches === 0 || plan.live + launches - count(plan, 'destroy') <= LIMIT) return;
  const reached = `Agent limit reached (${LIMIT})`;
  if (plan.prune) {
    // every agent not in the file is destroyed: what is left is the file
    const kept = plan.agents.length - count(plan, 'destroy');
    throw new AgentLimitError(`${reached}: the file holds ${plural(kept, 'agent')}`, 'take some out of the file');
  }
  const now = `the service has ${plan.live} live agents and the file adds ${launches}`;
  throw new AgentLimitError(`${reached}: ${now}`, roomHint(plan));
}

/** What the plan says about the destroys apply takes first, if any. */
export function roomNote(plan: Plan): string | undefined {
  const first = destroyedFirst(plan);
  if (first.length === 0) return undefined;
  const names = first.map((a) => cellSafe(a.name)).join(', ');
  return `apply destroys ${names} before the launches: the service holds at most ${LIMIT} live agents`;
}
