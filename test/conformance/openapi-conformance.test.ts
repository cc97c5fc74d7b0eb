// The conformance checker itself (openapi.ts): it must be able to fail, on exactly the shapes the
// hosted document rules out, and pass what the document and the extension list allow.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/server/index.js';
import { checkExchange, checkSse, EXTENSIONS } from './openapi.js';

const ID = 'a1b2c3d4-5678-40ab-8def-1234567890ab';
const CLI = 'superagent/0.1.0 node/v20.19.0';
const EVM = '0x1a2B3c4D5e6F7a8B9c0D1e2F3a4B5c6D7e8F9a0B';
const SOL = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const SUMMARY = {
  agent_id: ID,
  name: 'ETH Scalper',
  description: null,
  status: 'running',
  model: 'gpt-4o',
  created_at: '2026-03-15T10:00:00Z',
};
const LAUNCH_BODY = { name: 'ETH Scalper', model: 'gpt-4o', model_provider: 'openai' };

/** An answered JSON exchange; `request` makes it one the CLI sent. */
function json(method: string, path: string, status: number, body: unknown, request?: unknown): Exchange {
  return {
    method,
    path,
    userAgent: request === undefined ? 'node' : CLI,
    requestBody: request === undefined ? undefined : JSON.stringify(request),
    status,
    contentType: 'application/json; charset=utf-8',
    responseBody: JSON.stringify(body),
  };
}

function sse(path: string, text: string): Exchange {
  return {
    method: 'POST',
    path,
    userAgent: CLI,
    requestBody: JSON.stringify({ message: 'hi', stream: true }),
    status: 200,
    contentType: 'text/event-stream; charset=utf-8',
    responseBody: text,
  };
}

const updated = { agent_id: ID, status: 'updated' };

describe('responses', () => {
  it('a wallet answer with an extra agent_id fails; the bare addresses pass', () => {
    const problems = checkExchange(
      json('GET', `/v1/superagents/${ID}/wallet`, 200, { agent_id: ID, evm_address: EVM, solana_address: SOL }),
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain("'agent_id'");
    expect(problems[0]).toContain('GET /v1/superagents/{agent_id}/wallet → 200');
    expect(
      checkExchange(json('GET', `/v1/superagents/${ID}/wallet`, 200, { evm_address: EVM, solana_address: null })),
    ).toEqual([]);
  });

  it('an agent list must be {"agents": [...]} of summaries, nullable fields honoured', () => {
    expect(checkExchange(json('GET', '/v1/superagents', 200, [SUMMARY]))).not.toEqual([]);
    expect(
      checkExchange(
        json('GET', '/v1/superagents', 200, { agents: [SUMMARY, { ...SUMMARY, model: null, created_at: null }] }),
      ),
    ).toEqual([]);
    const extra = checkExchange(
      json('GET', '/v1/superagents', 200, { agents: [{ ...SUMMARY, model_provider: 'openai' }] }),
    );
    expect(extra.join()).toContain("'model_provider'");
  });

  it('launch answers 200; 201 is not documented', () => {
    const answer = { agent_id: ID, name: 'ETH Scalper', bot_username: null, wallet_address: EVM, status: 'running' };
    expect(checkExchange(json('POST', '/v1/superagents', 200, answer))).toEqual([]);
    expect(checkExchange(json('POST', '/v1/superagents', 201, answer)).join()).toContain('status not documented');
  });

  it('a PUT answer the document gives only by example gets a closed schema from it', () => {
    expect(checkExchange(json('PUT', `/v1/superagents/${ID}/soul`, 200, updated))).toEqual([]);
    expect(checkExchange(json('PUT', `/v1/superagents/${ID}/soul`, 200, { ...updated, soul_md: 'x' }))).not.toEqual([]);
    expect(checkExchange(json('PUT', `/v1/superagents/${ID}/model`, 200, { agent_id: ID, status: 1 }))).not.toEqual([]);
  });

  it('an error status the document does not list passes with an Error body, and only with one', () => {
    const conflict = { statusCode: 409, message: 'Agent is not running', error: 'Conflict' };
    expect(checkExchange(json('POST', `/v1/superagents/${ID}/pause`, 409, conflict))).toEqual([]);
    expect(checkExchange(json('POST', `/v1/superagents/${ID}/pause`, 409, { ...conflict, agent_id: ID }))).not.toEqual(
      [],
    );
    expect(
      checkExchange(json('POST', `/v1/superagents/${ID}/pause`, 418, { statusCode: 418, message: 'teapot' })),
    ).not.toEqual([]);
  });

  it('429 carries retryAfter and resetAt', () => {
    const limited = {
      statusCode: 429,
      message: 'Rate limit exceeded',
      retryAfter: 12,
      resetAt: '2026-03-15T10:01:00.000Z',
    };
    expect(checkExchange(json('GET', '/v1/superagents', 429, limited))).toEqual([]);
    expect(checkExchange(json('GET', '/v1/agents', 429, limited))).toEqual([]);
    expect(checkExchange(json('GET', '/v1/superagents', 429, { ...limited, retryAfter: 'soon' }))).not.toEqual([]);
  });

  it('an undocumented path or method fails; an unknown-route 404 with an Error body passes', () => {
    expect(checkExchange(json('GET', '/v1/superagents/' + ID + '/secrets', 200, {})).join()).toContain('no such route');
    expect(checkExchange(json('PATCH', `/v1/superagents/${ID}`, 200, SUMMARY)).join()).toContain('no such route');
    expect(
      checkExchange(json('GET', '/x', 404, { statusCode: 404, message: 'Cannot GET /x', error: 'Not Found' })),
    ).toEqual([]);
  });

  it('the simulated chains under /sim/ are ours (their public shapes), and nothing else outside /v1 is', () => {
    const request = { type: 'clearinghouseState', user: EVM };
    expect(checkExchange(json('POST', '/sim/hyperliquid/info', 200, { marginSummary: {} }, request))).toEqual([]);
    expect(checkExchange(json('GET', '/sim/polymarket/value', 200, [{ user: EVM, value: 0 }]))).toEqual([]);
    expect(checkExchange(json('GET', '/simulated', 200, {})).join()).toContain('no such route');
    expect(checkExchange(json('GET', '/v1/sim/x', 200, {})).join()).toContain('no such route');
  });

  it('an answer with a body but no Content-Type fails', () => {
    const health = {
      ...json('GET', `/v1/superagents/${ID}/health`, 200, { agent_id: ID, healthy: true }),
      contentType: undefined,
    };
    expect(checkExchange(health).join()).toContain('no Content-Type');
  });

  it('a JSON schema is not met by another content type', () => {
    const ex = {
      ...json('GET', `/v1/superagents/${ID}/health`, 200, { agent_id: ID, healthy: true }),
      contentType: 'text/plain',
    };
    expect(checkExchange(ex).join()).toContain('not application/json');
  });
});

describe('SSE', () => {
  const agentChat = `/v1/superagents/${ID}/chat`;

  it('an event: line fails', () => {
    expect(checkExchange(sse(agentChat, 'event: delta\ndata: {"content":"x"}\n\n')).join()).toContain("'event: delta'");
  });

  it('data-only lines with an event field, comments and [DONE] pass', () => {
    expect(checkExchange(sse(agentChat, 'data: {"event":"RunContent","content":"x"}\n\n'))).toEqual([]);
    expect(
      checkExchange(
        sse('/v1/chat', ': ping\n\ndata: {"event":"RunResponseContent","content":"x"}\r\n\r\ndata: [DONE]\n\n'),
      ),
    ).toEqual([]);
  });

  it('data that is not an object with a string event fails', () => {
    expect(checkSse('data: {"content":"x"}\n\n')).toHaveLength(1);
    expect(checkSse('data: hello\n\n')).toHaveLength(1);
    expect(checkSse('data: {"event":5}\n\n')).toHaveLength(1);
  });

  it('a stream on a route the extension list does not name fails', () => {
    const ex = { ...sse(`/v1/superagents/${ID}/skills`, 'data: [DONE]\n\n'), method: 'GET', requestBody: undefined };
    expect(checkExchange(ex).join()).toContain('text/event-stream');
  });
});

describe('CLI requests', () => {
  const skills = `/v1/superagents/${ID}/skills`;

  it('skills PUT takes {"disabled": [...]}, not {"skills": [...]}', () => {
    expect(
      checkExchange(json('PUT', skills, 200, updated, { skills: [{ name: 'polymarket', enabled: false }] })).join(),
    ).toContain('CLI request');
    expect(checkExchange(json('PUT', skills, 200, updated, { disabled: ['polymarket'] }))).toEqual([]);
  });

  it('launch without model_provider fails', () => {
    const answer = { agent_id: ID, name: 'x', bot_username: null, wallet_address: EVM, status: 'running' };
    const { model_provider: _omit, ...body } = LAUNCH_BODY;
    expect(checkExchange(json('POST', '/v1/superagents', 200, answer, body)).join()).toContain(
      "must have required property 'model_provider'",
    );
    expect(checkExchange(json('POST', '/v1/superagents', 200, answer, LAUNCH_BODY))).toEqual([]);
  });

  it('session_id on the assistant is an extension; another unnamed field is not', () => {
    const answer = { session_id: ID, content: 'x', timestamp: '2026-03-15T10:00:00.000Z' };
    expect(checkExchange(json('POST', '/v1/chat', 200, answer, { message: 'hi', session_id: ID }))).toEqual([]);
    expect(checkExchange(json('POST', '/v1/chat', 200, answer, { message: 'hi', session: ID })).join()).toContain(
      "'session'",
    );
  });

  it('a body where the document takes none, and a route the document lacks, fail', () => {
    expect(
      checkExchange(json('POST', `/v1/superagents/${ID}/pause`, 200, { agent_id: ID, status: 'paused' }, {})),
    ).not.toEqual([]);
    expect(
      checkExchange(json('GET', '/v1/whoami', 404, { statusCode: 404, message: 'Cannot GET /v1/whoami' }, {})).join(),
    ).toContain('CLI request');
  });

  it('a malformed request a test sends itself is never request-validated', () => {
    const ex = {
      ...json('PUT', skills, 400, { statusCode: 400, message: 'disabled is required' }),
      requestBody: '{"skills":',
    };
    expect(checkExchange(ex)).toEqual([]);
  });
});

describe('the extension list', () => {
  it('gives every entry a reason, and names each error status once', () => {
    for (const e of EXTENSIONS) expect(e.reason.length, JSON.stringify(e)).toBeGreaterThan(10);
    const statuses = EXTENSIONS.flatMap((e) => (e.kind === 'error-status' ? [e.status] : []));
    expect(new Set(statuses).size).toBe(statuses.length);
  });
});

describe('the copy of the hosted document', () => {
  const shared = new URL('../../../shared/spec/hosted-openapi.json', import.meta.url);
  it.skipIf(!fs.existsSync(shared))(
    'is the published hosted-openapi.json, byte for byte (refresh the copy when it changes)',
    () => {
      expect(fs.readFileSync(new URL('./hosted-openapi.json', import.meta.url), 'utf8')).toBe(
        fs.readFileSync(shared, 'utf8'),
      );
    },
  );
});
