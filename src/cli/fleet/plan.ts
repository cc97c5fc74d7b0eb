// What `apply` would change: the file's agents against the service's, matched by name. Reads only
// what the file manages (a soul only when the file names one, skills only when it lists them), so a
// plan costs one list call plus at most two reads per agent (and one list of skills to check a new
// agent's against), and nothing else.
import type { ApiClient } from '../../api/client.js';
import { superagents } from '../../api/superagents.js';
import type { AgentRecord, Skill } from '../../api/types.js';
import { PROVIDERS, sameAgentName, type Provider } from '../../contract.js';
import { NoMatchError, SuperagentError, UsageError, rephrased } from '../../core/errors.js';
import type { Profile } from '../../config/file.js';
import { pickSkills } from '../commands/skills/toggle.js';
import { inferProvider, launchModel } from '../commands/shared/providers.js';
import type { DesiredAgent, FleetFile, SkillsWanted } from './file.js';

export type Change =
  | { field: 'name'; from: string; to: string }
  | { field: 'description'; from: string; to: string }
  | { field: 'model'; from: { model: string | null; provider?: string }; to: { model: string; provider: Provider } }
  | { field: 'soul'; from: string; to: string; path: string }
  /** disabled: the whole set to send; null for an agent not launched yet whose skills are not known */
  | { field: 'skills'; enable: string[]; disable: string[]; disabled: string[] | null; wanted: SkillsWanted }
  | { field: 'status'; from: string; to: 'running' | 'paused' };

export type Action = 'create' | 'update' | 'none' | 'destroy' | 'not-in-file';

export interface AgentPlan {
  action: Action;
  name: string;
  agent_id?: string;
  /** for create: what the launch sends besides the name */
  launch?: {
    model: string;
    provider: Provider;
    description?: string;
    soul?: { path: string; text: string };
    bot_token_env?: string;
  };
  changes: Change[];
  /** what apply leaves as it is, and why */
  notes: string[];
  desired?: DesiredAgent;
}

export interface Plan {
  file: string;
  agents: AgentPlan[];
  /** apply --prune: agents only on the service are destroyed */
  prune: boolean;
  /** the service's live agents before any change (the account limit counts them) */
  live: number;
}

/** Each agent of the file with its record, when the service has one by that name. */
function match(file: FleetFile, records: AgentRecord[]): Array<{ desired: DesiredAgent; record?: AgentRecord }> {
  return file.agents.map((desired) => {
    const exact = records.filter((r) => r.name === desired.name);
    const same = exact.length > 0 ? exact : records.filter((r) => sameAgentName(r.name, desired.name));
    if (same.length > 1) {
      throw new NoMatchError(
        `${desired.at('name')}: the service has ${same.length} agents named ` +
          `'${desired.name}' (${same.map((r) => r.agent_id.slice(0, 8)).join(', ')}), ` +
          `so the file cannot say which one it means`,
        'rename or destroy all but one: superagent update ID --name NEW',
      );
    }
    return { desired, record: same[0] };
  });
}

/** A problem found against the service's data, said at its place in the file. */
function at(err: unknown, where: string): unknown {
  return err instanceof SuperagentError ? rephrased(err, `${where}: ${err.message}`) : err;
}

/** The model and provider a change or launch sends (always both: docs/api.md, Rules the client follows). */
function modelFor(d: DesiredAgent, profile: Profile | undefined): { model: string; provider: Provider } {
  const choice = launchModel({ model: d.model, provider: d.provider }, profile);
  if (!choice.provider) {
    throw new UsageError(
      `${d.at('model')}: cannot tell which provider serves model '${choice.model}'`,
      `add provider: one of ${PROVIDERS.join(', ')}`,
    );
  }
  return { model: choice.model, provider: choice.provider };
}

/** The whole disabled set the file asks for, in the service's spelling; unknown names fail at their place. */
export function disabledSet(d: DesiredAgent, catalog: Skill[]): string[] {
  const wanted = d.skills!;
  const key = 'enabled' in wanted ? 'enabled' : 'disabled';
  const listed = 'enabled' in wanted ? wanted.enabled : wanted.disabled;
  let names: string[];
  try {
    names = pickSkills(listed, catalog, d.name);
  } catch (err) {
    // said at the first name the service does not know
    const known = new Set(catalog.map((s) => s.name.toLowerCase()));
    throw at(
      err,
      d.at([
        'skills',
        key,
        Math.max(
          0,
          listed.findIndex((n) => !known.has(n.trim().toLowerCase())),
        ),
      ]),
    );
  }
  const all = catalog.map((s) => s.name);
  return key === 'disabled' ? all.filter((n) => names.includes(n)) : all.filter((n) => !names.includes(n));
}

function skillsChange(d: DesiredAgent, catalog: Skill[]): Change | undefined {
  const disabled = disabledSet(d, catalog);
  const enable = catalog.filter((s) => !s.enabled && !disabled.includes(s.name)).map((s) => s.name);
  const disable = catalog.filter((s) => s.enabled && disabled.includes(s.name)).map((s) => s.name);
  if (enable.length === 0 && disable.length === 0) return undefined;
  return { field: 'skills', enable, disable, disabled, wanted: d.skills! };
}

function statusChange(d: DesiredAgent, status: string | undefined, notes: string[]): Change | undefined {
  if (!d.status || status === d.status) return undefined;
  if (status === 'running' || status === 'paused') return { field: 'status', from: status, to: d.status };
  notes.push(
    `status is ${status === undefined ? 'not known' : `'${status}'`}: apply only pauses ` +
      `a running agent or resumes a paused one (superagent restart may help)`,
  );
  return undefined;
}

function modelChange(d: DesiredAgent, r: AgentRecord, profile: Profile | undefined): Change | undefined {
  if (d.model === undefined && d.provider === undefined) return undefined;
  const model = d.model ?? r.model ?? undefined;
  const provider = d.provider ?? (model !== undefined ? inferProvider(model) : undefined);
  const known = r.model_provider;
  const differs =
    model !== (r.model ?? undefined) || (d.provider !== undefined && known !== undefined && known !== d.provider);
  if (!differs) return undefined;
  const to = provider && model ? { model, provider } : modelFor({ ...d, model }, profile);
  return { field: 'model', from: { model: r.model ?? null, ...(known ? { provider: known } : {}) }, to };
}

interface Reader {
  client: ApiClient;
  /** the skills of the first agent read: a new agent's are checked against them */
  catalog?: Skill[];
}

async function existing(
  d: DesiredAgent,
  r: AgentRecord,
  read: Reader,
  profile: Profile | undefined,
): Promise<AgentPlan> {
  const changes: Change[] = [];
  const notes: string[] = [];
  // one text in two Unicode forms (é, or e and a combining accent) shows the same: no rename
  if (r.name.normalize('NFC') !== d.name.normalize('NFC')) changes.push({ field: 'name', from: r.name, to: d.name });
  if (d.description !== undefined && d.description !== (r.description ?? ''))
    changes.push({ field: 'description', from: r.description ?? '', to: d.description });
  const model = modelChange(d, r, profile);
  if (model) changes.push(model);
  if (d.soul) {
    const files = await superagents.files(read.client, r.agent_id);
    const now = files.soul_md;
    if (now !== d.soul.text) changes.push({ field: 'soul', from: now, to: d.soul.text, path: d.soul.path });
  }
  if (d.skills) {
    const skills = (await superagents.skills(read.client, r.agent_id)).skills;
    read.catalog ??= skills;
    const change = skillsChange(d, skills);
    if (change) changes.push(change);
  }
  const status = statusChange(d, r.status, notes);
  if (status) changes.push(status);
  return { action: changes.length ? 'update' : 'none', name: d.name, agent_id: r.agent_id, changes, notes, desired: d };
}

function created(d: DesiredAgent, catalog: Skill[] | undefined, profile: Profile | undefined): AgentPlan {
  const changes: Change[] = [];
  // skills are set after the launch; before it they are checked against another agent's list, if any
  if (d.skills)
    changes.push({
      field: 'skills',
      enable: [],
      disable: [],
      disabled: catalog ? disabledSet(d, catalog) : null,
      wanted: d.skills,
    });
  if (d.status === 'paused') changes.push({ field: 'status', from: 'running', to: 'paused' });
  const launch = { ...modelFor(d, profile), description: d.description, soul: d.soul, bot_token_env: d.bot_token_env };
  return { action: 'create', name: d.name, launch, changes, notes: [], desired: d };
}

/** Reads the service and compares. `prune`: agents not in the file are to be destroyed. */
export async function makePlan(
  client: ApiClient,
  file: FleetFile,
  options: { prune: boolean; profile?: Profile },
): Promise<Plan> {
  const records = await superagents.list(client);
  const read: Reader = { client };
  const pairs = match(file, records);
  // agents on the service first: a new agent's skills are checked against their list
  const known = new Map<DesiredAgent, AgentPlan>();
  for (const { desired, record } of pairs)
    if (record) known.set(desired, await existing(desired, record, read, options.profile));
  if (!read.catalog && records.length > 0 && pairs.some((p) => !p.record && p.desired.skills)) {
    read.catalog = (await superagents.skills(client, records[0]!.agent_id)).skills;
  }
  const plans = pairs.map(({ desired }) => known.get(desired) ?? created(desired, read.catalog, options.profile));
  const matched = new Set(plans.map((p) => p.agent_id).filter(Boolean));
  for (const r of records) {
    if (matched.has(r.agent_id)) continue;
    plans.push({
      action: options.prune ? 'destroy' : 'not-in-file',
      name: r.name,
      agent_id: r.agent_id,
      changes: [],
      notes: [],
    });
  }
  return { file: file.shown, agents: plans, prune: options.prune, live: records.length };
}

/** Whether apply (with the plan's --prune) would change anything. */
export function pending(plan: Plan): boolean {
  return plan.agents.some((a) => a.action === 'create' || a.action === 'update' || a.action === 'destroy');
}

/** The agents apply --prune destroys, as the funds check reads them. */
export function pruned(plan: Plan): Array<{ agent_id: string; name: string }> {
  return plan.agents.flatMap((a) =>
    a.action === 'destroy' && a.agent_id ? [{ agent_id: a.agent_id, name: a.name }] : [],
  );
}
