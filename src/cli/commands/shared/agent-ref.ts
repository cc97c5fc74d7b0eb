// `<agent>` references (CLI.md): a uuid, a unique id prefix of at least 4 characters, or a unique
// name (case-insensitive). A uuid costs no request; anything else is matched against one list call.
import type { ApiClient } from '../../../api/client.js';
import { superagents } from '../../../api/superagents.js';
import type { AgentRecord } from '../../../api/types.js';
import { UUID_PATTERN } from '../../../contract.js';
import { NoMatchError } from '../../../core/errors.js';

export interface AgentRef {
  agent_id: string;
  /** known when the reference was matched against the list */
  name?: string;
  record?: AgentRecord;
}

export const MIN_PREFIX = 4;

function describe(agents: AgentRecord[]): string {
  return agents.map((a) => `${a.name} (${a.agent_id.slice(0, 8)})`).join(', ');
}

/** Matches one reference against a list of agents. Throws exit 4 for none or several. */
export function matchAgent(ref: string, agents: AgentRecord[]): AgentRecord {
  const wanted = ref.trim().toLowerCase();
  const byName = agents.filter((a) => a.name?.toLowerCase() === wanted);
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1) throw new NoMatchError(`'${ref}' names several agents: ${describe(byName)}`, 'use the id, or a longer id prefix');
  const byPrefix = wanted.length >= MIN_PREFIX ? agents.filter((a) => a.agent_id.toLowerCase().startsWith(wanted)) : [];
  if (byPrefix.length === 1) return byPrefix[0]!;
  if (byPrefix.length > 1) throw new NoMatchError(`'${ref}' matches several agents: ${describe(byPrefix)}`, 'use a longer id prefix');
  const hint = wanted.length < MIN_PREFIX && /^[0-9a-f-]+$/.test(wanted)
    ? `an id prefix needs at least ${MIN_PREFIX} characters`
    : "see 'superagent list'";
  throw new NoMatchError(`no agent matches '${ref}'`, hint);
}

export type Settled = { ref: string; agent: AgentRef } | { ref: string; error: unknown };

/**
 * Resolves several references with at most one list call; a reference that fails becomes an entry
 * of its own (commands on several agents report each one).
 */
export async function resolveAgentsSettled(client: ApiClient, refs: string[]): Promise<Settled[]> {
  let agents: AgentRecord[] | undefined;
  const out: Settled[] = [];
  for (const ref of refs) {
    try {
      if (UUID_PATTERN.test(ref)) {
        out.push({ ref, agent: { agent_id: ref.toLowerCase() } });
        continue;
      }
      agents ??= await superagents.list(client);
      const record = matchAgent(ref, agents);
      out.push({ ref, agent: { agent_id: record.agent_id, name: record.name, record } });
    } catch (error) {
      out.push({ ref, error });
    }
  }
  return out;
}

export async function resolveAgent(client: ApiClient, ref: string): Promise<AgentRef> {
  const [settled] = await resolveAgentsSettled(client, [ref]);
  if ('error' in settled!) throw settled.error;
  return settled!.agent;
}
