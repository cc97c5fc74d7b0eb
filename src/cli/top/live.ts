// `top` on a terminal: the fleet view on a full screen, refreshed every interval, its keys acting on the
// selected agent. The screen (alternate screen, raw keys, given back on any ending) is handed in, so
// that the loop is tried with a stand-in; top.ts gives the real one.
import type { ChalkInstance } from 'chalk';
import { readMoneyAt } from '../commands/shared/money.js';
import type { OpenedApi } from '../commands/shared/opened-api.js';
import type { Context } from '../context.js';
import { errorLine } from '../exit-codes.js';
import type { KillSwitchPacer } from '../../api/rate-budget.js';
import { InterruptedError, TerminatedError } from '../../core/errors.js';
import { Actions, outcomeLine, sayLeaving, type Action, type Named } from './actions.js';
import type { Feed, Snapshot } from './feed.js';
import { positionsLines, reread, type PositionsRead } from './positions-view.js';
import { fitRanked, fleetLines } from './view.js';

/** A key as the screen decodes it (a character, a named key, Ctrl with a letter). */
export interface LiveKey {
  name: string;
  char?: string;
}

export interface LiveScreen {
  enter(): void;
  draw(lines: readonly string[]): unknown;
  suspend(): void;
  resume(): void;
  leave(): void;
  readonly size: { columns: number; rows: number };
}

export interface ScreenHandlers {
  onKey(key: LiveKey): void;
  onResize(): void;
  /** the screen was given back for a signal: the command ends with `reason` */
  onStop(reason: Error): void;
}

export type ScreenFactory = (handlers: ScreenHandlers) => LiveScreen;

/** Job control as a shell gives it (Ctrl-Z, `fg`): the process's own by default, a stand-in in tests. */
export interface JobControl {
  /** stops the process as Ctrl-Z does elsewhere; returns once it is continued (or was not stopped) */
  stop(): void;
  /** the process was continued (SIGCONT) */
  onContinue(handler: () => void): () => void;
}

const processJobs: JobControl = {
  // the whole process group, as the terminal's own Ctrl-Z would (npx and the like stop too)
  stop: () => void process.kill(0, 'SIGTSTP'),
  onContinue: (handler) => {
    process.on('SIGCONT', handler);
    return () => void process.removeListener('SIGCONT', handler);
  },
};

export interface LiveOptions {
  intervalMs: number;
  /** the service budget: the refresh reads within it, the keys' pauses and resumes never wait on it */
  pacer: KillSwitchPacer;
  /** what `c` runs: the chat REPL with the agent, on the normal screen */
  chat?: (agent: { agent_id: string; name: string }) => Promise<unknown>;
  /** process's by default */
  jobs?: JobControl;
}

const HELP = ['↑↓ j k select', 'p pause', 'r resume', 'P pause all', 'Enter positions', 'c chat', 'q quit'];
/** what stays longest on a narrow terminal: how to leave, then the keys that act */
const HELP_RANK = [3, 1, 2, 4, 5, 6, 0];
/** the positions view's keys: they act on the agent shown */
const POSITIONS_HELP = ['Esc back', 'p pause', 'r resume', 'c chat', 'q quit'];
const POSITIONS_RANK = [1, 2, 3, 4, 0];

/** The screen is given back before the error is reported: its line is already ended. */
function interrupted(): InterruptedError {
  const err = new InterruptedError();
  err.lineEnded = true;
  return err;
}

type Mode = { kind: 'fleet' } | { kind: 'confirm' } | { kind: 'positions'; agent: string; read: PositionsRead };

export async function runLive(
  ctx: Context,
  api: OpenedApi,
  feed: Feed,
  o: LiveOptions,
  makeScreen: ScreenFactory,
): Promise<void> {
  const colour: ChalkInstance = ctx.printer.out;
  let snapshot: Snapshot = feed.snapshot();
  let selectedId: string | null = null;
  let mode: Mode = { kind: 'fleet' };
  let message = '';
  let away = false;
  /** the screen is given back: nothing more is drawn */
  let left = false;
  const stop = new AbortController();

  const selected = () => {
    const i = snapshot.agents.findIndex((a) => a.agent_id === selectedId);
    return i >= 0 ? i : 0;
  };
  const agentAt = (i: number) => snapshot.agents[i];

  let screen: LiveScreen;
  const draw = () => {
    if (away || left) return;
    const { columns, rows } = screen.size;
    const m = mode;
    const help =
      m.kind === 'positions' ? fitRanked(POSITIONS_HELP, POSITIONS_RANK, columns) : fitRanked(HELP, HELP_RANK, columns);
    const bottom = [colour.bold(message), colour.dim(help)];
    if (m.kind === 'positions') {
      const name = snapshot.agents.find((a) => a.agent_id === m.agent)?.name ?? '';
      const lines = positionsLines(name, m.read, columns, ctx.clock.now()).slice(0, Math.max(0, rows - 2));
      return void screen.draw([...lines, ...pad(rows - 2 - lines.length), ...bottom]);
    }
    const input = {
      snapshot,
      width: columns,
      selected: selected(),
      now: ctx.clock.now(),
      budget: o.pacer.perMinute,
      colour,
    };
    // more agents than rows: the table is windowed round the selection
    const lines = fleetLines({ ...input, height: Math.max(1, rows - 2) }).slice(0, Math.max(0, rows - 2));
    screen.draw([...lines, ...pad(rows - 2 - lines.length), ...bottom]);
  };
  const pad = (n: number) => Array<string>(Math.max(0, n)).fill('');
  const say = (text: string) => {
    message = text;
    draw();
  };

  const actions = new Actions(ctx, api, o.pacer, (id, status) => feed.setStatus(id, status));
  const act = async (action: Action, agents: Named[], all = false) => {
    // one action at a time per agent: a key held down sends one request, not a queue of them
    const busy = actions.busyWith(agents);
    if (busy) return say(`busy: ${busy}…`);
    say(`${action === 'pause' ? 'pausing' : 'resuming'} ${agents.map((a) => a.name).join(', ')}…`);
    const outcome = await actions.send(action, agents, all);
    snapshot = feed.snapshot();
    say(outcomeLine(outcome, agents.length));
  };

  /** The positions of the agent shown, read (quietly) again; a market not read keeps its last figures. */
  const readPositions = async (agentId: string) => {
    const addresses = feed.addressesOf(agentId);
    const money = addresses
      ? await readMoneyAt(ctx, api, addresses, {
          only: ['hyperliquid', 'polymarket'],
          quiet: true,
          signal: stop.signal,
        })
      : undefined;
    const m = mode;
    if (m.kind !== 'positions' || m.agent !== agentId) return;
    const read: PositionsRead = money
      ? reread(m.read, money, ctx.clock.now())
      : m.read.state === 'read'
        ? m.read
        : { state: 'failed', why: 'its addresses are not read yet' };
    mode = { ...m, read };
    draw();
  };
  const showPositions = (agent: Named) => {
    mode = { kind: 'positions', agent: agent.agent_id, read: { state: 'reading' } };
    draw();
    return readPositions(agent.agent_id);
  };

  const chat = async (agent: { agent_id: string; name: string }) => {
    if (!o.chat) return;
    away = true;
    screen.suspend();
    try {
      await o.chat(agent);
      message = '';
    } catch (err) {
      // SIGTERM or SIGHUP (the REPL ended first) ends top with it; a SIGINT or a failure ends the chat only
      if (err instanceof TerminatedError) throw err;
      message = `chat: ${errorLine(err)}`;
    }
    away = false;
    screen.resume();
    draw();
  };

  // Ctrl-Z: the terminal given back, the process stopped; once continued (`fg`) the screen taken again
  const jobs = o.jobs ?? processJobs;
  let ownStop = false;
  const suspendJob = () => {
    away = true;
    screen.suspend();
    ownStop = true;
    try {
      jobs.stop();
    } finally {
      away = false;
      screen.resume();
      draw();
    }
  };
  // continued after a stop from elsewhere (kill -STOP): the terminal taken again, drawn whole
  const stopWatchingJobs = jobs.onContinue(() => {
    if (ownStop || away || left) return void (ownStop = false);
    screen.suspend();
    screen.resume();
    draw();
  });

  const onKey = async (key: LiveKey, quit: (err?: Error) => void) => {
    const ch = key.name === 'char' ? key.char : undefined;
    if (stop.signal.aborted) return; // leaving: only the answers are awaited
    // Ctrl-C at the keyboard (a key in raw mode) ends as Ctrl-C does elsewhere: exit 130
    if (key.name === 'ctrl' && key.char === 'c') return quit(interrupted());
    if (key.name === 'ctrl' && key.char === 'z') return suspendJob();
    if (mode.kind === 'confirm') {
      mode = { kind: 'fleet' };
      const running = snapshot.agents.filter((a) => a.status === 'running');
      if (ch !== 'y' && ch !== 'Y') return say('pause all: nothing done');
      // an agent with an action on its way is left to it (one at a time per agent)
      const free = running.filter((a) => !actions.isBusy(a.agent_id));
      if (free.length === 0) return say(`busy: ${actions.busyWith(running) ?? ''}…`);
      return act('pause', free, true);
    }
    const m = mode;
    if (m.kind === 'positions') {
      // its keys act on the agent shown
      const shown = snapshot.agents.find((a) => a.agent_id === m.agent);
      if (key.name === 'escape') {
        mode = { kind: 'fleet' };
        return draw();
      }
      if (ch === 'q') return quit();
      if (!shown) return;
      if (ch === 'p') return act('pause', [shown]);
      if (ch === 'r') return act('resume', [shown]);
      if (ch === 'c') return chat(shown);
      return;
    }
    const agent = agentAt(selected());
    const move = (by: number) => {
      const n = snapshot.agents.length;
      if (n > 0) selectedId = agentAt(Math.min(n - 1, Math.max(0, selected() + by)))!.agent_id;
      draw();
    };
    if (key.name === 'up' || ch === 'k') return move(-1);
    if (key.name === 'down' || ch === 'j') return move(1);
    if (ch === 'q') return quit();
    if (ch === 'P') {
      const running = snapshot.agents.filter((a) => a.status === 'running').length;
      if (running === 0) return say('no running agent to pause');
      mode = { kind: 'confirm' };
      return say(`Pause all ${running} running agent${running === 1 ? '' : 's'}? y/n`);
    }
    if (!agent) return;
    if (ch === 'p') return act('pause', [agent]);
    if (ch === 'r') return act('resume', [agent]);
    if (key.name === 'enter') return showPositions(agent);
    if (ch === 'c') return chat(agent);
  };

  return new Promise<void>((resolve, reject) => {
    let ending: unknown;
    // whatever ends top, the actions asked for are answered first (within the request time-out)
    const finish = async (err?: unknown) => {
      ending ??= err;
      if (stop.signal.aborted) return;
      stop.abort();
      stopWatchingJobs();
      if (actions.waiting) say(`leaving once answered: ${actions.waiting}…`);
      const outcomes = await actions.settle();
      left = true;
      screen.leave();
      const end = sayLeaving(ctx, outcomes, ending);
      if (end === undefined) resolve();
      else reject(end);
    };
    const quit = (err?: Error) => void finish(err);
    screen = makeScreen({
      onKey: (key) =>
        void onKey(key, quit).catch((err) => (err instanceof TerminatedError ? quit(err) : say(errorLine(err)))),
      onResize: draw,
      onStop: (reason) => void finish(reason),
    });
    screen.enter();
    draw();
    const loop = async () => {
      while (!stop.signal.aborted) {
        try {
          const onService = (s: Snapshot) => {
            snapshot = s;
            draw();
          };
          snapshot = await feed.refresh({ signal: stop.signal, onService });
          if (mode.kind === 'positions') await readPositions(mode.agent);
        } catch (err) {
          if (stop.signal.aborted) return;
          message = `refresh: ${errorLine(err)}`;
        }
        draw();
        await ctx.clock.sleep(o.intervalMs, stop.signal).catch(() => undefined);
      }
    };
    // a failure of the loop itself is a bug: the screen is given back before it is reported
    loop().catch((err) => void finish(err));
  });
}
