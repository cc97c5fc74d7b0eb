// POST /v1/superagents/{id}/chat: a reply from the agent's runtime, as JSON or SSE.
import { randomUUID } from 'node:crypto';
import { LIMITS } from '../../contract.js';
import { deliverReply } from '../deliver.js';
import { conflict } from '../http.js';
import type { Route, RouteContext } from '../router.js';
import { composeAgentReply } from '../runtime/replies.js';
import { openSession, readSessionId, recordTurn } from '../sessions.js';
import { agentChatScript } from '../stream-events.js';
import { optionalBoolean, requiredString } from '../validate.js';
import { ownedAgent } from './superagents.js';

function appendMemory(memory: string, line: string): string {
  return `${memory}${memory === '' || memory.endsWith('\n') ? '' : '\n'}- ${line}\n`;
}

async function chat(ctx: RouteContext): Promise<void> {
  const body = ctx.body;
  const message = requiredString(body, 'message', LIMITS.messageChars);
  const sessionId = readSessionId(body);
  const stream = optionalBoolean(body, 'stream') ?? false;
  const id = ctx.params.id!;
  ownedAgent(ctx.service.store.read(), id, ctx.account);

  const turn = await ctx.service.store.update((state) => {
    const agent = ownedAgent(state, id, ctx.account);
    if (agent.status === 'paused') throw conflict('Agent is paused');
    const now = new Date().toISOString();
    const day = now.slice(0, 10);
    const { session, isNew } = openSession(state, sessionId, ctx.account, agent.agent_id, now);
    const reply = composeAgentReply(agent, session.history, message);
    if (isNew) agent.memory_md = appendMemory(agent.memory_md, `${day}: new chat session ${session.session_id.slice(0, 8)}`);
    if (reply.remember) agent.memory_md = appendMemory(agent.memory_md, `${day}: ${reply.remember}`);
    recordTurn(session, message, reply.content);
    const script = agentChatScript({
      sessionId: session.session_id,
      runId: randomUUID(),
      agentId: agent.agent_id,
      model: agent.model,
      toolCalls: reply.toolCalls,
    });
    return { sessionId: session.session_id, content: reply.content, script };
  });
  await deliverReply(ctx, { ...turn, stream });
}

export const agentChatRoutes: Route[] = [{ method: 'POST', path: '/v1/superagents/:id/chat', handler: chat, streams: true }];
