// POST /v1/chat: the market-intelligence assistant (docs/api.md, Chat, sessions and the assistant).
import { LIMITS } from '../../contract.js';
import { deliverReply } from '../deliver.js';
import { badRequest } from '../http.js';
import type { Route, RouteContext } from '../router.js';
import { composeAssistantReply } from '../runtime/assistant.js';
import { readSessionId, takeTurn } from '../sessions.js';
import { assistantScript } from '../stream-events.js';
import { optionalBoolean, optionalProvider, optionalString, requiredString } from '../validate.js';

async function ask(ctx: RouteContext): Promise<void> {
  const body = ctx.body;
  const message = requiredString(body, 'message', LIMITS.messageChars);
  const stream = optionalBoolean(body, 'stream') ?? false;
  const model = optionalString(body, 'model', LIMITS.modelChars, { min: 1, trim: true, noControls: 'line' });
  const provider = optionalProvider(body);
  if (model !== undefined && provider === undefined) throw badRequest('model_provider is required when model is sent');
  if (provider !== undefined && model === undefined) throw badRequest('model is required when model_provider is sent');
  if (provider !== undefined && !ctx.service.connectedProviders.has(provider)) {
    throw badRequest(`No API key connected for provider '${provider}'`);
  }
  const sessionId = readSessionId(body);

  const timestamp = new Date().toISOString();
  const { session, reply, record } = await takeTurn(ctx.service.store, {
    sessionId,
    owner: ctx.account,
    agentId: null,
    message,
    compose: (history) => composeAssistantReply(history, message),
  });
  await deliverReply(ctx, {
    sessionId: session.session_id,
    content: reply.content,
    stream,
    script: assistantScript(session.session_id, timestamp),
    extra: { timestamp },
    timeLimitMs: ctx.service.assistantTimeLimitMs,
    record,
  });
}

export const assistantRoutes: Route[] = [{ method: 'POST', path: '/v1/chat', handler: ask, streams: true }];
