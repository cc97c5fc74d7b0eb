// The two chats: an agent's (`POST /v1/superagents/{id}/chat`) and the assistant's (`POST /v1/chat`):
// docs/api.md, Chat, sessions and the assistant. One thin call each, as JSON or as a stream of reply
// events (docs/api.md, Streaming replies).
import type { ApiClient } from './client.js';
import { readReplyStream, type StreamEvent } from './sse.js';
import type { ChatResult } from './types.js';

export interface AgentChatBody {
  message: string;
  session_id?: string;
}

export interface AssistantBody {
  message: string;
  session_id?: string;
  model?: string;
  model_provider?: string;
}

export interface CallOptions {
  /** chat replies take minutes on the hosted service: the caller passes the long time-out */
  timeoutMs: number;
  signal?: AbortSignal;
}

const agentPath = (id: string) => `/v1/superagents/${encodeURIComponent(id)}/chat`;
const ASSISTANT_PATH = '/v1/chat';

function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

async function streamCall(
  c: ApiClient,
  path: string,
  body: object,
  opts: CallOptions,
): Promise<AsyncGenerator<StreamEvent>> {
  const res = await c.stream({
    method: 'POST',
    path,
    body: { ...body, stream: true },
    timeoutMs: opts.timeoutMs,
    signal: opts.signal,
  });
  return readReplyStream(res.body, {
    contentType: header(res.headers, 'content-type'),
    signal: opts.signal,
    idleMs: opts.timeoutMs,
    proxy: res.proxy,
  });
}

function jsonCall(c: ApiClient, path: string, body: object, opts: CallOptions): Promise<ChatResult> {
  return c.json<ChatResult>({
    method: 'POST',
    path,
    body: { ...body, stream: false },
    timeoutMs: opts.timeoutMs,
    signal: opts.signal,
    showWaiting: false,
  });
}

export const chat = {
  agent: (c: ApiClient, agentId: string, body: AgentChatBody, opts: CallOptions) =>
    jsonCall(c, agentPath(agentId), body, opts),
  agentStream: (c: ApiClient, agentId: string, body: AgentChatBody, opts: CallOptions) =>
    streamCall(c, agentPath(agentId), body, opts),
  assistant: (c: ApiClient, body: AssistantBody, opts: CallOptions) => jsonCall(c, ASSISTANT_PATH, body, opts),
  assistantStream: (c: ApiClient, body: AssistantBody, opts: CallOptions) => streamCall(c, ASSISTANT_PATH, body, opts),
};
