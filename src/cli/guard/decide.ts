// One agent, one check: its readings against the limits and what guard recorded, to the events to say,
// whether to pause it, and the change to make to its recorded state. No I/O: the kill switch is decided
// on a snapshot of the state, and the change is written after the pause is sent.
import type { Readings, Known } from './figures.js';
import { figure, type Action, type GuardEvent } from './events.js';
import { beyond, past, repauseAt, RULE_NAMES, type RuleName, type Rules } from './rules.js';
import { addSeen, confirmedPeak, peakSeen, restamp, type AgentState, type BreachRecord } from './state.js';

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

interface Drawdown {
  known: Known;
  /** the confirmed peak it is measured from */
  peak: number | null;
  /** the value now as confirmed by the point before it (what guard keeps as a peak it saw) */
  confirmed: number | null;
}

/**
 * The drawdown of the account now from its confirmed peak in the window: over the merged series of
 * Hyperliquid's history, the last value guard saw and the value now, the highest value two points in a
 * row reached (a lone spike is no peak), and the confirmed values guard kept. The value now need not be
 * confirmed to be a fall: a breach acts on the first reading.
 */
function drawdown(
  r: Readings,
  s: AgentState | undefined,
  o: { now: number; windowMs: number; limit: number },
): Drawdown {
  const account = r.account.value;
  if (account === null) return { known: r.account, peak: null, confirmed: null };
  const last = s?.last && s.last[0] >= o.now - o.windowMs ? [s.last] : [];
  const before = [...(r.history.value ?? []), ...last].filter(([t]) => t <= o.now).sort((a, b) => a[0] - b[0]);
  const prior = before.at(-1);
  const confirmed = prior ? Math.min(prior[1], account) : null;
  const series = [...(r.history.value ?? []), ...last, [o.now, account] as [number, number]];
  const seen = s ? peakSeen(s.peaks, o.now, o.windowMs) : null;
  const peak = Math.max(confirmedPeak(series) ?? 0, seen ?? 0, account);
  const value = peak > 0 ? round2(((peak - account) / peak) * 100) : 0;
  // without Hyperliquid's history the peak may be higher than known: only a breach is certain
  if (r.history.value === null && !past('max-drawdown', value, o.limit)) return { known: r.history, peak, confirmed };
  return { known: { value }, peak, confirmed };
}

/**
 * The wallet total: one that leaves a source out (switched off or failed) is at least what was read, so
 * only "within the limit" is certain; below it is not known (an error, never a breach).
 */
function total(r: Readings, limit: number): Known {
  const t = r.total;
  if (t.value !== null && t.partial && past('min-value', t.value, limit)) {
    const read = figure('min-value', t.value);
    const reason = `the total leaves out ${t.partial}: ${read} read, below the limit not certain`;
    return { value: null, reason };
  }
  return t.value === null ? t : { value: t.value };
}

/**
 * Whether a recorded breach still keeps a resumed agent running. A drawdown's holds only while the
 * peak it was measured from is still the confirmed peak (not once it left the window or a higher one
 * came), and never at 100% (nothing can go beyond it); a total's never at 0, a loss's only within the
 * window it was measured over. A record that no longer holds is replaced by the next breach.
 */
function shields(rule: RuleName, b: BreachRecord, peak: number | null, now: number, windowMs: number): boolean {
  if (rule === 'max-drawdown') return b.value < 100 && b.peak !== undefined && b.peak === peak;
  if (rule === 'min-value') return b.value > 0;
  return b.time >= now - windowMs;
}

/** What a breach of a resumed agent does to the person's resume, and why. */
function resumeWords(rule: RuleName, at: number, until: number | null, action: Action): string {
  const side = rule === 'min-value' ? 'below' : 'beyond';
  const resumed = `resumed by a person at ${figure(rule, at)}`;
  const then = action === 'pause' ? 'pausing it again' : 'not paused (--dry-run)';
  if (until === null) return `${resumed}, a breach that no longer holds (another peak or window): ${then}`;
  if (action === 'tolerated') return `${resumed}: left running until ${side} ${figure(rule, until)}`;
  return `${resumed}; now ${side} ${figure(rule, until)}: ${then}`;
}

export function decide(
  agent: Agent,
  r: Readings,
  o: { rules: Rules; windowMs: number; now: number; dryRun: boolean; state: AgentState | undefined },
): Decision {
  const recorded = o.state?.breaches ?? {};
  const base = { agent_id: agent.agent_id, name: agent.name };
  const d: Decision = { events: [], breached: false, pause: false, unreadable: false, values: {}, change: () => {} };
  type Entry = { value: number; peak?: number };
  const record: Partial<Record<RuleName, Entry | null>> = {};
  /** breaches recorded only once the pause they call for is taken (else the next check acts again) */
  const onPause: Partial<Record<RuleName, Entry>> = {};
  const dd =
    o.rules['max-drawdown'] === undefined
      ? null
      : drawdown(r, o.state, { now: o.now, windowMs: o.windowMs, limit: o.rules['max-drawdown'] });
  const ignored = r.history.value ? r.history.ignored : null;
  if (ignored) {
    const latest = new Date(ignored.latest).toISOString();
    const detail =
      `Hyperliquid's history lists ${ignored.count} point${ignored.count === 1 ? '' : 's'} later than now ` +
      `(up to ${latest}): left out (is a clock wrong?)`;
    d.events.push({ ...base, event: 'error', rule: null, value: null, limit: null, action: 'none', detail });
  }
  for (const rule of RULE_NAMES) {
    const limit = o.rules[rule];
    if (limit === undefined) continue;
    const known = rule === 'max-drawdown' ? dd!.known : rule === 'min-value' ? total(r, limit) : r.loss;
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
    const peak = rule === 'max-drawdown' ? dd!.peak : null;
    const entry: Entry = rule === 'max-drawdown' ? { value, peak: peak! } : { value };
    const holds = before !== undefined && shields(rule, before, peak, o.now, o.windowMs);
    let action: Action;
    let detail: string | null = null;
    if (agent.status === 'paused') {
      action = 'already_paused';
      // what a person sees when resuming it is what guard accepts then
      if (before && (!holds || beyond(rule, value, before.value))) record[rule] = entry;
    } else {
      // running with a record: a person resumed it after guard's pause
      const until = holds ? repauseAt(rule, before!.value, limit) : null;
      action = until !== null && !beyond(rule, value, until) ? 'tolerated' : o.dryRun ? 'dry_run' : 'pause';
      if (action === 'pause') onPause[rule] = entry;
      if (before) detail = resumeWords(rule, before.value, until, action);
    }
    if (action !== 'tolerated') d.breached = true;
    if (action === 'pause') d.pause = true;
    d.events.push({ ...base, event: 'breach', rule, value, limit, action, detail });
  }
  const account = r.account.value;
  // guard's own confirmation of the value now (without a drawdown rule: by the last value it saw)
  const confirmed = dd ? dd.confirmed : null;
  d.change = (state, paused) => {
    restamp(state, o.now);
    if (account !== null) {
      const c = dd ? confirmed : state.last ? Math.min(state.last[1], account) : null;
      if (c !== null) addSeen(state.peaks, o.now, c, o.windowMs);
      state.last = [o.now, account];
    }
    const changes = { ...record, ...(paused ? onPause : {}) };
    for (const [rule, e] of Object.entries(changes) as Array<[RuleName, Entry | null]>) {
      if (e === null) delete state.breaches[rule];
      else state.breaches[rule] = { ...e, limit: o.rules[rule]!, time: o.now };
    }
  };
  return d;
}
