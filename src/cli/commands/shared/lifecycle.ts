// pause, resume and restart on several agents: one line of result per agent, non-zero if any failed.
import { superagents } from '../../../api/superagents.js';
import type { ApiClient } from '../../../api/client.js';
import { ConflictError } from '../../../api/errors.js';
import type { AgentRecord, StatusResult } from '../../../api/types.js';
import { shellWord } from '../../../ui/shell-word.js';
import { resolveAgentsSettled, type Settled } from './agent-ref.js';
import type { Context } from '../../context.js';
import { EXIT, errorLine, exitCodeFor } from '../../exit-codes.js';
import { UsageError, rephrased } from '../../../core/errors.js';

export type Action = 'pause' | 'resume' | 'restart';

const PAST: Record<Action, string> = { pause: 'paused', resume: 'resumed', restart: 'restarted' };

interface Outcome {
  ref: string;
  agent_id?: string;
  name?: string;
  result?: StatusResult & { note?: string };
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
async function explainConflict(client: ApiClient, action: Action, id: string, label: string, record: AgentRecord | undefined, error: unknown): Promise<unknown> {
  const already = ALREADY[action];
  if (!already || !(error instanceof ConflictError)) return error;
  const status = record?.status ?? (await superagents.get(client, id).then((a) => a.status, () => undefined));
  return status === already ? rephrased(error, `already ${already}`, action === 'pause' ? `'superagent resume ${shellWord(label)}' runs it again` : undefined) : error;
}

export async function runLifecycle(action: Action, refs: string[], all: boolean, ctx: Context): Promise<number> {
  if (all && refs.length > 0) throw new UsageError(`give agents or --all, not both`);
  if (!all && refs.length === 0) {
    throw new UsageError(`name at least one agent to ${action}`, action in ALREADY ? `or --all for every agent not ${ALREADY[action]}` : undefined);
  }
  const { client } = await ctx.api();
  const outcomes: Outcome[] = [];
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
    try {
      outcomes.push({ ref: t.ref, agent_id, name, result: await superagents[action](client, agent_id) });
    } catch (error) {
      const explained = await explainConflict(client, action, agent_id, name ?? t.ref, record, error);
      // a 500 of the embedded service in the words that fit it (a full disk is the user's to fix)
      outcomes.push({ ref: t.ref, agent_id, name, error: ctx.explainFailure(explained) });
    }
  }
  report(action, outcomes, ctx);
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
          ? { ref: o.ref, agent_id: o.agent_id, error: { message: errorLine(o.error), exit_code: exitCodeFor(o.error) } }
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
      p.data(`${p.out.green('✓')} ${label} ${o.result!.note ?? PAST[action]} ${p.out.dim(`(${o.agent_id!.slice(0, 8)})`)}`);
    } else {
      p.data([o.agent_id, label, o.result!.status, o.result!.note ?? PAST[action]].join('\t'));
    }
  }
}

