// THE list of our documented departures from hosted-openapi.json (API-CONTRACT.md). The conformance
// check (openapi.ts) allows these by name and nothing else: an entry here is a promise the contract
// makes; everything the document does not say and this list does not name is a failure.

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
  { kind: 'request-field', method: 'POST', path: '/v1/chat', field: 'session_id', schema: { type: 'string', format: 'uuid' }, reason: '§5: continue an assistant conversation (ours)' },
  { kind: 'request-field', method: 'POST', path: '/v1/agents', field: 'description', schema: { type: 'string' }, reason: '§8: classic create takes a description; the document\'s AgentCreate names none' },
  { kind: 'sse', method: 'POST', path: '/v1/chat', reason: '§6: stream: true answers SSE; the document describes the stream only in words' },
  { kind: 'sse', method: 'POST', path: '/v1/superagents/{agent_id}/chat', reason: '§6: stream: true answers SSE; the document describes the stream only in words' },
  { kind: 'error-status', status: 400, reason: '§1/§2: missing or invalid field, body not JSON' },
  { kind: 'error-status', status: 403, reason: '§2: agent of another key, agent limit reached' },
  { kind: 'error-status', status: 404, reason: '§2: unknown agent, unknown session, unknown route' },
  { kind: 'error-status', status: 409, reason: '§2: pause/resume/chat in the wrong state; a launch or rename to a name a live agent of the account has (ours: "An agent named \'X\' already exists")' },
  { kind: 'error-status', status: 413, reason: '§1: request body over 1 MiB' },
  { kind: 'error-status', status: 415, reason: '§1: request body not application/json' },
  { kind: 'error-status', status: 429, reason: '§2/§3: rate limit on every path (body adds retryAfter and resetAt)' },
  { kind: 'error-status', status: 500, reason: '§9: internal error, injected fault' },
  { kind: 'error-status', status: 502, reason: '§2: upstream runtime failure' },
  { kind: 'error-status', status: 503, reason: '§9: overload, injected fault' },
  {
    kind: 'own-path',
    prefix: '/sim/',
    reason: 'docs/api.md §9: the simulated chains (EVM and Solana JSON-RPC, Hyperliquid /info, Polymarket data API)',
  },
  { kind: 'error-status', status: 504, reason: '§2: assistant query past the time limit' },
];
