// `superagent chat <agent>` with no message on a terminal: the REPL against one agent, with slash
// commands that show the agent's soul, memory and skills (the same output as those commands). The
// REPL (src/cli/repl) is handed what it sends with and its commands: it knows neither API nor command.
import { superagents } from '../../api/superagents.js';
import { shellWord } from '../../ui/shell-word.js';
import { resolveAgent, type AgentRef } from '../commands/shared/agent-ref.js';
import type { Context } from '../context.js';
import { runRepl, type SlashCommand } from '../repl/repl.js';
import { wireRepl } from '../repl/wire.js';
import type { CommandModule } from '../spec.js';
import { agentSender } from './send.js';
import { explainChatError, lastSessions } from './sessions.js';

export interface ChatReplOptions {
  /** continue this conversation */
  sessionId?: string;
  /** start a fresh one rather than the last conversation with this agent */
  newSession?: boolean;
}

/** A slash command that runs an agent command (`memory`, `soul show`, `skills`) on this agent. */
function viaCommand(
  ctx: Context,
  agentId: string,
  name: string,
  summary: string,
  load: () => Promise<CommandModule>,
): SlashCommand {
  return {
    name,
    summary,
    run: async () => {
      const mod = await load();
      // each of these commands takes the agent as its one argument
      await mod.run({ agent: agentId } as never, ctx);
    },
  };
}

interface SkillNames {
  /** the skills that are on (`true`) or off (`false`), asked of the service once, when Tab first needs them */
  named(on: boolean): Promise<string[]>;
  /** after a change: asked again next time */
  forget(): void;
}

/** `/enable SKILL…` and `/disable SKILL…`: the skills commands on this agent; Tab offers the skills to change. */
function skillToggle(ctx: Context, agent: AgentRef, verb: 'enable' | 'disable', skills: SkillNames): SlashCommand {
  return {
    name: verb,
    args: 'SKILL…',
    summary: `${verb} skills of the agent (Tab completes their names)`,
    run: async (arg) => {
      const { runSkillsToggle } = await import('../commands/skills/toggle.js');
      skills.forget();
      await runSkillsToggle(verb === 'enable', [agent.agent_id, ...arg.split(/\s+/).filter(Boolean)], ctx, agent);
    },
    complete: () => skills.named(verb === 'disable'),
  };
}

function skillNames(ctx: Context, agentId: string): SkillNames {
  let asked: Promise<Array<{ name: string; enabled?: boolean }>> | undefined;
  return {
    named: async (on) => {
      // quiet: asked on Tab, while the line is being typed
      asked ??= ctx
        .api()
        .then(async ({ client }) => (await superagents.skills(client, agentId, { quiet: true })).skills ?? []);
      const all = await asked.catch(() => ((asked = undefined), []));
      return all.filter((s) => s.enabled === on).map((s) => s.name);
    },
    forget: () => (asked = undefined),
  };
}

export function agentCommands(ctx: Context, agent: AgentRef): SlashCommand[] {
  const agentId = agent.agent_id;
  const names = skillNames(ctx, agentId);
  return [
    viaCommand(ctx, agentId, 'soul', "show the agent's soul.md", () => import('../commands/soul/show.js')),
    viaCommand(ctx, agentId, 'memory', "show the agent's memory.md", () => import('../commands/memory.js')),
    viaCommand(ctx, agentId, 'skills', "list the agent's skills", () => import('../commands/skills/list.js')),
    skillToggle(ctx, agent, 'enable', names),
    skillToggle(ctx, agent, 'disable', names),
  ];
}

/** Runs the REPL until /exit, Ctrl-D or Ctrl-C twice; resolves to 0. `agent` may still be the reference typed. */
export async function runChatRepl(ctx: Context, agent: AgentRef | string, opts: ChatReplOptions = {}): Promise<number> {
  const { client } = await ctx.api();
  const ref = typeof agent === 'string' ? await resolveAgent(client, agent) : agent;
  const record = ref.record ?? (await superagents.get(client, ref.agent_id));
  const id = record.agent_id;
  const name = record.name || id.slice(0, 8);
  const p = ctx.printer;
  const last = await lastSessions(ctx);
  const continued = opts.sessionId ?? (opts.newSession ? undefined : last.get(id));
  const intro = [`Chatting with ${name}. /help lists the commands; Ctrl-D or /exit leaves.`];
  if (continued && !opts.sessionId) intro.push('Continuing your last conversation; /new starts a fresh one.');
  if (record.status === 'paused')
    intro.push(`${name} is paused: run 'superagent resume ${shellWord(name)}' to chat with it.`);
  return runRepl({
    ...wireRepl(ctx, {
      historyKey: `chat-${id}`,
      waitingLabel: `Waiting for ${name}…`,
      explainError: (err) => explainChatError(err, ctx),
    }),
    label: name,
    send: agentSender(client, id, ctx.timeoutMs('long'), { label: name }),
    commands: agentCommands(ctx, { agent_id: id, name }),
    sessionId: continued,
    onSession: (sessionId) => last.set(id, sessionId),
    intro: p.chatty ? intro.join('\n') : undefined,
  });
}
