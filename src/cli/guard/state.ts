// What guard keeps between checks and runs, in the data dir: per agent, the account values it has seen
// (the peaks a drawdown is measured from) and the breaches it acted on (an agent a person resumed is not
// paused again until it goes beyond the one recorded). Every change is a read-change-write under a lock
// file, written whole (temp file and rename): two guards at once keep each other's writes. A file that
// cannot be read as guard's is set aside (renamed, with a warning) and guard starts afresh: a watchdog
// that refused to run over it would leave the agents unguarded.
import fs from 'node:fs';
import path from 'node:path';
import { dataDir } from '../../config/paths.js';
import { makeDir, writeFileAtomic } from '../../core/atomic-write.js';
import { Locks } from '../../core/file-lock.js';
import { asEnvironmentError } from '../../core/errors.js';
import { FileTooLargeError, inMiB, NotRegularFileError, readRegularFile } from '../../core/regular-file.js';
import { MAX_WINDOW_MS, RULE_NAMES, type RuleName } from './rules.js';

export interface BreachRecord {
  value: number;
  limit: number;
  time: number;
  /** a drawdown's: the confirmed peak it was measured from (the record holds while that is the peak) */
  peak?: number;
}

export interface AgentState {
  /** confirmed values, [time, value], older first, values falling: each one the highest since its time */
  peaks: Array<[number, number]>;
  /** the last account value seen, [time, value]: the next one confirms it (or not) */
  last?: [number, number];
  breaches: Partial<Record<RuleName, BreachRecord>>;
}

export interface StateData {
  version: 1;
  agents: Record<string, AgentState>;
}

/** seen values closer together than window / BUCKETS share one entry, so the file stays small */
const BUCKETS = 250;
/** the most guard reads of its state: a few KB an agent at most, so thousands of agents; more is not its */
export const STATE_MAX_BYTES = 4 * 1024 ** 2;
/** an agent the service does not list, with nothing newer than the longest window, is of no use to any guard */
const FORGOTTEN_AFTER_MS = MAX_WINDOW_MS;

export function guardStateFile(env: NodeJS.ProcessEnv): string {
  return path.join(dataDir(env), 'guard', 'state.json');
}

/**
 * A clock gone back past what was recorded (it was ahead then): every time later than `now` is taken as
 * `now`. Left as they were, a peak or breach stamped in the future would stay for the length of the jump.
 */
export function restamp(state: AgentState, now: number): void {
  for (const p of state.peaks) if (p[0] > now) p[0] = now;
  if (state.last && state.last[0] > now) state.last[0] = now;
  for (const b of Object.values(state.breaches)) if (b.time > now) b.time = now;
}

/**
 * Adds a value seen at `time`. A time earlier than the last one kept (a clock gone back) is taken as the
 * last one: the order of what was seen is never changed, and no peak is lost. Entries older than the
 * window by `time` are dropped.
 */
export function addSeen(peaks: Array<[number, number]>, time: number, value: number, windowMs: number): void {
  const last = peaks.at(-1);
  const at = last ? Math.max(time, last[0]) : time;
  while (peaks.length > 0 && peaks.at(-1)![1] <= value) peaks.pop();
  const kept = peaks.at(-1);
  // within one bucket of the entry before (which is higher): nothing new to keep
  if (!(kept && at - kept[0] < windowMs / BUCKETS && kept[1] >= value)) peaks.push([at, value]);
  while (peaks.length > 0 && peaks[0]![0] < at - windowMs) peaks.shift();
}

/**
 * The highest value confirmed by a neighbour: over [time, value] points in time order, the highest
 * min(a, b) of two consecutive points. A lone spike (a source that lied once) is never a peak; a value
 * held over two readings is. Null with fewer than two points.
 */
export function confirmedPeak(points: Array<[number, number]>): number | null {
  const sorted = [...points].sort((a, b) => a[0] - b[0]);
  let peak: number | null = null;
  for (let i = 1; i < sorted.length; i++) {
    const v = Math.min(sorted[i - 1]![1], sorted[i]![1]);
    if (peak === null || v > peak) peak = v;
  }
  return peak;
}

/** The highest value seen within the window before `now` (or after it: a clock gone back), or null. */
export function peakSeen(peaks: Array<[number, number]>, now: number, windowMs: number): number | null {
  let peak: number | null = null;
  for (const [t, v] of peaks) if (t >= now - windowMs && (peak === null || v > peak)) peak = v;
  return peak;
}

const isNumber = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

const isPoint = (p: unknown): p is [number, number] => Array.isArray(p) && p.length === 2 && p.every(isNumber);

function validAgent(a: unknown): a is AgentState {
  if (!a || typeof a !== 'object') return false;
  const { peaks, last, breaches } = a as AgentState;
  if (!Array.isArray(peaks) || !peaks.every(isPoint)) return false;
  if (last !== undefined && !isPoint(last)) return false;
  if (!breaches || typeof breaches !== 'object') return false;
  return Object.entries(breaches).every(
    ([rule, b]) =>
      RULE_NAMES.includes(rule as RuleName) &&
      isNumber(b?.value) &&
      isNumber(b?.limit) &&
      isNumber(b?.time) &&
      (b.peak === undefined || isNumber(b.peak)),
  );
}

function parse(text: string): StateData | null {
  try {
    const data = JSON.parse(text) as StateData;
    if (data?.version !== 1 || !data.agents || typeof data.agents !== 'object') return null;
    return Object.values(data.agents).every(validAgent) ? data : null;
  } catch {
    return null;
  }
}

export const emptyAgent = (): AgentState => ({ peaks: [], breaches: {} });

/** The newest time recorded for an agent. */
function newest(a: AgentState): number {
  return Math.max(
    ...a.peaks.map(([t]) => t),
    a.last?.[0] ?? -Infinity,
    ...Object.values(a.breaches).map((b) => b.time),
  );
}

/**
 * Drops the agents the service lists as destroyed, and those it does not list (another service's, or
 * gone) with nothing newer than the longest window: what is kept stays bounded by the fleet.
 */
export function prune(data: StateData, o: { destroyed: Set<string>; listed: Set<string>; now: number }): void {
  for (const [id, a] of Object.entries(data.agents)) {
    const forgotten = !o.listed.has(id) && newest(a) < o.now - FORGOTTEN_AFTER_MS;
    if (o.destroyed.has(id) || forgotten) delete data.agents[id];
  }
}

export class GuardState {
  private readonly locks: Locks;

  constructor(
    readonly file: string,
    /** told once for each file set aside */
    private readonly warn: (line: string) => void,
  ) {
    this.locks = new Locks(path.dirname(file));
  }

  /** The state as it is now (empty when there is none yet). */
  read(): StateData {
    let text: string | null;
    try {
      text = readRegularFile(this.file, STATE_MAX_BYTES);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return { version: 1, agents: {} };
      if (err instanceof FileTooLargeError) {
        this.setAside(`is ${inMiB(err.size)}, larger than guard writes (at most ${inMiB(STATE_MAX_BYTES)})`);
        return { version: 1, agents: {} };
      }
      // something else there (a directory, a FIFO): set aside like a file that is not guard's
      if (!(err instanceof NotRegularFileError) && code !== 'EISDIR') {
        throw asEnvironmentError(err, { path: this.file, action: 'cannot read' }) ?? err;
      }
      text = null;
    }
    const data = text === null ? null : parse(text);
    if (data) return data;
    this.setAside("could not be read as guard's state");
    return { version: 1, agents: {} };
  }

  private setAside(why: string): void {
    const aside = `${this.file}.unreadable-${Date.now()}`;
    try {
      fs.renameSync(this.file, aside);
    } catch (err) {
      // another guard set it aside first
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw asEnvironmentError(err, { path: this.file, action: 'cannot set aside' }) ?? err;
    }
    this.warn(`${this.file} ${why}: set aside as ${aside}; peaks and breaches start afresh`);
  }

  /** Changes the state under the lock, written whole; gives what `change` gives. */
  async update<T>(change: (data: StateData) => T): Promise<T> {
    makeDir(path.dirname(this.file));
    return this.locks.with('state', () => {
      const data = this.read();
      const out = change(data);
      writeFileAtomic(this.file, JSON.stringify(data) + '\n');
      return out;
    });
  }
}
