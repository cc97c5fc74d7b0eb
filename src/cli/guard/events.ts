// What guard says: one event per line, a person's line, or with --json one object per line with the same
// keys whatever the event.
import type { Context } from '../context.js';
import { usd } from '../commands/shared/money-view.js';
import { cellSafe } from '../../ui/format.js';
import type { RuleName } from './rules.js';

export type EventName = 'start' | 'breach' | 'paused' | 'error' | 'check';
/** 'unreadable': an agent that could not be read N checks in a row (--on-unreadable pause) */
export type EventRule = RuleName | 'unreadable';
/**
 * pause: guard pauses it now; dry_run: it would; already_paused: nothing left to do; tolerated: a person
 * resumed it after the breach recorded and it is not beyond it; retry: read again next check
 */
export type Action = 'watch' | 'pause' | 'dry_run' | 'already_paused' | 'tolerated' | 'paused' | 'retry' | 'none';

export interface GuardEvent {
  time: string;
  agent_id: string | null;
  name: string | null;
  event: EventName;
  rule: EventRule | null;
  value: number | null;
  limit: number | null;
  action: Action | null;
  /** the rest in words: a failure's reason, what a pause left open, a check's figures */
  detail: string | null;
}

/** A rule's figure in words: '25.00%', '$9,800.00', '3 checks'. */
export function figure(rule: EventRule, value: number): string {
  if (rule === 'max-drawdown') return `${value.toFixed(2)}%`;
  if (rule === 'unreadable') return `${value} check${value === 1 ? '' : 's'}`;
  return usd(value);
}

const ACTION_WORDS: Partial<Record<Action, string>> = {
  pause: 'pausing it',
  dry_run: 'not paused (--dry-run)',
  already_paused: 'already paused',
  tolerated: 'resumed by a person after the breach recorded, and not beyond it: left running',
};

/** The line a person reads: a name or detail from the service or a source made visible text, one line. */
export function humanLine(e: GuardEvent): string {
  const who = e.name ?? e.agent_id ?? 'guard';
  const at = `${e.time.slice(0, 19).replace('T', ' ')}Z`;
  const limit = e.rule && e.limit !== null ? figure(e.rule, e.limit) : '';
  let text: string;
  if (e.event === 'breach') {
    const value = e.rule && e.value !== null ? figure(e.rule, e.value) : '?';
    const side = e.rule === 'min-value' ? 'below' : 'past';
    const words = e.rule === 'unreadable' ? `not read for ${value} in a row` : `${e.rule} ${value}, ${side} ${limit}`;
    // a resumed agent's breach says what it does to the person's resume
    text = `BREACH ${words}: ${e.detail ?? ACTION_WORDS[e.action!] ?? e.action}`;
  } else if (e.event === 'paused') text = `paused${e.detail ? `; ${e.detail}` : ''}`;
  else if (e.event === 'error') text = e.rule ? `not read (${e.rule}): ${e.detail}` : `error: ${e.detail}`;
  else text = e.detail ?? e.event;
  return cellSafe(`${at} ${who}: ${text}`);
}

export type Emit = (e: Omit<GuardEvent, 'time'>) => void;

/** A failure that is no rule's: the agent list, a whole check, an agent gone from the list. */
export function failure(detail: string, action: Action, agent_id: string | null = null): Omit<GuardEvent, 'time'> {
  return { agent_id, name: null, event: 'error', rule: null, value: null, limit: null, action, detail };
}

/** Writes each event on stdout as it comes, stamped with the Context's clock. */
export function eventWriter(ctx: Context): Emit {
  const p = ctx.printer;
  return (e) => {
    const event: GuardEvent = { time: new Date(ctx.clock.now()).toISOString(), ...e };
    if (p.json) p.printJsonLine(event);
    else p.data(humanLine(event));
  };
}
