// /v1/superagents/{id}: profile, soul, model and skills (docs/api.md, Endpoints).
import { LIMITS } from '../../contract.js';
import { badRequest, sendJson } from '../http.js';
import type { Route, RouteContext } from '../router.js';
import { SKILLS, SKILL_NAMES, isSkillName } from '../runtime/skills.js';
import type { StoredAgent } from '../store.js';
import { NAME_RULES, optionalString, requiredProvider, requiredString } from '../validate.js';
import { appendMemory, dated } from '../store/caps.js';
import { assertNameFree, changeAgent, ownedAgent, settle } from './superagents.js';

async function profile(ctx: RouteContext): Promise<void> {
  const body = ctx.body;
  const name = optionalString(body, 'name', LIMITS.nameChars, { min: 1, ...NAME_RULES });
  const description = optionalString(body, 'description', LIMITS.descriptionChars, { noControls: 'text' });
  if (name === undefined && description === undefined) throw badRequest('name or description is required');
  const change = (agent: StoredAgent) => {
    if (name !== undefined) agent.name = name;
    if (description !== undefined) agent.description = description;
    return { status: 'updated' };
  };
  // a rename is checked against the other live agents under the account's lock, as a launch is
  await changeAgent(ctx, change, name === undefined ? undefined : (live, id) => assertNameFree(live, name, id));
}

async function soul(ctx: RouteContext): Promise<void> {
  const body = ctx.body;
  const soulMd = requiredString(body, 'soul_md', LIMITS.soulBytes, { bytes: true });
  await settle(ctx); // it traded under the rules it had until now
  await changeAgent(ctx, (agent) => {
    if (agent.soul_md !== soulMd) remember(ctx, agent, 'soul.md updated');
    agent.soul_md = soulMd;
    return { status: 'updated' };
  });
}

async function model(ctx: RouteContext): Promise<void> {
  const body = ctx.body;
  const modelId = requiredString(body, 'model', LIMITS.modelChars, { trim: true, noControls: 'line' });
  const provider = requiredProvider(body);
  await changeAgent(ctx, (agent) => {
    if (agent.model !== modelId || agent.model_provider !== provider)
      remember(ctx, agent, `model changed to ${modelId} (${provider})`);
    agent.model = modelId;
    agent.model_provider = provider;
    return { status: 'updated' };
  });
}

/** The events that matter to an agent go to its memory.md, dated (launch, model and soul changes). */
function remember(ctx: RouteContext, agent: StoredAgent, event: string): void {
  agent.memory_md = appendMemory(agent.memory_md, dated(ctx.service.store.now(), event));
}

function skillList(agent: StoredAgent) {
  return SKILLS.map((s) => ({
    name: s.name,
    description: s.description,
    enabled: agent.skills[s.name] ?? s.defaultEnabled,
  }));
}

async function getSkills(ctx: RouteContext): Promise<void> {
  const agent = ownedAgent(ctx.service.store, ctx.params.id!, ctx.account);
  sendJson(ctx.res, 200, { agent_id: agent.agent_id, skills: skillList(agent) });
}

/** `{ "disabled": [names] }`: the whole set of disabled skills (hosted-openapi.json). */
function parseDisabled(body: Record<string, unknown>): Set<string> {
  const disabled = body.disabled;
  if (disabled === undefined || disabled === null) throw badRequest('disabled is required');
  if (!Array.isArray(disabled) || disabled.some((name) => typeof name !== 'string')) {
    throw badRequest('disabled must be an array of strings');
  }
  for (const name of disabled as string[]) {
    if (!isSkillName(name)) throw badRequest(`Unknown skill '${name}'; available: ${SKILL_NAMES.join(', ')}`);
  }
  return new Set(disabled as string[]);
}

async function putSkills(ctx: RouteContext): Promise<void> {
  const disabled = parseDisabled(ctx.body);
  await settle(ctx); // it traded with the skills it had until now
  await changeAgent(ctx, (agent) => {
    // every skill not named is enabled: `[]` enables all
    for (const name of SKILL_NAMES) agent.skills[name] = !disabled.has(name);
    return { status: 'updated' };
  });
}

const base = '/v1/superagents/:id';
export const agentConfigRoutes: Route[] = [
  { method: 'PUT', path: `${base}/profile`, handler: profile },
  { method: 'PUT', path: `${base}/soul`, handler: soul },
  { method: 'PUT', path: `${base}/model`, handler: model },
  { method: 'GET', path: `${base}/skills`, handler: getSkills },
  { method: 'PUT', path: `${base}/skills`, handler: putSkills },
];
