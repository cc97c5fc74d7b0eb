// THE list of our documented departures from hosted-openapi.json (docs/api.md, What the embedded service
// adds; Differences from the hosted service). The conformance check (openapi.ts) allows these by name
// and nothing else: an entry here is a promise docs/api.md makes; everything the document does not say
// and this list does not name is a failure.

export type Extension =
  /** a request property the document's schema does not name, re-opened with its own schema */
  | { kind: 'request-field'; method: string; path: string; field: string; schema: object; reason: string }
  /** a `text/event-stream` 200 (checked as data-only SSE instead of against a schema) */
  | { kind: 'sse'; method: string; path: string; reason: string }
  /** an error status on a path whose document entry does not list it; the body must be an `Error` */
  | { kind: 'error-status'; status: number; reason: string }
  /** paths of ours outside /v1 that answer in someone else's public shape: not checked against the document */
  | { kind: 'own-path'; prefix: string; reason: string };

export const EXTENSIONS: readonly Extension[] = [
  {
    kind: 'request-field',
    method: 'POST',
    path: '/v1/chat',
    field: 'session_id',
    schema: { type: 'string', format: 'uuid' },
    reason: 'continue an assistant conversation (ours)',
  },
  {
    kind: 'request-field',
    method: 'POST',
    path: '/v1/agents',
    field: 'description',
    schema: { type: 'string' },
    reason: "classic create takes a description; the document's AgentCreate names none",
  },
  {
    kind: 'sse',
    method: 'POST',
    path: '/v1/chat',
    reason: 'stream: true answers SSE; the document describes the stream only in words',
  },
  {
    kind: 'sse',
    method: 'POST',
    path: '/v1/superagents/{agent_id}/chat',
    reason: 'stream: true answers SSE; the document describes the stream only in words',
  },
  { kind: 'error-status', status: 400, reason: 'missing or invalid field, body not JSON' },
  { kind: 'error-status', status: 403, reason: 'agent of another key, agent limit reached' },
  { kind: 'error-status', status: 404, reason: 'unknown agent, unknown session, unknown route' },
  {
    kind: 'error-status',
    status: 409,
    reason:
      'pause/resume/chat in the wrong state; a launch or rename to a name a live ' +
      'agent of the account has (ours: "An agent named \'X\' already exists")',
  },
  { kind: 'error-status', status: 413, reason: 'request body over 1 MiB' },
  { kind: 'error-status', status: 415, reason: 'request body not application/json' },
  { kind: 'error-status', status: 429, reason: 'rate limit on every path (body adds retryAfter and resetAt)' },
  { kind: 'error-status', status: 500, reason: 'internal error, injected fault' },
  { kind: 'error-status', status: 502, reason: 'upstream runtime failure' },
  { kind: 'error-status', status: 503, reason: 'overload, injected fault' },
  { kind: 'error-status', status: 504, reason: 'assistant query past the time limit' },
  { kind: 'own-path', prefix: '/sim/', reason: 'the simulated chains (docs/api.md, What the embedded service adds)' },
];
