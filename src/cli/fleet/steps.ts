// A plan as the steps `apply` takes, in a safe order: every launch first, then every change of
// configuration, then pause and resume, and destroying last (only with --prune; but before the
// launches, as many as they need room for at the account's limit: room.ts). Each step knows the most
// requests it makes, so the run can be budgeted before it starts.
import type { ApiClient } from '../../api/client.js';
import { superagents } from '../../api/superagents.js';
import { BOT_TOKEN_PATTERN } from '../../contract.js';
import { BadAnswerError, UsageError } from '../../core/errors.js';
import { cellSafe } from '../../ui/format.js';
import { maskSecrets } from '../../ui/mask.js';
import type { Context } from '../context.js';
import { namingTheAgent } from '../commands/shared/agent-ref.js';
import { applyDisabled } from '../commands/skills/toggle.js';
import { disabledSet, type AgentPlan, type Change, type Plan } from './plan.js';
import { assertRoom, destroyedFirst } from './room.js';

export type StepKind = 'launch' | 'profile' | 'model' | 'soul' | 'skills' | 'pause' | 'resume' | 'destroy';

export interface Exec {
  ctx: Context;
  client: ApiClient;
  /** agent ids by name, new agents' added as they are launched */
  ids: Map<string, string>;
}

export interface Step {
  kind: StepKind;
  agent: string;
  /** `launch eth-scalper`, `soul of scout`: printed as it is (the name in it masked and made one safe line) */
  label: string;
  /** the most requests it makes */
  requests: number;
  /** a destroy taken before the launches to make room for them: the agent's id */
  frees?: string;
  run(x: Exec): Promise<void>;
}

const PHASE: Record<StepKind, number> = {
  launch: 0,
  profile: 1,
  model: 1,
  soul: 1,
  skills: 1,
  pause: 2,
  resume: 2,
  destroy: 3,
};
/** before every launch: a destroy that makes room for them */
const MAKING_ROOM = -1;

/** The bot token a new agent is launched with: from its variable only, checked, never shown. */
export function botToken(a: AgentPlan, env: NodeJS.ProcessEnv): string | undefined {
  const name = a.launch?.bot_token_env;
  if (!name) return undefined;
  const where = a.desired!.at('bot_token_env');
  const token = env[name]?.trim();
  if (!token)
    throw new UsageError(
      `${where}: ${name} is not set, and ${a.name} is launched with the bot token it holds`,
      `set ${name} to the token from @BotFather (in CI: from a secret)`,
    );
  if (!BOT_TOKEN_PATTERN.test(token)) {
    throw new UsageError(
      `${where}: the value of ${name} is not a valid Telegram bot token`,
      'expected <digits>:<30+ characters of A-Z, a-z, 0-9, _ or -> from @BotFather',
    );
  }
  return token;
}

/** Every new agent's bot token there and well-formed (a problem of the file, at its bot_token_env). */
export function checkBotTokens(plan: Plan, env: NodeJS.ProcessEnv): void {
  for (const a of plan.agents) if (a.action === 'create') botToken(a, env);
}

/** What must hold before the first write: every bot token there, and room for the new agents. */
export function preflight(plan: Plan, env: NodeJS.ProcessEnv): void {
  checkBotTokens(plan, env);
  assertRoom(plan);
}

const id = (x: Exec, name: string) => x.ids.get(name)!;

/**
 * An agent's name as a step label shows it: a name from the service (a prune) may hold anything, one
 * from the file a key; every line a step is printed on stays one line, and shows no key.
 */
export const shownName = (name: string) => cellSafe(maskSecrets(name));

function launchStep(a: AgentPlan): Step {
  return {
    kind: 'launch',
    agent: a.name,
    label: `launch ${shownName(a.name)}`,
    requests: 1,
    async run(x) {
      const l = a.launch!;
      // a launch is never repeated: the client sends a POST once, whatever happens to it
      const result = await superagents
        .launch(x.client, {
          name: a.name,
          model: l.model,
          model_provider: l.provider,
          description: l.description,
          soul_md: l.soul?.text,
          telegram_bot_token: botToken(a, x.ctx.env),
        })
        // a 409 for a name a live agent has: said with that agent's id
        .catch(async (err: unknown) => Promise.reject(await namingTheAgent(x.client, err, a.name)));
      x.ids.set(a.name, result.agent_id);
    },
  };
}

function skillsStep(a: AgentPlan, c: Extract<Change, { field: 'skills' }>): Step {
  return {
    kind: 'skills',
    agent: a.name,
    label: `skills of ${shownName(a.name)}`,
    // a new agent's list is read first; then the whole set, and the list read back
    requests: a.action === 'create' ? 3 : 2,
    async run(x) {
      const agentId = id(x, a.name);
      let disabled = c.disabled;
      if (a.action === 'create') {
        const now = (await superagents.skills(x.client, agentId)).skills;
        disabled = disabledSet(a.desired!, now);
        const wanted = disabled;
        const same = now.every((s) => s.enabled === !wanted.includes(s.name));
        if (same) return;
      }
      const after = await applyDisabled(x.ctx, agentId, disabled!);
      const wrong = after.skills.filter((s) => s.enabled === disabled!.includes(s.name)).map((s) => s.name);
      if (wrong.length > 0) {
        throw new BadAnswerError(
          `the service accepted the skills of ${a.name} but ${wrong.join(', ')} did not change`,
          `check with 'superagent skills ${agentId}'`,
        );
      }
    },
  };
}

function changeSteps(a: AgentPlan): Step[] {
  const steps: Step[] = [];
  const profile: { name?: string; description?: string } = {};
  for (const c of a.changes) if (c.field === 'name' || c.field === 'description') profile[c.field] = c.to;
  const name = shownName(a.name);
  const one = (kind: StepKind, label: string, run: (x: Exec, agentId: string) => Promise<unknown>): Step => ({
    kind,
    agent: a.name,
    label,
    requests: 1,
    run: async (x) => void (await run(x, id(x, a.name))),
  });
  if (Object.keys(profile).length > 0) {
    const update = (x: Exec, agentId: string) => superagents.updateProfile(x.client, agentId, profile);
    steps.push(one('profile', `profile of ${name}`, update));
  }
  for (const c of a.changes) {
    if (c.field === 'model') {
      const model = { model: c.to.model, model_provider: c.to.provider };
      steps.push(one('model', `model of ${name}`, (x, agentId) => superagents.updateModel(x.client, agentId, model)));
    }
    if (c.field === 'soul') {
      steps.push(one('soul', `soul of ${name}`, (x, agentId) => superagents.updateSoul(x.client, agentId, c.to)));
    }
    if (c.field === 'skills') steps.push(skillsStep(a, c));
    if (c.field === 'status') {
      const kind = c.to === 'paused' ? 'pause' : 'resume';
      steps.push(one(kind, `${kind} ${name}`, (x, agentId) => superagents[kind](x.client, agentId)));
    }
  }
  return steps;
}

/** Every step of the plan, in the order apply takes them. */
export function stepsOf(plan: Plan): Step[] {
  const steps: Step[] = [];
  const first = destroyedFirst(plan);
  for (const a of plan.agents) {
    if (a.action === 'create') steps.push(launchStep(a));
    if (a.action === 'create' || a.action === 'update') steps.push(...changeSteps(a));
    if (a.action === 'destroy') {
      const run: Step['run'] = async (x) => void (await superagents.destroy(x.client, a.agent_id!));
      const frees = first.includes(a) ? { frees: a.agent_id! } : {};
      steps.push({ kind: 'destroy', agent: a.name, label: `destroy ${shownName(a.name)}`, requests: 1, run, ...frees });
    }
  }
  const phase = (s: Step) => (s.frees !== undefined ? MAKING_ROOM : PHASE[s.kind]);
  // stable: within a phase, the file's order
  return steps
    .map((s, i) => ({ s, i }))
    .sort((p, q) => phase(p.s) - phase(q.s) || p.i - q.i)
    .map(({ s }) => s);
}

/** Agent ids by name, of the agents the plan knows on the service. */
export function knownIds(plan: Plan): Map<string, string> {
  return new Map(plan.agents.filter((a) => a.agent_id).map((a) => [a.name, a.agent_id!]));
}
