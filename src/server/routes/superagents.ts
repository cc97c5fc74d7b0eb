// /v1/superagents: launch, list, read and lifecycle (docs/api.md, Endpoints).
import { randomUUID } from 'node:crypto';
import { BOT_TOKEN_PATTERN, LIMITS, UUID_PATTERN, sameAgentName } from '../../contract.js';
import { ApiError, badRequest, conflict, listing, notFound, sendJson } from '../http.js';
import type { Route, RouteContext } from '../router.js';
import { defaultSkillState } from '../runtime/skills.js';
import type { Store, StoredAgent } from '../store.js';
import { NAME_RULES, optionalString, requiredProvider, requiredString } from '../validate.js';
import { createWallet } from '../wallets.js';

/** The hosted `SuperAgentSummary`, exactly: provider, bot and wallet stay inside (launch and wallet answer them). */
export function publicAgent(a: StoredAgent) {
  return {
    agent_id: a.agent_id,
    name: a.name,
    description: a.description,
    status: a.status,
    model: a.model,
    created_at: a.created_at,
  };
}

/** The caller's live agent with that id: malformed, unknown or destroyed is 404, someone else's is 403. */
export function ownedAgent(store: Store, id: string, account: string): StoredAgent {
  if (!UUID_PATTERN.test(id)) throw notFound();
  const found = store.agents.find(account, id.toLowerCase());
  if (!found || found.record.status === 'destroyed') throw notFound();
  if (!found.mine) throw new ApiError(403, 'This agent belongs to another API key');
  return found.record;
}

/** The agent as a change of its record sees it: gone (purged) or destroyed meanwhile is 404. */
export function liveAgent(agent: StoredAgent | undefined): StoredAgent {
  if (!agent || agent.status === 'destroyed') throw notFound();
  return agent;
}

type Answer = Record<string, unknown>;
type AgentChange = (agent: StoredAgent, now: string) => Answer;
/** Sees the account's live agents before a change under its lock; throws to refuse it. */
type AgentGuard = (live: StoredAgent[], id: string) => void;

/**
 * Applies `change` to the caller's agent (one record's versioned write) and returns `{ agent_id,
 * ...answer }`; with `guard`, under the account's lock after `guard` saw its live agents.
 */
async function applyToAgent(ctx: RouteContext, change: AgentChange, guard?: AgentGuard): Promise<Answer> {
  const { store } = ctx.service;
  const { agent_id: id } = ownedAgent(store, ctx.params.id!, ctx.account); // 404/403 before any write
  const write = (draft: StoredAgent | undefined) => {
    const agent = liveAgent(draft);
    const now = new Date().toISOString();
    const result = change(agent, now);
    agent.updated_at = now;
    return { agent_id: agent.agent_id, ...result };
  };
  if (!guard) return store.agents.update(ctx.account, id, write);
  return store.changeAgentChecked(ctx.account, id, (live) => guard(live, id), write);
}

/** Applies `change` to the caller's agent and answers `{ agent_id, ...answer }`. */
export async function changeAgent(ctx: RouteContext, change: AgentChange, guard?: AgentGuard): Promise<void> {
  sendJson(ctx.res, 200, await applyToAgent(ctx, change, guard));
}

/** No two live agents of one account share a name (sameAgentName): the 409 of a launch or rename to one. */
export function assertNameFree(live: StoredAgent[], name: string, except?: string): void {
  if (live.some((a) => a.agent_id !== except && sameAgentName(a.name, name))) {
    throw conflict(`An agent named '${name}' already exists`);
  }
}

export function defaultSoul(name: string): string {
  return [
    `# ${name}`,
    '',
    `You are ${name}, an autonomous crypto-trading SuperAgent.`,
    '',
    '## Rules',
    '- Protect capital first: never risk more than 2% of the portfolio on one trade.',
    '- Explain the reasoning behind every trade before making it.',
    '- Never use more than 3x leverage.',
    '',
  ].join('\n');
}

function botUsername(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 24)
    .replace(/^_+|_+$/g, '');
  return `${slug || 'superagent'}_bot`;
}

function dateOnly(iso: string): string {
  return iso.slice(0, 10);
}

async function launch(ctx: RouteContext): Promise<void> {
  const body = ctx.body;
  const name = requiredString(body, 'name', LIMITS.nameChars, NAME_RULES);
  const description = optionalString(body, 'description', LIMITS.descriptionChars, { noControls: 'text' }) ?? '';
  // the hosted service requires both (hosted-openapi.json); checked in the order name, model, model_provider
  const model = requiredString(body, 'model', LIMITS.modelChars, { trim: true, noControls: 'line' });
  const provider = requiredProvider(body);
  const soul = optionalString(body, 'soul_md', LIMITS.soulBytes, { bytes: true });
  const token = optionalString(body, 'telegram_bot_token', 200);
  if (token !== undefined && token !== '' && !BOT_TOKEN_PATTERN.test(token)) {
    throw badRequest(
      'telegram_bot_token is not a valid bot token (expected <digits>:<30+ characters of A-Z, a-z, 0-9, _ or ->)',
    );
  }
  const wallet = createWallet(); // before the lock: key generation is the slow part
  const now = new Date().toISOString();
  const record: StoredAgent = {
    agent_id: randomUUID(),
    owner: ctx.account,
    name,
    description,
    status: 'running',
    model,
    model_provider: provider,
    created_at: now,
    updated_at: now,
    bot_username: token ? botUsername(name) : null,
    telegram_bot_token: token || null,
    evm_address: wallet.evm_address,
    solana_address: wallet.solana_address,
    soul_md: soul && soul.trim() ? soul : defaultSoul(name),
    memory_md: `# Memory of ${name}\n\n- ${dateOnly(now)}: launched on ${model} (${provider}).\n`,
    skills: defaultSkillState(),
    container_started_at: now,
    restarts: 0,
  };
  // its paper money on the simulated Hyperliquid, before the agent exists: a disk that refuses it refuses the launch
  const { sim } = ctx.service;
  await sim.open(record);
  try {
    await ctx.service.store.launchAgent(ctx.account, record, (live) => {
      if (live.length >= LIMITS.agentsPerAccount)
        throw new ApiError(403, `Agent limit reached (${LIMITS.agentsPerAccount})`);
      // under the account's lock, like the limit: two launches of one name at once make one agent
      assertNameFree(live, name);
    });
  } catch (err) {
    await sim.close(record).catch(() => undefined); // the refusal is what the caller hears
    throw err;
  }
  sendJson(ctx.res, 200, {
    agent_id: record.agent_id,
    name: record.name,
    bot_username: record.bot_username,
    wallet_address: record.evm_address,
    status: record.status,
  });
}

async function list(ctx: RouteContext): Promise<void> {
  const { store } = ctx.service;
  const agents = listing(ctx.res, store.agents, () => store.liveAgents(ctx.account))
    .reverse() // launch order, newest first: the tie-break for launches in the same millisecond
    .sort((a, b) => b.record.created_at.localeCompare(a.record.created_at))
    .map((e) => publicAgent(e.record));
  sendJson(ctx.res, 200, { agents });
}

async function get(ctx: RouteContext): Promise<void> {
  sendJson(ctx.res, 200, publicAgent(ownedAgent(ctx.service.store, ctx.params.id!, ctx.account)));
}

async function destroy(ctx: RouteContext): Promise<void> {
  const { store } = ctx.service;
  let addresses: Pick<StoredAgent, 'evm_address' | 'solana_address'> | undefined;
  const answer = await applyToAgent(ctx, (agent) => {
    addresses = { evm_address: agent.evm_address, solana_address: agent.solana_address };
    agent.status = 'destroyed';
    agent.telegram_bot_token = null;
    agent.destroyed_at = new Date(store.now()).toISOString(); // purged DESTROYED_GRACE_MS later
    return { status: 'destroyed' };
  });
  // a destroyed agent's conversations go with it
  await store.sessions.forgetAgent(ctx.account, answer.agent_id as string);
  // and its money on the simulated chains
  if (addresses) await ctx.service.sim.close(addresses);
  sendJson(ctx.res, 200, answer);
}

/** The agent's paper account brought up to now before its state changes (it traded until then). */
export async function settle(ctx: RouteContext): Promise<void> {
  await ctx.service.sim.settle(ownedAgent(ctx.service.store, ctx.params.id!, ctx.account));
}

async function pause(ctx: RouteContext): Promise<void> {
  await settle(ctx);
  await changeAgent(ctx, (agent) => {
    if (agent.status !== 'running') throw conflict('Agent is not running');
    agent.status = 'paused';
    return { status: 'paused' };
  });
}

async function resume(ctx: RouteContext): Promise<void> {
  await settle(ctx);
  await changeAgent(ctx, (agent) => {
    if (agent.status !== 'paused') throw conflict('Agent is not paused');
    agent.status = 'running';
    return { status: 'running' };
  });
}

async function restart(ctx: RouteContext): Promise<void> {
  await settle(ctx);
  await changeAgent(ctx, (agent, now) => {
    agent.status = 'running';
    agent.restarts += 1;
    agent.container_started_at = now; // a fresh container; soul, memory and sessions are kept
    return { status: 'running' };
  });
}

async function health(ctx: RouteContext): Promise<void> {
  const agent = ownedAgent(ctx.service.store, ctx.params.id!, ctx.account);
  sendJson(ctx.res, 200, { agent_id: agent.agent_id, healthy: !ctx.service.faults.unhealthy });
}

async function wallet(ctx: RouteContext): Promise<void> {
  const agent = ownedAgent(ctx.service.store, ctx.params.id!, ctx.account);
  sendJson(ctx.res, 200, { evm_address: agent.evm_address, solana_address: agent.solana_address });
}

async function files(ctx: RouteContext): Promise<void> {
  const agent = ownedAgent(ctx.service.store, ctx.params.id!, ctx.account);
  sendJson(ctx.res, 200, { agent_id: agent.agent_id, soul_md: agent.soul_md, memory_md: agent.memory_md });
}

const base = '/v1/superagents';
export const superagentRoutes: Route[] = [
  { method: 'POST', path: base, handler: launch },
  { method: 'GET', path: base, handler: list },
  { method: 'GET', path: `${base}/:id`, handler: get },
  { method: 'DELETE', path: `${base}/:id`, handler: destroy },
  { method: 'POST', path: `${base}/:id/pause`, handler: pause },
  { method: 'POST', path: `${base}/:id/resume`, handler: resume },
  { method: 'POST', path: `${base}/:id/restart`, handler: restart },
  { method: 'GET', path: `${base}/:id/health`, handler: health },
  { method: 'GET', path: `${base}/:id/wallet`, handler: wallet },
  { method: 'GET', path: `${base}/:id/files`, handler: files },
];
