// `<agent>` references (docs/cli.md): a uuid, a unique id prefix of at least 4 characters, or a unique
// name (in any case or Unicode form: sameAgentName). A uuid costs no request; anything else is
// matched against one list call.
import type { ApiClient } from '../../../api/client.js';
import { superagents } from '../../../api/superagents.js';
import type { AgentRecord } from '../../../api/types.js';
import { DuplicateNameError } from '../../../api/errors.js';
import { UUID_PATTERN, sameAgentName } from '../../../contract.js';
import { NoMatchError, UsageError, rephrased } from '../../../core/errors.js';
import { didYouMean } from '../../../core/suggest.js';

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

/** With whole ids: when the short form is the very thing in doubt. */
function describeFully(agents: AgentRecord[]): string {
  return agents.map((a) => `${a.name} (${a.agent_id})`).join(', ');
}

/** What the messages call the agents looked among, and the command that lists them. */
export interface AgentKind {
  noun: string;
  plural: string;
  list: string;
}
const SUPERAGENTS: AgentKind = { noun: 'agent', plural: 'agents', list: 'superagent list' };
export const CLASSIC_AGENTS: AgentKind = {
  noun: 'classic agent',
  plural: 'classic agents',
  list: 'superagent classic list',
};

/**
 * Matches one reference against a list of agents. Throws exit 4 for none or several, including a
 * reference that is one agent's name and another's id prefix (an agent named after the 8 characters
 * of another's id the table shows): neither reading is safe to prefer.
 */
export function matchAgent(ref: string, agents: AgentRecord[], kind: AgentKind = SUPERAGENTS): AgentRecord {
  const wanted = ref.trim().toLowerCase();
  const byName = agents.filter((a) => sameAgentName(a.name, ref));
  const byPrefix = wanted.length >= MIN_PREFIX ? agents.filter((a) => a.agent_id.toLowerCase().startsWith(wanted)) : [];
  const othersByPrefix = byPrefix.filter((a) => !byName.includes(a));
  if (byName.length > 0 && othersByPrefix.length > 0) {
    const both = `is the name of ${describeFully(byName)} and an id prefix of ${describeFully(othersByPrefix)}`;
    throw new NoMatchError(`'${ref}' ${both}`, 'give the full id of the one you mean');
  }
  if (byName.length === 1) return byName[0]!;
  if (byName.length > 1)
    throw new NoMatchError(
      `'${ref}' names several ${kind.plural}: ${describe(byName)}`,
      'use the id, or a longer id prefix',
    );
  if (byPrefix.length === 1) return byPrefix[0]!;
  if (byPrefix.length > 1)
    throw new NoMatchError(`'${ref}' matches several ${kind.plural}: ${describe(byPrefix)}`, 'use a longer id prefix');
  const hint =
    wanted.length < MIN_PREFIX && /^[0-9a-f-]+$/.test(wanted)
      ? `an id prefix needs at least ${MIN_PREFIX} characters`
      : (didYouMean(ref.trim(), agents.map((a) => a.name).filter(Boolean)) ?? `see '${kind.list}'`);
  throw new NoMatchError(`no ${kind.noun} matches '${ref}'`, hint);
}

/** An `<agent>` argument as given: never empty (that is a usage error, not a search). */
export function agentRefArg(ref: string | undefined): string {
  if (ref === undefined || ref.trim() === '')
    throw new UsageError('the agent is empty', 'give its name, its id or an id prefix of 4+ characters');
  return ref.trim();
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
      agentRefArg(ref);
      if (UUID_PATTERN.test(ref.trim())) {
        out.push({ ref, agent: { agent_id: ref.trim().toLowerCase() } });
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

/** One reference against a list already fetched: a uuid is taken as it is (an unknown one is the service's 404). */
export function resolveIn(ref: string, agents: AgentRecord[]): AgentRef {
  const given = agentRefArg(ref);
  if (UUID_PATTERN.test(given)) {
    const id = given.toLowerCase();
    const record = agents.find((a) => a.agent_id.toLowerCase() === id);
    return { agent_id: id, name: record?.name, record };
  }
  const record = matchAgent(given, agents);
  return { agent_id: record.agent_id, name: record.name, record };
}

const nameTaken = (taken: AgentRecord) => `an agent named '${taken.name}' already exists: ${taken.agent_id}`;

/**
 * Names are how people refer to agents, so a name a live agent already has is refused (launch,
 * rename) unless asked for: two `demo`s make every `demo` reference fail. The embedded service
 * refuses it too (a 409), by the same rule (sameAgentName).
 */
export function assertNameFree(agents: AgentRecord[], name: string, except?: string): void {
  const taken = agents.find((a) => a.agent_id !== except && sameAgentName(a.name, name));
  if (taken) throw new DuplicateNameError(nameTaken(taken), 'choose another name, or pass --allow-duplicate-name');
}

/**
 * The service's 409 for a name a live agent has names only the name: the agent is looked up (one
 * list) so that the failure names its id, as the check above does. Anything else is left as it is.
 */
export async function namingTheAgent(client: ApiClient, err: unknown, name: string, except?: string): Promise<unknown> {
  if (!(err instanceof DuplicateNameError)) return err;
  const agents = await superagents.list(client).catch(() => []);
  const taken = agents.find((a) => a.agent_id !== except && sameAgentName(a.name, name));
  return taken ? rephrased(err, nameTaken(taken)) : err;
}
