// `superagent __complete agents|skills <agent>` (hidden): the names only the service knows, for the
// completion scripts. One "VALUE<TAB>DESCRIPTION" line per candidate, from a 30 s cache; when the
// cache is stale, one refresh of at most a second. Never fails: a Tab must not print errors.
import type { ApiClient } from '../../api/client.js';
import { UUID_PATTERN, sameAgentName } from '../../contract.js';
import type { AgentRecord } from '../../api/types.js';
import { cacheDir, dataDir } from '../../config/paths.js';
import { keychainAccount } from '../../config/keychain.js';
import { keychainProfile, resolveConnection } from '../../config/resolve.js';
import { matchAgent } from './shared/agent-ref.js';
import { CandidateCache, cacheFile, type CachedAgent, type CachedSkill } from '../completion/candidate-cache.js';
import { CANDIDATE_KINDS, COMPLETE_COMMAND, SKILL_STATES, type CandidateKind } from '../completion/protocol.js';
import type { Context } from '../context.js';
import { EXIT } from '../exit-codes.js';
import type { Input, Spec } from '../spec.js';
import { terminalSafe } from '../../ui/terminal-safe.js';

/** The most a Tab waits for the service (or for the embedded service to start) before using the cache. */
export const REFRESH_BUDGET_MS = 1_000;

/** The budget: SUPERAGENT_COMPLETION_BUDGET_MS overrides it (a slow machine, or tests run in parallel). */
function budgetMs(env: NodeJS.ProcessEnv): number {
  const ms = Number(env.SUPERAGENT_COMPLETION_BUDGET_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : REFRESH_BUDGET_MS;
}

export const spec = {
  description:
    'Used by the completion scripts: prints one "VALUE<TAB>DESCRIPTION" line per agent name and id (agents) or per ' +
    'skill of an agent (skills; on or off after the agent: only the skills in that state). Answers ' +
    'come from a cache of at most 30 seconds; a stale cache is refreshed with one ' +
    'request that may take at most a second, else the cache (or nothing) is printed. Always exits 0.',
  args: [
    { name: 'kind', description: CANDIDATE_KINDS.join(' | '), required: true },
    { name: 'agent', description: 'for skills: the agent (uuid, id prefix or name)' },
    { name: 'state', description: `for skills: ${SKILL_STATES.join(' | ')}, only the skills in that state` },
  ],
  examples: [`superagent ${COMPLETE_COMMAND} agents`, `superagent ${COMPLETE_COMMAND} skills demo`],
} as const satisfies Spec;

interface Candidate {
  value: string;
  description: string;
}

/** The cache for the service this command line would talk to (same precedence as every command). */
function cacheFor(ctx: Context): CandidateCache {
  const config = ctx.config.read();
  const connection = resolveConnection(ctx.globals, ctx.env, config);
  const where = connection.baseUrl ?? `embedded:${dataDir(ctx.env)}`;
  // a key kept in the OS keychain is read to ask the service (within the budget), not to name the cache
  const inKeychain = keychainProfile(ctx.globals, ctx.env, config);
  const kept = inKeychain === undefined ? '' : `keychain:${keychainAccount(inKeychain, ctx.config.path)}`;
  const who = connection.apiKey ?? kept;
  return new CandidateCache(cacheFile(cacheDir(ctx.env), `${where}\n${who}`));
}

/**
 * Runs `work` against the service within the budget (REFRESH_BUDGET_MS), starting the embedded one if nothing is
 * configured. No retries, no waiting out a 429: undefined when it fails or takes too long.
 */
async function withinBudget<T>(ctx: Context, work: (client: ApiClient) => Promise<T>): Promise<T | undefined> {
  const budget = budgetMs(ctx.env);
  let timer: NodeJS.Timeout | undefined;
  const attempt = (async () => {
    const { client } = await ctx.api({ timeoutMs: budget, retry: { retries: 0, rateLimitRetries: 0 }, quiet: true });
    return work(client);
  })();
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), budget);
  });
  try {
    return await Promise.race([attempt, late]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
    // closing (ctx.dispose, when the command returns) ends a request still in flight, so the process
    // exits now rather than at its time-out
    attempt.catch(() => undefined);
  }
}

async function listAgents(client: ApiClient): Promise<CachedAgent[]> {
  const { superagents } = await import('../../api/superagents.js');
  return (await superagents.list(client)).map((a) => ({ id: a.agent_id, name: a.name, status: a.status ?? '' }));
}

async function agentCandidates(ctx: Context, cache: CandidateCache): Promise<Candidate[]> {
  if (!cache.agentsFresh()) {
    cache.setAgents(await withinBudget(ctx, listAgents));
    cache.save();
  }
  const agents = cache.agents();
  // one value an agent: its name, or its id where the name would not say which (another agent has
  // it, in any form) or cannot be typed in (a control character)
  const ambiguous = (a: CachedAgent) => agents.some((b) => b !== a && sameAgentName(a.name, b.name));
  const byName = (a: CachedAgent) => a.name && clean(a.name) === a.name && !ambiguous(a);
  return agents.map((a) =>
    byName(a)
      ? { value: a.name, description: `${a.status} ${a.id.slice(0, 8)}` }
      : { value: a.id, description: a.name },
  );
}

/** Text for a shell to show: one line, its control characters made visible (the service's names are untrusted). */
function clean(text: string): string {
  return terminalSafe(text.replace(/[\t\r\n]+/g, ' '));
}

function findAgent(agents: CachedAgent[], ref: string): string | undefined {
  try {
    return matchAgent(
      ref,
      agents.map((a) => ({ agent_id: a.id, name: a.name }) as AgentRecord),
    ).agent_id;
  } catch {
    return undefined;
  }
}

async function skillCandidates(
  ctx: Context,
  cache: CandidateCache,
  ref: string | undefined,
  state: string | undefined,
): Promise<Candidate[]> {
  if (!ref || (state !== undefined && !(SKILL_STATES as readonly string[]).includes(state))) return [];
  let id = UUID_PATTERN.test(ref) ? ref.toLowerCase() : findAgent(cache.agents(), ref);
  if (!id || !cache.skillsFresh(id)) {
    const needList = !id && !cache.agentsFresh();
    const answer = await withinBudget(ctx, async (client) => {
      const { superagents } = await import('../../api/superagents.js');
      const agents = needList ? await listAgents(client) : undefined;
      const agentId = id ?? (agents && findAgent(agents, ref));
      const skills = agentId ? (await superagents.skills(client, agentId)).skills : undefined;
      return { agents, agentId, skills };
    });
    if (needList) cache.setAgents(answer?.agents);
    id ??= answer?.agentId;
    if (id)
      cache.setSkills(
        id,
        answer?.skills?.map((s): CachedSkill => ({
          name: s.name,
          description: s.description ?? '',
          enabled: s.enabled === true,
        })),
      );
    cache.save();
  }
  const inState = (s: CachedSkill) => state === undefined || (state === 'on') === s.enabled;
  return id
    ? cache
        .skills(id)
        .filter(inState)
        .map((s) => ({ value: s.name, description: `${s.enabled ? 'on' : 'off'}: ${s.description}` }))
    : [];
}

export async function run(input: Input<typeof spec>, ctx: Context): Promise<number> {
  const kind = input.kind;
  const ref = input.agent;
  let candidates: Candidate[] = [];
  try {
    if ((CANDIDATE_KINDS as readonly string[]).includes(kind!)) {
      const cache = cacheFor(ctx);
      candidates =
        (kind as CandidateKind) === 'agents'
          ? await agentCandidates(ctx, cache)
          : await skillCandidates(ctx, cache, ref, input.state);
    }
  } catch {
    // a broken config or unknown profile: nothing to offer, and nothing to say during a Tab
  }
  // the shells insert a value into the command line and show a description: a value with a control
  // character is not offered, a description is made visible (the service's names are untrusted)
  for (const c of candidates)
    if (c.value && clean(c.value) === c.value) ctx.printer.data(`${c.value}\t${clean(c.description)}`);
  return EXIT.ok;
}
