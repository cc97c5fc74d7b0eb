// POST /v1/superagents/{id}/chat: a reply from the agent's runtime, as JSON or SSE.
import { randomUUID } from 'node:crypto';
import { LIMITS } from '../../contract.js';
import { deliverReply } from '../deliver.js';
import { conflict } from '../http.js';
import type { Route, RouteContext } from '../router.js';
import { composeAgentReply } from '../runtime/replies.js';
import { readSessionId, takeTurn } from '../sessions.js';
import { appendMemory, dated } from '../store/caps.js';
import { agentChatScript } from '../stream-events.js';
import { optionalBoolean, requiredString } from '../validate.js';
import { liveAgent, ownedAgent } from './superagents.js';
import type { StoredAgent } from '../store.js';

async function chat(ctx: RouteContext): Promise<void> {
  const body = ctx.body;
  const message = requiredString(body, 'message', LIMITS.messageChars);
  const sessionId = readSessionId(body);
  const stream = optionalBoolean(body, 'stream') ?? false;
  const { store } = ctx.service;
  const agent = ownedAgent(store, ctx.params.id!, ctx.account);
  if (agent.status === 'paused') throw conflict('Agent is paused');
  /** the agent's record as it is on disk now (it may have changed while the reply was composed) */
  const current = () => store.agents.fresh(ctx.account, agent.agent_id)?.record;

  const { session, reply, record } = await takeTurn(store, {
    sessionId,
    owner: ctx.account,
    agentId: agent.agent_id,
    message,
    compose: (history) => composeAgentReply(agent, history, message),
    // the agent as it is now: paused or destroyed meanwhile, no turn. Only what the agent learned goes
    // to memory.md (a new session alone is no event), so a turn with nothing to remember
    // reads the record and writes nothing (a write and its fsync were most of a turn's time)
    beforeWrite: async (_opened, composed) => {
      const check = (draft: StoredAgent | undefined) => {
        const live = liveAgent(draft);
        if (live.status === 'paused') throw conflict('Agent is paused');
        return live;
      };
      if (!composed.remember) return void check(current());
      await store.agents.update(ctx.account, agent.agent_id, (draft) => {
        const live = check(draft);
        live.memory_md = appendMemory(live.memory_md, dated(store.now(), composed.remember!));
      });
    },
    // destroyed while the reply was on its way: its sessions are gone, and this one is not written
    beforeCreate: () => void liveAgent(current()),
  });
  const script = agentChatScript({
    sessionId: session.session_id,
    runId: randomUUID(),
    agentId: agent.agent_id,
    model: agent.model,
    toolCalls: reply.toolCalls,
  });
  await deliverReply(ctx, { sessionId: session.session_id, content: reply.content, script, stream, record });
}

export const agentChatRoutes: Route[] = [
  { method: 'POST', path: '/v1/superagents/:id/chat', handler: chat, streams: true },
];
