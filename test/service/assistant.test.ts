// POST /v1/chat against a real embedded service (docs/api.md, Chat, sessions and the assistant).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startTestService, type TestService } from '../helpers/service.js';
import { eventNames, expectAssistantStream, parseWire, splitAtError, stopService } from '../helpers/service-support.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PROVIDER_LIST = 'openai, anthropic, xai, openrouter, venice';

function badRequest(message: string) {
  return { statusCode: 400, message, error: 'Bad Request' };
}

describe('POST /v1/chat (assistant)', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await stopService(svc);
  });

  it('answers { session_id, content, timestamp } with a new uuid session and an ISO timestamp', async () => {
    const before = Date.now();
    const r = await svc.call('POST', '/v1/chat', { body: { message: 'What is BTC doing today?' } });
    const after = Date.now();
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(r.json).sort()).toEqual(['content', 'session_id', 'timestamp']);
    expect(r.json.session_id).toMatch(UUID);
    expect(typeof r.json.content).toBe('string');
    expect(r.json.content.trim().length).toBeGreaterThan(0);
    expect(r.json.timestamp).toMatch(ISO);
    const ts = Date.parse(r.json.timestamp);
    expect(ts).toBeGreaterThanOrEqual(before - 5);
    expect(ts).toBeLessThanOrEqual(after + 5);
  });

  it('every call without session_id opens a different session', async () => {
    const a = await svc.call('POST', '/v1/chat', { body: { message: 'hello' } });
    const b = await svc.call('POST', '/v1/chat', { body: { message: 'hello' } });
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(a.json.session_id).not.toBe(b.json.session_id);
  });

  it('continues a session given its session_id: same id back, and the history changes the reply', async () => {
    const message = 'How is ETH looking?';
    const first = await svc.call('POST', '/v1/chat', { body: { message } });
    expect(first.status).toBe(200);
    const sid = first.json.session_id as string;

    const second = await svc.call('POST', '/v1/chat', { body: { message, session_id: sid } });
    expect(second.status).toBe(200);
    expect(second.json.session_id).toBe(sid);
    // the same message with history behind it is a different reply …
    expect(second.json.content).not.toBe(first.json.content);

    // … while a fresh session with no history gets the first reply again (deterministic)
    const fresh = await svc.call('POST', '/v1/chat', { body: { message } });
    expect(fresh.status).toBe(200);
    expect(fresh.json.session_id).not.toBe(sid);
    expect(fresh.json.content).toBe(first.json.content);

    // the session id is accepted in upper case too (uuids are case-insensitive)
    const third = await svc.call('POST', '/v1/chat', { body: { message: 'and SOL?', session_id: sid.toUpperCase() } });
    expect(third.status).toBe(200);
    expect(third.json.session_id).toBe(sid);
  });

  it('an unknown session_id is 404 Session not found', async () => {
    const r = await svc.call('POST', '/v1/chat', { body: { message: 'hello', session_id: randomUUID() } });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ statusCode: 404, message: 'Session not found', error: 'Not Found' });

    const malformed = await svc.call('POST', '/v1/chat', { body: { message: 'hello', session_id: 'not-a-session' } });
    expect(malformed.status).toBe(404);
    expect(malformed.json.message).toBe('Session not found');
  });

  it('a session opened by an agent chat is not an assistant session: 404', async () => {
    const launched = await svc.call('POST', '/v1/superagents', {
      body: { name: 'Session Probe', model: 'gpt-4o', model_provider: 'openai' },
    });
    expect(launched.status).toBe(200);
    const chat = await svc.call('POST', `/v1/superagents/${launched.json.agent_id}/chat`, {
      body: { message: 'hi there' },
    });
    expect(chat.status).toBe(200);
    expect(chat.json.session_id).toMatch(UUID);

    const r = await svc.call('POST', '/v1/chat', { body: { message: 'hello', session_id: chat.json.session_id } });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ statusCode: 404, message: 'Session not found', error: 'Not Found' });
  });

  it('a session belonging to another key is 404 for this key', async () => {
    const two = await startTestService({
      keys: ['sa_sk_firstkeyfirstkeyfirstkeyfirstke', 'sa_sk_secondkeysecondkeysecondkeysec'],
    });
    try {
      const mine = await two.call('POST', '/v1/chat', { body: { message: 'hello' } });
      expect(mine.status).toBe(200);
      const theirs = await two.call('POST', '/v1/chat', {
        body: { message: 'hello', session_id: mine.json.session_id },
        key: 'sa_sk_secondkeysecondkeysecondkeysec',
      });
      expect(theirs.status).toBe(404);
      expect(theirs.json.message).toBe('Session not found');
    } finally {
      await stopService(two);
    }
  });

  it('Respond as JSON with: a, b, c → content is a JSON object with exactly a, b, c in that order', async () => {
    const r = await svc.call('POST', '/v1/chat', {
      body: { message: 'Give me a read on BTC. Respond as JSON with: a, b, c' },
    });
    expect(r.status).toBe(200);
    expect(typeof r.json.content).toBe('string');
    const parsed = JSON.parse(r.json.content);
    expect(parsed).not.toBeNull();
    expect(typeof parsed).toBe('object');
    expect(Array.isArray(parsed)).toBe(false);
    expect(Object.keys(parsed)).toEqual(['a', 'b', 'c']);
  });

  it('keeps the requested key order even when it is not alphabetical', async () => {
    const r = await svc.call('POST', '/v1/chat', {
      body: { message: 'SOL outlook. Respond as JSON with: summary, price, symbol, confidence' },
    });
    expect(r.status).toBe(200);
    const parsed = JSON.parse(r.json.content);
    expect(Object.keys(parsed)).toEqual(['summary', 'price', 'symbol', 'confidence']);
    expect(typeof parsed.price).toBe('number');
    expect(parsed.price).toBeGreaterThan(0);
    expect(parsed.symbol).toBe('SOL');
  });

  it('Respond as JSON array with: symbol, price → an array of objects with exactly symbol, price', async () => {
    const r = await svc.call('POST', '/v1/chat', {
      body: { message: 'Top movers today. Respond as JSON array with: symbol, price' },
    });
    expect(r.status).toBe(200);
    const parsed = JSON.parse(r.json.content);
    expect(Array.isArray(parsed)).toBe(true);
    expect(parsed.length).toBeGreaterThan(0);
    for (const item of parsed) {
      expect(item).not.toBeNull();
      expect(typeof item).toBe('object');
      expect(Array.isArray(item)).toBe(false);
      expect(Object.keys(item)).toEqual(['symbol', 'price']);
      expect(typeof item.symbol).toBe('string');
      expect(item.symbol.length).toBeGreaterThan(0);
      expect(typeof item.price).toBe('number');
      expect(item.price).toBeGreaterThan(0);
    }
  });

  it(
    'streams data-only lines: session_info, RunResponseContent…, ' +
      'RunCompleted {content, timestamp}, then data: [DONE]',
    async () => {
      const before = new Date().toISOString();
      const r = await svc.call('POST', '/v1/chat', { body: { message: 'What is BTC doing today?', stream: true } });
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(r.text).not.toMatch(/^event:/m);
      expect(r.text.endsWith('\n\ndata: [DONE]\n\n')).toBe(true);
      const s = expectAssistantStream(r.text);
      expect(eventNames(s.wire.events)).toEqual([
        'session_info',
        ...s.wire.events.slice(1, -1).map(() => 'RunResponseContent'),
        'RunCompleted',
      ]);
      expect(s.timestamp).toMatch(ISO);
      expect(s.timestamp >= before).toBe(true);

      // the streamed reply is the same as the non-streamed one for the same message and (empty) history
      const plain = await svc.call('POST', '/v1/chat', { body: { message: 'What is BTC doing today?' } });
      expect(Object.keys(plain.json).sort()).toEqual(['content', 'session_id', 'timestamp']);
      expect(plain.json.content).toBe(s.content);

      // the streamed turn was recorded: the session continues
      const next = await svc.call('POST', '/v1/chat', { body: { message: 'and ETH?', session_id: s.sessionId } });
      expect(next.status).toBe(200);
      expect(next.json.session_id).toBe(s.sessionId);
    },
  );

  it('streams a JSON answer whose pieces rebuild the JSON string', async () => {
    const r = await svc.call('POST', '/v1/chat', {
      body: { message: 'Respond as JSON with: symbol, price', stream: true },
    });
    expect(r.status).toBe(200);
    const { content } = expectAssistantStream(r.text);
    expect(Object.keys(JSON.parse(content))).toEqual(['symbol', 'price']);
  });

  describe('custom models', () => {
    it("a model whose provider has no connected key → 400 No API key connected for provider 'openai'", async () => {
      const r = await svc.call('POST', '/v1/chat', {
        body: { message: 'hi', model: 'gpt-4o', model_provider: 'openai' },
      });
      expect(r.status).toBe(400);
      expect(r.json).toEqual(badRequest("No API key connected for provider 'openai'"));
    });

    it('the same request succeeds once openai is connected; another provider still fails', async () => {
      const connected = await startTestService({ connectedProviders: ['openai'] });
      try {
        const ok = await connected.call('POST', '/v1/chat', {
          body: { message: 'hi', model: 'gpt-4o', model_provider: 'openai' },
        });
        expect(ok.status).toBe(200);
        expect(ok.json.session_id).toMatch(UUID);
        expect(typeof ok.json.content).toBe('string');

        const other = await connected.call('POST', '/v1/chat', {
          body: { message: 'hi', model: 'claude-sonnet-4-20250514', model_provider: 'anthropic' },
        });
        expect(other.status).toBe(400);
        expect(other.json.message).toBe("No API key connected for provider 'anthropic'");
      } finally {
        await stopService(connected);
      }
    });

    it('a model without model_provider → 400', async () => {
      const r = await svc.call('POST', '/v1/chat', { body: { message: 'hi', model: 'gpt-4o' } });
      expect(r.status).toBe(400);
      expect(r.json).toEqual(badRequest('model_provider is required when model is sent'));
    });

    it('an unknown provider → 400 listing the five', async () => {
      const r = await svc.call('POST', '/v1/chat', {
        body: { message: 'hi', model: 'gemini-pro', model_provider: 'google' },
      });
      expect(r.status).toBe(400);
      expect(r.json).toEqual(badRequest(`model_provider must be one of: ${PROVIDER_LIST}`));
    });
  });

  describe('message validation', () => {
    it('a missing message → 400 message is required', async () => {
      const r = await svc.call('POST', '/v1/chat', { body: {} });
      expect(r.status).toBe(400);
      expect(r.json).toEqual(badRequest('message is required'));
    });

    it('no body at all → 400 message is required', async () => {
      const r = await svc.call('POST', '/v1/chat');
      expect(r.status).toBe(400);
      expect(r.json).toEqual(badRequest('message is required'));
    });

    it('an empty or blank message → 400', async () => {
      for (const message of ['', '   ']) {
        const r = await svc.call('POST', '/v1/chat', { body: { message } });
        expect(r.status).toBe(400);
        expect(r.json).toEqual(badRequest('message must not be empty'));
      }
    });

    it('a message that is not a string → 400', async () => {
      const r = await svc.call('POST', '/v1/chat', { body: { message: 42 } });
      expect(r.status).toBe(400);
      expect(r.json).toEqual(badRequest('message must be a string'));
    });

    it('32768 characters are accepted, 32769 are 400', async () => {
      const ok = await svc.call('POST', '/v1/chat', { body: { message: 'x'.repeat(32768) } });
      expect(ok.status).toBe(200);
      const tooLong = await svc.call('POST', '/v1/chat', { body: { message: 'x'.repeat(32769) } });
      expect(tooLong.status).toBe(400);
      expect(tooLong.json).toEqual(badRequest('message must be at most 32768 characters'));
    });

    it('stream that is not a boolean → 400', async () => {
      const r = await svc.call('POST', '/v1/chat', { body: { message: 'hi', stream: 'yes' } });
      expect(r.status).toBe(400);
      expect(r.json).toEqual(badRequest('stream must be a boolean'));
    });

    it('without a key → 401', async () => {
      const r = await svc.call('POST', '/v1/chat', { body: { message: 'hi' }, key: null });
      expect(r.status).toBe(401);
      expect(r.json).toEqual({ statusCode: 401, message: 'Invalid or revoked API key', error: 'Unauthorized' });
    });
  });
});

describe('POST /v1/chat query time limit', () => {
  let slow: TestService;

  beforeAll(async () => {
    slow = await startTestService({ tokenDelayMs: 20, assistantTimeLimitMs: 100 });
  });
  afterAll(async () => {
    await stopService(slow);
  });

  it('a non-streamed answer past the limit is 504 Query timeout', async () => {
    const r = await slow.call('POST', '/v1/chat', { body: { message: 'What is BTC doing today?' } });
    expect(r.status).toBe(504);
    expect(r.json).toEqual({ statusCode: 504, message: 'Query timeout', error: 'Gateway Timeout' });
  });

  it(
    'a streamed answer past the limit ends in-band: {"event":"error","message":"Query ' +
      'timeout","statusCode":504}, no RunCompleted, no [DONE]',
    async () => {
      const r = await slow.call('POST', '/v1/chat', { body: { message: 'What is BTC doing today?', stream: true } });
      expect(r.status).toBe(200);
      const { before, error } = splitAtError(parseWire(r.text));
      expect(error).toEqual({ event: 'error', message: 'Query timeout', statusCode: 504 });
      expect(before[0].event).toBe('session_info');
      expect(eventNames(before.slice(1)).every((name) => name === 'RunResponseContent')).toBe(true);
      expect(r.text.endsWith('data: {"event":"error","message":"Query timeout","statusCode":504}\n\n')).toBe(true);
    },
  );

  it('a short answer within the limit still succeeds', async () => {
    // a one-key JSON answer is a couple of pieces: well under 100 ms at 20 ms each
    const r = await slow.call('POST', '/v1/chat', { body: { message: 'Respond as JSON with: a' } });
    expect(r.status).toBe(200);
    expect(Object.keys(JSON.parse(r.json.content))).toEqual(['a']);
  });
});
