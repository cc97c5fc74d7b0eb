// One agent, one check: its readings against the limits and what guard recorded, to the events to say,
// whether to pause it, and the change to make to its recorded state. No I/O: the kill switch is decided
// on a snapshot of the state, and the change is written after the pause is sent.
import type { Readings, Known } from './figures.js';
import type { Action, GuardEvent } from './events.js';
import { beyond, past, RULE_NAMES, type RuleName, type Rules } from './rules.js';
import { addSeen, peakSeen, type AgentState } from './state.js';

export interface Agent {
  agent_id: string;
  name: string | null;
  status: string | null;
}

export interface Decision {
  events: Array<Omit<GuardEvent, 'time'>>;
  /** a rule breached anew (or would be, with --dry-run): --once exits 10 */
  breached: boolean;
  pause: boolean;
  /** a figure a rule needs could not be read */
  unreadable: boolean;
  /** each rule's figure (for --verbose) */
  values: Partial<Record<RuleName, Known>>;
  /** applied to the agent's recorded state once the pause is sent (`paused`: it was taken) */
  change(state: AgentState, paused: boolean): void;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The drawdown of the account now from its highest point in the window: Hyperliquid's history, guard's, now. */
function drawdown(r: Readings, seen: number | null, limit: number): Known {
  if (r.account.value === null) return r.account;
  const peak = Math.max(r.historyPeak.value ?? 0, seen ?? 0, r.account.value);
  const value = peak > 0 ? round2(((peak - r.account.value) / peak) * 100) : 0;
  // without Hyperliquid's history the peak may be higher than known: only a breach is certain
  if (r.historyPeak.value === null && !past('max-drawdown', value, limit)) return r.historyPeak;
  return { value };
}

/** The wallet total: a partial one is at least what was read, so only "within the limit" is certain. */
function total(r: Readings, limit: number): Known {
  const t = r.total;
  if (t.value !== null && t.partial && past('min-value', t.value, limit)) return { value: null, reason: t.partial };
  return t.value === null ? t : { value: t.value };
}

export function decide(
  agent: Agent,
  r: Readings,
  o: { rules: Rules; windowMs: number; now: number; dryRun: boolean; state: AgentState | undefined },
): Decision {
  const recorded = o.state?.breaches ?? {};
  const seen = o.state ? peakSeen(o.state.peaks, o.now, o.windowMs) : null;
  const base = { agent_id: agent.agent_id, name: agent.name };
  const d: Decision = { events: [], breached: false, pause: false, unreadable: false, values: {}, change: () => {} };
  const record: Partial<Record<RuleName, number | null>> = {};
  /** breaches recorded only once the pause they call for is taken (else the next check acts again) */
  const onPause: Partial<Record<RuleName, number>> = {};
  for (const rule of RULE_NAMES) {
    const limit = o.rules[rule];
    if (limit === undefined) continue;
    const known = rule === 'max-drawdown' ? drawdown(r, seen, limit) : rule === 'min-value' ? total(r, limit) : r.loss;
    d.values[rule] = known;
    if (known.value === null) {
      d.unreadable = true;
      d.events.push({ ...base, event: 'error', rule, value: null, limit, action: 'retry', detail: known.reason });
      continue;
    }
    const value = known.value;
    if (!past(rule, value, limit)) {
      // back within the limit: a later breach is a new one (not another guard's limit: that one may still hold)
      if (recorded[rule]?.limit === limit) record[rule] = null;
      continue;
    }
    const before = recorded[rule];
    let action: Action;
    if (agent.status === 'paused') {
      action = 'already_paused';
      // what a person sees when resuming it is what guard accepts then
      if (before && beyond(rule, value, before.value)) record[rule] = value;
    } else if (before && !beyond(rule, value, before.value)) action = 'tolerated';
    else {
      action = o.dryRun ? 'dry_run' : 'pause';
      if (!o.dryRun) onPause[rule] = value;
    }
    if (action !== 'tolerated') d.breached = true;
    if (action === 'pause') d.pause = true;
    d.events.push({ ...base, event: 'breach', rule, value, limit, action, detail: null });
  }
  const account = r.account.value;
  d.change = (state, paused) => {
    if (account !== null) addSeen(state.peaks, o.now, account, o.windowMs);
    const changes = { ...record, ...(paused ? onPause : {}) };
    for (const [rule, value] of Object.entries(changes) as Array<[RuleName, number | null]>) {
      if (value === null) delete state.breaches[rule];
      else state.breaches[rule] = { value, limit: o.rules[rule]!, time: o.now };
    }
  };
  return d;
}
