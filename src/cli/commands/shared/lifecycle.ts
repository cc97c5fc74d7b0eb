// pause, resume and restart on several agents: one line of result per agent, non-zero if any failed.
// Piped, each line is `ID<TAB>NAME<TAB>STATUS<TAB>done|already` (lifecycleRows says it in the help).
// The requests go out together, before any other (`pause --all` is the kill switch: no agent should
// trade on while another's answer is awaited or explained), and a 429 is waited out once for all.
import { superagents } from '../../../api/superagents.js';
import { together, type TogetherOptions } from '../../../api/together.js';
import type { ApiClient } from '../../../api/client.js';
import { ConflictError } from '../../../api/errors.js';
import type { StatusResult } from '../../../api/types.js';
import { tsvRow } from '../../../ui/format.js';
import { shellWord } from '../../../ui/shell-word.js';
import { readOpenAtPause, sayOpenAtPause } from './paused-positions.js';
import { resolveAgentsSettled, type AgentRef, type Settled } from './agent-ref.js';
import type { Context } from '../../context.js';
import { EXIT, errorLine, exitCodeFor } from '../../exit-codes.js';
import { UsageError, rephrased } from '../../../core/errors.js';

export type Action = 'pause' | 'resume' | 'restart';

/** The piped rows, in words, for each command's description (`all`: the command has --all). */
export const lifecycleRows = (all: boolean) =>
  'Piped, one tab-separated line per agent: id, name (empty when given by uuid), its status now, ' +
  `and done${all ? ' (already, when --all found it so)' : ''}.`;

const PAST: Record<Action, string> = { pause: 'paused', resume: 'resumed', restart: 'restarted' };

interface Outcome {
  ref: string;
  agent_id?: string;
  name?: string;
  result?: StatusResult & { note?: string; open_positions?: number | null; open_orders?: number | null };
  error?: unknown;
}

/** With --all, agents already in the state asked for count as done (pause --all is idempotent, resume --all too). */
const ALREADY: Partial<Record<Action, string>> = { pause: 'paused', resume: 'running' };

async function targets(client: ApiClient, action: Action, refs: string[], all: boolean): Promise<Settled[]> {
  if (!all) return resolveAgentsSettled(client, refs);
  // the kill switch and its undo: every agent
  const agents = await superagents.list(client);
  return agents.map((a) => ({ ref: a.name, agent: { agent_id: a.agent_id, name: a.name, record: a } }));
}

/**
 * A 409 on pause or resume most often means the agent is already where it was asked to go: say
 * that ("✗ demo: already paused"), still as a conflict (exit 6). The status comes from the list when
 * the reference was matched there, else from one GET.
 */
async function explainConflict(client: ApiClient, action: Action, agent: AgentRef, ref: string, error: unknown) {
  const already = ALREADY[action];
  if (!already || !(error instanceof ConflictError)) return error;
  const asked = () =>
    superagents.get(client, agent.agent_id).then(
      (a) => a.status,
      () => undefined,
    );
  const status = agent.record?.status ?? (await asked());
  const label = agent.name ?? ref;
  return status === already
    ? rephrased(
        error,
        `already ${already}`,
        action === 'pause' ? `'superagent resume ${shellWord(label)}' runs it again` : undefined,
      )
    : error;
}

/** One agent (a key of `top`): the action, a refusal explained as the commands explain it ("already paused"). */
export async function actOnOne(ctx: Context, action: Action, agent: AgentRef): Promise<StatusResult> {
  const { client } = await ctx.api();
  try {
    return await superagents[action](client, agent.agent_id);
  } catch (err) {
    throw ctx.explainFailure(await explainConflict(client, action, agent, agent.name ?? agent.agent_id, err));
  }
}

/** The action sent to every agent at once (the kill switch: no agent waits on another's answer); settled each. */
export function sendTogether(client: ApiClient, action: Action, agentIds: string[]) {
  return together(
    client,
    agentIds.map((id) => (o: TogetherOptions) => superagents[action](client, id, o)),
  );
}

export async function runLifecycle(action: Action, refs: string[], all: boolean, ctx: Context): Promise<number> {
  if (all && refs.length > 0) throw new UsageError(`give agents or --all, not both`);
  if (!all && refs.length === 0) {
    throw new UsageError(
      `name at least one agent to ${action}`,
      action in ALREADY ? `or --all for every agent not ${ALREADY[action]}` : undefined,
    );
  }
  const { client } = await ctx.api();
  const outcomes: Outcome[] = [];
  /** the agents to send the action to, and where each one's outcome goes */
  const acting: Array<{ at: number; agent: AgentRef }> = [];
  for (const t of await targets(client, action, refs, all)) {
    if ('error' in t) {
      outcomes.push({ ref: t.ref, error: t.error });
      continue;
    }
    const { agent_id, name, record } = t.agent;
    const already = ALREADY[action];
    if (all && already && record?.status === already) {
      outcomes.push({ ref: t.ref, agent_id, name, result: { agent_id, status: already, note: `already ${already}` } });
      continue;
    }
    acting.push({ at: outcomes.length, agent: t.agent });
    outcomes.push({ ref: t.ref, agent_id, name });
  }
  const results = await sendTogether(
    client,
    action,
    acting.map(({ agent }) => agent.agent_id),
  );
  // only then what explains a refusal (a GET each)
  for (const [k, result] of results.entries()) {
    const { at, agent } = acting[k]!;
    const outcome = outcomes[at]!;
    if (result.status === 'fulfilled') outcome.result = result.value;
    else {
      const explained = await explainConflict(client, action, agent, outcome.ref, result.reason);
      // a 500 of the embedded service in the words that fit it (a full disk is the user's to fix)
      outcome.error = ctx.explainFailure(explained);
    }
  }
  // only once every pause is sent: what the paused agents left open (a failed read changes no exit code)
  const paused = action === 'pause' ? outcomes.filter((o) => o.result !== undefined && o.agent_id) : [];
  const sayOpen = async () => {
    const agents = paused.map((o) => ({ agent_id: o.agent_id!, name: o.name ?? o.ref }));
    const read = await readOpenAtPause(ctx, agents);
    for (const [k, r] of read.entries()) {
      Object.assign(paused[k]!.result!, { open_positions: r.open_positions, open_orders: r.open_orders });
    }
    return () => sayOpenAtPause(ctx, read);
  };
  if (ctx.printer.json && paused.length > 0) {
    const say = await sayOpen();
    report(action, outcomes, ctx);
    say();
  } else {
    report(action, outcomes, ctx);
    if (paused.length > 0) (await sayOpen())();
  }
  const failed = outcomes.find((o) => o.error !== undefined);
  // --all reached every agent the service could read; one it could not is a failure to say
  if (all) ctx.requireEveryRecord();
  return failed ? exitCodeFor(failed.error) : EXIT.ok;
}

function report(action: Action, outcomes: Outcome[], ctx: Context): void {
  const p = ctx.printer;
  if (p.json) {
    p.printJson(
      outcomes.map((o) =>
        o.error !== undefined
          ? {
              ref: o.ref,
              agent_id: o.agent_id,
              error: { message: errorLine(o.error), exit_code: exitCodeFor(o.error) },
            }
          : o.result,
      ),
    );
    for (const o of outcomes) if (o.error !== undefined) p.stderrWrite(`Error: ${o.ref}: ${errorLine(o.error)}\n`);
    return;
  }
  for (const o of outcomes) {
    const label = o.name ?? o.ref;
    if (o.error !== undefined) {
      p.stderrWrite(`${p.err.red('✗')} ${label}: ${errorLine(o.error)}\n`);
    } else if (p.stdoutIsTTY) {
      p.data(
        `${p.out.green('✓')} ${label} ${o.result!.note ?? PAST[action]} ${p.out.dim(`(${o.agent_id!.slice(0, 8)})`)}`,
      );
    } else {
      // one shape whatever the reference: a name not known (the agent given by uuid, which costs no request) is
      // empty; the status is the agent's now, and the last field whether this run made it so (not the verb
      // again: `paused paused` said nothing)
      const outcome = o.result!.note === undefined ? 'done' : 'already';
      p.data(tsvRow([o.agent_id ?? '', o.name ?? '', o.result!.status ?? '', outcome]));
    }
  }
}
