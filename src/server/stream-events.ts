// The two streams of docs/api.md (Streaming replies) as the events around a reply's pieces. Agent
// chat speaks the run events of the Agno framework the hosted runtime is built on; the assistant speaks
// what its authors' own reader (`intel_client.py`) expects. Every object names its event in `event`,
// first.
import { SSE_EVENTS } from '../contract.js';
import { toolCompletedLine, type ToolCall } from './runtime/tools.js';
import type { StreamScript } from './sse.js';

export interface AgentRun {
  sessionId: string;
  runId: string;
  agentId: string;
  model: string;
  toolCalls: ToolCall[];
}

/**
 * session_info → RunStarted → ToolCallStarted, ToolCallCompleted per tool → RunContent × N →
 * RunCompleted (the whole reply again) → stream_complete.
 */
export function agentChatScript(run: AgentRun): StreamScript {
  const ids = { run_id: run.runId, session_id: run.sessionId };
  const tools = run.toolCalls.flatMap((call) => {
    const started = { tool_call_id: call.tool_call_id, tool_name: call.tool_name, tool_args: call.tool_args };
    return [
      { event: SSE_EVENTS.toolStarted, ...ids, tool: started },
      {
        event: SSE_EVENTS.toolCompleted,
        ...ids,
        content: toolCompletedLine(call),
        tool: { ...started, result: call.result, tool_call_error: false, metrics: { duration: call.duration } },
      },
    ];
  });
  return {
    head: [
      { event: SSE_EVENTS.session, session_id: run.sessionId },
      { event: SSE_EVENTS.runStarted, ...ids, agent_id: run.agentId, model: run.model },
      ...tools,
    ],
    piece: (content) => ({ event: SSE_EVENTS.agentContent, ...ids, content }),
    tail: (content) => [
      { event: SSE_EVENTS.completed, ...ids, content },
      { event: SSE_EVENTS.streamComplete, session_id: run.sessionId },
    ],
  };
}

/** session_info → RunResponseContent × N → RunCompleted (the whole reply again, with its timestamp). */
export function assistantScript(sessionId: string, timestamp: string): StreamScript {
  return {
    head: [{ event: SSE_EVENTS.session, session_id: sessionId }],
    piece: (content) => ({ event: SSE_EVENTS.assistantContent, session_id: sessionId, content }),
    tail: (content) => [{ event: SSE_EVENTS.completed, session_id: sessionId, content, timestamp }],
  };
}
