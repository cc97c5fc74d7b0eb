// The fleet as files: superagents.yaml (every field the service lets us read back, so a plan
// against a fresh export shows nothing) and one soul file per agent under souls/.
import type { AgentRecord, Skill } from '../../api/types.js';
import { agentNameKey } from '../../contract.js';
import { UsageError } from '../../core/errors.js';
import { fileSlug } from '../commands/shared/agent-fields.js';
import { STATUSES } from './schema.js';

export interface Exported {
  record: AgentRecord;
  soul: string;
  skills: Skill[];
}

export interface ExportFiles {
  /** relative to the export's directory, in the order they are listed */
  files: Array<{ path: string; text: string }>;
}

const HEADER = [
  ' The SuperAgents of one account, written by `superagent export`.',
  ' `superagent plan` shows how the service differs from this file; `superagent apply` makes it match.',
  ' A field left out is left as it is on the service. Bot tokens: bot_token_env names the variable that',
  ' holds one (used at launch); the token itself never goes here. Schema: `superagent schema`.',
].join('\n');

/** Two agents of one name cannot be told apart in a file matched by name. */
function assertUniqueNames(agents: Exported[]): void {
  const seen = new Map<string, AgentRecord>();
  for (const { record } of agents) {
    const key = agentNameKey(record.name);
    const other = seen.get(key);
    if (other) {
      throw new UsageError(
        `the service has two agents named '${record.name}' (${other.agent_id.slice(0, 8)}, ` +
          `${record.agent_id.slice(0, 8)}); a fleet file matches agents by name`,
        'rename one first: superagent update ID --name NEW',
      );
    }
    seen.set(key, record);
  }
}

/** A soul file name per agent, unique even when two names make the same slug. */
function soulPaths(agents: Exported[]): string[] {
  const used = new Set<string>();
  return agents.map(({ record }) => {
    let name = `souls/${fileSlug(record.name, record.agent_id)}.md`;
    if (used.has(name)) name = `souls/${fileSlug(record.name, record.agent_id)}-${record.agent_id.slice(0, 8)}.md`;
    used.add(name);
    return name;
  });
}

/** The agent as the file says it; what the record does not know is left out (so it is left alone). */
function entry(e: Exported, soul: string | undefined): Record<string, unknown> {
  const r = e.record;
  const out: Record<string, unknown> = { name: r.name, description: r.description ?? '' };
  if (r.model) out.model = r.model;
  if (r.model && r.model_provider) out.provider = r.model_provider;
  if (soul !== undefined) out.soul = soul;
  if (e.skills.length > 0) out.skills = { enabled: e.skills.filter((s) => s.enabled).map((s) => s.name) };
  if (r.status !== undefined && (STATUSES as readonly string[]).includes(r.status)) out.status = r.status;
  return out;
}

/** The files of an export, oldest agent first (a new agent is added at the end of the file). */
export async function exportFiles(agents: Exported[], fleetFile: string): Promise<ExportFiles> {
  assertUniqueNames(agents);
  const { Document, isMap } = await import('../../vendor/yaml.js');
  // a soul file may not be empty (plan refuses one): a blank soul is left out, and so left alone
  const paths = soulPaths(agents).map((p, i) => (agents[i]!.soul.trim() ? p : undefined));
  const doc = new Document({ agents: agents.map((a, i) => entry(a, paths[i])) });
  doc.commentBefore = HEADER;
  agents.forEach((_, i) => {
    const skills = doc.getIn(['agents', i, 'skills'], true);
    if (isMap(skills)) skills.flow = true; // `skills: { enabled: [a, b] }`, as people write it
  });
  return {
    files: [
      { path: fleetFile, text: doc.toString({ lineWidth: 0, flowCollectionPadding: false }) },
      ...agents.flatMap((a, i) => (paths[i] ? [{ path: paths[i]!, text: a.soul }] : [])),
    ],
  };
}
