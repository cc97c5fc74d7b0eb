// The client's reading of one streamed event (docs/api.md, Streaming replies): what an event means,
// whatever dialect the service speaks — ours of old (`event: delta`), Agno's (`RunContent`,
// `RunCompleted`, `ToolCallStarted`…), the hosted web app's (`AssistantResponse`, `tool_calls`,
// `tool_executions`), OpenAI's chunks, or plain text. Pure: no I/O, no state (sse.ts keeps that).

type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Events whose `content` (or other text field) is a piece of the reply (Agno 1 named its pieces `RunResponse`). */
const TEXT_EVENTS = new Set([
  'runcontent',
  'runresponse',
  'runresponsecontent',
  'assistantresponse',
  'runcontentdelta',
  'delta',
  'message',
]);
/** The reply is over; their `content` is the whole reply again, used only when nothing streamed. */
const COMPLETION_EVENTS = new Set(['runcompleted', 'done', 'stream_complete']);
/** Whether an event of this name ends the reply (its `content`, if any, the whole reply again). */
export function isCompletionEvent(name: string): boolean {
  return COMPLETION_EVENTS.has(name.toLowerCase());
}
/** The reply failed. */
const FAILURE_EVENTS = new Set(['error', 'runerror', 'runcancelled']);
/** Agno: the run stopped to wait for a confirmation or input from the user, which a chat here cannot give. */
const PAUSED_EVENT = 'runpaused';
const TOOL_STARTED = 'toolcallstarted';
const TOOL_COMPLETED = 'toolcallcompleted';
const TOOL_ERROR = 'toolcallerror';

/** One tool call as the service reported it (any of the shapes docs/api.md, Streaming replies, lists). */
export interface ToolReport {
  id?: string;
  name?: string;
  args?: unknown;
  result?: unknown;
  /** set when the call failed: the service's message, or a generic one */
  error?: string;
  /** as the service measured it */
  durationMs?: number;
}

export type Meaning =
  | { kind: 'text'; text: string }
  | { kind: 'complete'; content?: string; timestamp?: string }
  | { kind: 'failure'; message: string }
  | { kind: 'tool-started'; tools: ToolReport[] }
  | { kind: 'tool-completed'; tools: ToolReport[] }
  | { kind: 'tool-error'; tools: ToolReport[]; message: string }
  | { kind: 'none' };

/** The fields that may carry a piece of text in an unnamed event, in the order they are tried. */
const TEXT_FIELDS = ['content', 'delta', 'text', 'token'] as const;

export function textOf(obj: Json): string | undefined {
  for (const field of TEXT_FIELDS) {
    const v = obj[field];
    if (typeof v === 'string') return v;
    // `{ "delta": { "content": "…" } }`
    if (isObject(v) && typeof v.content === 'string') return v.content;
  }
  const choice = Array.isArray(obj.choices) ? obj.choices[0] : undefined;
  if (isObject(choice) && isObject(choice.delta) && typeof choice.delta.content === 'string')
    return choice.delta.content;
  return undefined;
}

/** Agno's structured output: `content` that is an object or a list, shown as its JSON text. */
export function structuredText(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? JSON.stringify(value, null, 2) : undefined;
}

/** A piece's text: its text field, else structured content as JSON. */
function pieceText(obj: Json): string | undefined {
  return textOf(obj) ?? structuredText(obj.content);
}

/** The message of a failure event: `message`, `content`, `error.message` or `error`. */
function failureMessage(obj: Json | undefined, plain: string | undefined, fallback: string): string {
  const nested = obj && isObject(obj.error) ? obj.error.message : undefined;
  for (const candidate of [obj?.message, obj?.content, nested, obj?.error, plain]) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return candidate.trim();
  }
  return fallback;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** `tool_call_error` is a flag in Agno (the text is in `result`), sometimes the text itself. */
function toolError(flag: unknown, result: unknown): string | undefined {
  if (typeof flag === 'string' && flag.trim() !== '') return flag.trim();
  if (flag === true) return str(result) ?? 'failed';
  return undefined;
}

/** Agno: `tool: { tool_call_id, tool_name, tool_args, result, tool_call_error, metrics: { duration } }`. */
function agnoTool(t: Json): ToolReport {
  const metrics = isObject(t.metrics) ? t.metrics : undefined;
  const seconds =
    typeof metrics?.duration === 'number' && Number.isFinite(metrics.duration) ? metrics.duration : undefined;
  return {
    id: str(t.tool_call_id) ?? str(t.id),
    name: str(t.tool_name) ?? str(t.name),
    args: t.tool_args ?? t.arguments,
    result: t.result,
    error: toolError(t.tool_call_error, t.result),
    durationMs: seconds === undefined ? undefined : Math.max(0, seconds * 1000),
  };
}

/** Web app: `tool_calls: [{ id, function: { name, arguments } }]`. */
function startedCall(c: Json): ToolReport {
  const fn = isObject(c.function) ? c.function : undefined;
  return {
    id: str(c.id) ?? str(c.tool_call_id),
    name: str(fn?.name) ?? str(c.tool_name) ?? str(c.name),
    args: fn?.arguments ?? c.tool_args ?? c.arguments,
  };
}

/** Web app: `tool_executions: [{ tool_call_id, tool_name, result, tool_call_error }]`. */
function execution(e: Json): ToolReport {
  return { ...agnoTool(e), id: str(e.tool_call_id) ?? str(e.id) };
}

function toolsIn(obj: Json, list: 'tool_calls' | 'tool_executions'): ToolReport[] {
  if (isObject(obj.tool)) return [agnoTool(obj.tool)];
  const items = obj[list];
  if (!Array.isArray(items)) return [];
  return items.filter(isObject).map(list === 'tool_calls' ? startedCall : execution);
}

/** An unnamed event that is an error body rather than a piece of text. */
function carriesError(obj: Json): boolean {
  const e = obj.error;
  return (isObject(e) || (typeof e === 'string' && e !== '')) && textOf(obj) === undefined;
}

/**
 * What one event means. `name` is the SSE `event:` line's value, if any; otherwise the JSON's
 * `event` (or `type`) field names it. `obj` is the data parsed as a JSON object, `plain` the data
 * when it is not one.
 */
export function meaningOf(sseName: string | undefined, obj: Json | undefined, plain: string | undefined): Meaning {
  // Agno's piece of reply text, nearly every event of a reply: read at once, as the general way below would
  if ((!sseName || sseName === 'message') && obj?.event === 'RunContent' && typeof obj.content === 'string') {
    return obj.content ? { kind: 'text', text: obj.content } : { kind: 'none' };
  }
  const named = sseName && sseName !== 'message' ? sseName : (str(obj?.event) ?? str(obj?.type));
  const name = named?.toLowerCase();
  if (name === undefined) {
    if (obj && carriesError(obj))
      return { kind: 'failure', message: failureMessage(obj, undefined, 'the service reported an error') };
    if (obj?.done === true) return { kind: 'complete', content: str(obj.content), timestamp: str(obj.timestamp) };
    const text = obj ? textOf(obj) : plain;
    return text ? { kind: 'text', text } : { kind: 'none' };
  }
  if (TEXT_EVENTS.has(name)) {
    const text = obj ? pieceText(obj) : plain;
    return text ? { kind: 'text', text } : { kind: 'none' };
  }
  if (COMPLETION_EVENTS.has(name))
    return {
      kind: 'complete',
      content: str(obj?.content) ?? structuredText(obj?.content),
      timestamp: str(obj?.timestamp),
    };
  if (name === PAUSED_EVENT)
    return {
      kind: 'failure',
      message: 'the agent paused its run to wait for a confirmation or input, which a chat here cannot give',
    };
  if (FAILURE_EVENTS.has(name)) {
    const fallback = name === 'runcancelled' ? 'the service cancelled the reply' : 'the service reported an error';
    return { kind: 'failure', message: failureMessage(obj, plain, fallback) };
  }
  if (!obj) return { kind: 'none' };
  if (name === TOOL_STARTED) return { kind: 'tool-started', tools: toolsIn(obj, 'tool_calls') };
  if (name === TOOL_COMPLETED) return { kind: 'tool-completed', tools: toolsIn(obj, 'tool_executions') };
  if (name === TOOL_ERROR) {
    const message = failureMessage(obj, undefined, 'a tool call failed');
    const tools = toolsIn(obj, 'tool_executions').map((t) => ({ ...t, error: t.error ?? message }));
    return { kind: 'tool-error', tools, message };
  }
  // session_info, RunStarted, reasoning, memory and anything unknown: no text
  return { kind: 'none' };
}
