// /v1/agents: classic agents (docs/api.md, Endpoints): PATCH from the specification, the rest as the
// hosted service documents.
import { randomUUID } from 'node:crypto';
import { CLASSIC_CRONS, CLASSIC_DEFAULT_LIMIT, LIMITS, UUID_PATTERN } from '../../contract.js';
import { ApiError, badRequest, listing, notFound, sendJson } from '../http.js';
import type { Route, RouteContext } from '../router.js';
import type { ClassicTrigger, Store, StoredClassic } from '../store.js';
import { NAME_RULES, optionalBoolean, optionalString, requiredString } from '../validate.js';

function publicClassic(c: StoredClassic) {
  const { owner: _owner, ...record } = c;
  return record;
}

function ownedClassic(store: Store, id: string, account: string): StoredClassic {
  const found = UUID_PATTERN.test(id) ? store.classic.find(account, id.toLowerCase()) : undefined;
  if (!found) throw notFound();
  if (!found.mine) throw new ApiError(403, 'This agent belongs to another API key');
  return found.record;
}

/** The record as a change sees it: deleted meanwhile is 404. */
function stillThere(agent: StoredClassic | undefined): StoredClassic {
  if (!agent) throw notFound();
  return agent;
}

function parseTrigger(raw: unknown, i: number): ClassicTrigger {
  const where = `triggers[${i}]`;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw badRequest(`${where} must be an object`);
  const t = raw as Record<string, unknown>;
  if (t.type === 'scheduled') {
    if (typeof t.cron !== 'string' || !(CLASSIC_CRONS as readonly string[]).includes(t.cron)) {
      throw badRequest(`${where}.cron must be one of: ${CLASSIC_CRONS.join(', ')}`);
    }
    return { type: 'scheduled', cron: t.cron };
  }
  if (t.type === 'alpha') {
    if (typeof t.match !== 'string' || t.match.trim() === '')
      throw badRequest(`${where}.match is required for an alpha trigger`);
    const rating = t.min_impact_rating ?? 3;
    if (typeof rating !== 'number' || !Number.isInteger(rating) || rating < 1 || rating > 5) {
      throw badRequest(`${where}.min_impact_rating must be an integer from 1 to 5`);
    }
    return { type: 'alpha', match: t.match, min_impact_rating: rating };
  }
  throw badRequest(`${where}.type must be one of: scheduled, alpha`);
}

function parseTriggers(body: Record<string, unknown>): ClassicTrigger[] {
  if (body.triggers === undefined || body.triggers === null) return [];
  if (!Array.isArray(body.triggers)) throw badRequest('triggers must be an array');
  return body.triggers.map(parseTrigger);
}

async function create(ctx: RouteContext): Promise<void> {
  const body = ctx.body;
  const name = requiredString(body, 'name', LIMITS.nameChars, NAME_RULES);
  const goal = requiredString(body, 'goal', LIMITS.classicGoalChars, { noControls: 'text' });
  const instructions = requiredString(body, 'instructions', LIMITS.classicInstructionsChars, { noControls: 'text' });
  const description = optionalString(body, 'description', LIMITS.descriptionChars, { noControls: 'text' }) ?? '';
  const triggers = parseTriggers(body);
  const memoryEnabled = optionalBoolean(body, 'memory_enabled') ?? true;
  const tradingEnabled = optionalBoolean(body, 'trading_enabled') ?? false;
  const enabled = optionalBoolean(body, 'enabled') ?? false;
  const model =
    optionalString(body, 'model', LIMITS.modelChars, { min: 1, trim: true, noControls: 'line' }) ?? 'default';
  const now = new Date().toISOString();
  const record: StoredClassic = {
    id: randomUUID(),
    owner: ctx.account,
    user_id: ctx.account,
    name,
    description,
    data: { goal, instructions, memory_enabled: memoryEnabled, trading_enabled: tradingEnabled, model },
    triggers,
    enabled,
    stats: { runs: 0, alerts: 0, last_run_at: null },
    created_at: now,
    updated_at: now,
  };
  await ctx.service.store.classic.insert(ctx.account, record.id, record);
  sendJson(ctx.res, 201, {
    agent_id: record.id,
    name: record.name,
    description: record.description,
    goal: record.data.goal,
    instructions: record.data.instructions,
    triggers: record.triggers,
    enabled: record.enabled,
    created_at: record.created_at,
  });
}

function parseLimit(query: URLSearchParams): number {
  const raw = query.get('limit');
  if (raw === null) return CLASSIC_DEFAULT_LIMIT;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw badRequest('limit must be an integer from 1 to 100');
  return limit;
}

async function list(ctx: RouteContext): Promise<void> {
  const limit = parseLimit(ctx.query);
  const { classic } = ctx.service.store;
  const agents = listing(ctx.res, classic, () => classic.list(ctx.account))
    .map((e) => e.record)
    .sort((a, b) => b.created_at.localeCompare(a.created_at))
    .slice(0, limit)
    .map((c) => ({
      id: c.id,
      name: c.name,
      description: c.description,
      enabled: c.enabled,
      triggers: c.triggers,
      created_at: c.created_at,
      updated_at: c.updated_at,
    }));
  sendJson(ctx.res, 200, agents);
}

async function get(ctx: RouteContext): Promise<void> {
  sendJson(ctx.res, 200, publicClassic(ownedClassic(ctx.service.store, ctx.params.id!, ctx.account)));
}

async function patch(ctx: RouteContext): Promise<void> {
  const body = ctx.body;
  const name = optionalString(body, 'name', LIMITS.nameChars, { min: 1, ...NAME_RULES });
  const description = optionalString(body, 'description', LIMITS.descriptionChars, { noControls: 'text' });
  const goal = optionalString(body, 'goal', LIMITS.classicGoalChars, { min: 1, noControls: 'text' });
  const instructions = optionalString(body, 'instructions', LIMITS.classicInstructionsChars, {
    min: 1,
    noControls: 'text',
  });
  const { id } = ownedClassic(ctx.service.store, ctx.params.id!, ctx.account);
  const record = await ctx.service.store.classic.update(ctx.account, id, (draft) => {
    const agent = stillThere(draft);
    if (name !== undefined) agent.name = name;
    if (description !== undefined) agent.description = description;
    if (goal !== undefined) agent.data.goal = goal;
    if (instructions !== undefined) agent.data.instructions = instructions;
    agent.updated_at = new Date().toISOString();
    return publicClassic(agent);
  });
  sendJson(ctx.res, 200, record);
}

async function remove(ctx: RouteContext): Promise<void> {
  const { id } = ownedClassic(ctx.service.store, ctx.params.id!, ctx.account);
  await ctx.service.store.classic.remove(ctx.account, id);
  sendJson(ctx.res, 200, { message: 'Agent deleted' });
}

const base = '/v1/agents';
export const classicRoutes: Route[] = [
  { method: 'POST', path: base, handler: create },
  { method: 'GET', path: base, handler: list },
  { method: 'GET', path: `${base}/:id`, handler: get },
  { method: 'PATCH', path: `${base}/:id`, handler: patch },
  { method: 'DELETE', path: `${base}/:id`, handler: remove },
];
