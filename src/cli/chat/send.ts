// The SendFn implementations (types.ts): one turn with an agent or with the assistant, as reply
// events, streamed or (stream: false) from one JSON answer. The REPL and the one-shot commands
// use these and know nothing of HTTP.
import type { ApiClient } from '../../api/client.js';
import { chat, type AssistantBody } from '../../api/chat.js';
import { AgentPausedError } from '../../api/errors.js';
import { replyFromJson, type StreamEvent } from '../../api/sse.js';
import type { Provider } from '../../contract.js';
import { shellWord } from '../../ui/shell-word.js';
import { StateConflictError } from '../../core/errors.js';
import type { ReplyEvent, SendFn } from './types.js';

export interface SenderOptions {
  /** false: one JSON call, its answer yielded as events (--no-stream); default true */
  stream?: boolean;
  /** how the user named the agent, for the hint on a paused agent */
  label?: string;
}

export interface AssistantModel {
  model?: string;
  provider?: Provider;
}

/** A 409 "Agent is paused" becomes exit 6 with the command that fixes it. */
export function pausedHint(err: unknown, label: string): unknown {
  if (err instanceof AgentPausedError) {
    return new StateConflictError(`${label} is paused`, `resume it first: superagent resume ${shellWord(label)}`);
  }
  return err;
}

interface Calls {
  json: () => Promise<unknown>;
  stream: () => Promise<AsyncIterable<StreamEvent>>;
}

/** One turn: the stream's events, or the JSON answer's as if streamed in one piece. */
async function* turn(stream: boolean, calls: Calls): AsyncGenerator<ReplyEvent> {
  if (!stream) {
    yield* replyFromJson(await calls.json());
    return;
  }
  yield* await calls.stream();
}

export function agentSender(
  client: ApiClient,
  agentId: string,
  timeoutMs: number,
  options: SenderOptions = {},
): SendFn {
  const { stream = true, label } = options;
  return async function* send(message, opts) {
    const body = { message, session_id: opts.sessionId };
    const call = { timeoutMs, signal: opts.signal };
    try {
      yield* turn(stream, {
        json: () => chat.agent(client, agentId, body, call),
        stream: () => chat.agentStream(client, agentId, body, call),
      });
    } catch (err) {
      throw label ? pausedHint(err, label) : err;
    }
  };
}

export function assistantSender(
  client: ApiClient,
  model: AssistantModel,
  timeoutMs: number,
  options: SenderOptions = {},
): SendFn {
  const { stream = true } = options;
  return (message, opts) => {
    const body: AssistantBody = { message, session_id: opts.sessionId };
    if (model.model) {
      body.model = model.model;
      body.model_provider = model.provider;
    }
    const call = { timeoutMs, signal: opts.signal };
    return turn(stream, {
      json: () => chat.assistant(client, body, call),
      stream: () => chat.assistantStream(client, body, call),
    });
  };
}
