// The --debug trace of the ApiClient, against scripted loopback servers: every request and answer,
// with keys and bot tokens masked wherever they appear; and the masking itself (src/api/redact.ts).
import { describe, expect, it } from 'vitest';
import { redactHeaders, redactText } from '../../src/api/redact.js';
import { maskKey } from '../../src/ui/mask.js';
import { KEY, failure, get, httpHarness, sequence } from '../helpers/http-scripted.js';

const h = httpHarness();
const TOKEN = '7012345678:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawq';

describe('ApiClient: --debug trace', () => {
  it('shows method, URL, status, time and headers, with the key and bot token masked', async () => {
    // the server echoes the body back, so the token appears in the answer as well
    const s = await h.scripted((_req, res, seen) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'rq-1' });
      res.end(JSON.stringify({ agent_id: 'ag-1', echo: JSON.parse(seen.body), note: `bot ${TOKEN} ok` }));
    });
    const c = h.client(s.url);
    await c.client.json({ method: 'POST', path: '/v1/superagents', body: { name: 'bot', telegram_bot_token: TOKEN } });
    const all = c.traces.join('\n');
    expect(all).not.toContain(KEY);
    expect(all).not.toContain(TOKEN);
    expect(all).not.toContain(TOKEN.split(':')[1]);
    expect(maskKey(KEY)).toBe('sa_sk_…abcd');
    expect(all).toContain(`"authorization":"Bearer ${maskKey(KEY)}"`);
    expect(all).toContain('7012345678:…');
    expect(c.traces[0]).toBe(`→ POST ${s.url}/v1/superagents`);
    expect(all).toMatch(new RegExp(`\n← 201 POST ${s.url}/v1/superagents \\(\\d+ ms\\)\n`));
    expect(all).toContain('"x-request-id":"rq-1"'); // answer headers
    expect(all).toContain('"user-agent":"superagent-test/1.0"'); // request headers
    expect(all).toContain('"name":"bot"'); // request body
    expect(all).toContain('"agent_id":"ag-1"'); // answer body
  });

  it('masks the key wherever it appears, also in an error answer', async () => {
    const s = await h.scripted(
      sequence({ status: 403, body: { statusCode: 403, message: `key ${KEY} may not do that` } }),
    );
    const c = h.client(s.url);
    await failure(c.client.json(get()));
    const all = c.traces.join('\n');
    expect(all).not.toContain(KEY);
    expect(all).toContain('← 403 GET');
    expect(all).toContain(`key ${maskKey(KEY)} may not`);
  });

  it('cuts bodies to about 2000 characters, saying how long they were', async () => {
    const big = 'z'.repeat(5000);
    const s = await h.scripted(sequence({ status: 200, body: { big } }));
    const c = h.client(s.url);
    await c.client.json({ method: 'PUT', path: '/v1/x', body: { big } });
    const bodyLines = c.traces.filter((l) => l.includes('zzz'));
    expect(bodyLines).toHaveLength(2); // request and answer
    for (const line of bodyLines) {
      expect(line.length).toBeLessThan(2100);
      expect(line.endsWith(`… (${JSON.stringify({ big }).length} characters)`)).toBe(true);
    }
  });

  it('masks a bot token that straddles the 2000-character cut (the launch body of a long soul)', async () => {
    const s = await h.scripted(sequence({ status: 200, body: { agent_id: 'ag-1' } }));
    const c = h.client(s.url);
    // the token's field begins a few characters before the cut: what is left of it must not show its secret half
    const head = JSON.stringify({ name: 'bot', soul_md: '' }).length - 1;
    const soul = 's'.repeat(2000 - head - 43);
    await c.client.json({
      method: 'POST',
      path: '/v1/superagents',
      body: { name: 'bot', soul_md: soul, telegram_bot_token: TOKEN, description: 'd'.repeat(400) },
    });
    const all = c.traces.join('\n');
    expect(all).toContain('characters)'); // it was cut
    expect(all).toContain('"telegram_bot_token":"7012345678:…"');
    expect(all).not.toContain(TOKEN.split(':')[1]!.slice(0, 4));
  });

  it('traces a connection failure with its code and time', async () => {
    const c = h.client(await h.closedPort(), { retry: { retries: 0 } });
    await failure(c.client.json(get()));
    expect(c.traces.join('\n')).toMatch(/\n← ECONNREFUSED after \d+ ms$/);
  });

  it('traces every attempt of a retried request', async () => {
    const s = await h.scripted(sequence({ status: 503 }, { status: 200, body: {} }));
    const c = h.client(s.url);
    await c.client.json(get());
    expect(c.traces.filter((l) => l.startsWith('→ GET'))).toHaveLength(2);
    expect(c.traces.filter((l) => /^← \d{3} GET/.test(l)).map((l) => l.slice(2, 5))).toEqual(['503', '200']);
  });

  it('without --debug (no trace function) the same call works', async () => {
    const s = await h.scripted(sequence({ status: 503 }, { status: 200, body: { ok: 1 } }));
    const c = h.client(s.url, { trace: undefined });
    expect(await c.client.json(get())).toEqual({ ok: 1 });
    expect(s.requests).toHaveLength(2);
  });
});

describe('redact.ts', () => {
  it('masks secret JSON fields', () => {
    const text = JSON.stringify({ telegram_bot_token: TOKEN, api_key: KEY, apiKey: KEY, token: KEY, name: 'n' });
    const out = redactText(text);
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain(KEY);
    expect(JSON.parse(out)).toEqual({
      telegram_bot_token: '7012345678:…',
      api_key: 'sa_sk_…abcd',
      apiKey: 'sa_sk_…abcd',
      token: 'sa_sk_…abcd',
      name: 'n',
    });
  });

  it('masks a bare bot token anywhere and any given secret', () => {
    expect(redactText(`token ${TOKEN} and key ${KEY} twice ${KEY}`, [KEY])).toBe(
      'token 7012345678:… and key sa_sk_…abcd twice sa_sk_…abcd',
    );
  });

  it('leaves ordinary text alone', () => {
    expect(redactText('GET /v1/superagents 12:30', [''])).toBe('GET /v1/superagents 12:30');
  });

  it('masks authorization and x-api-key headers, keeps the rest', () => {
    expect(
      redactHeaders({
        Authorization: `Bearer ${KEY}`,
        'x-api-key': KEY,
        accept: 'application/json',
        'set-cookie': ['a=1', 'b=2'],
        gone: undefined,
      }),
    ).toEqual({
      Authorization: 'Bearer sa_sk_…abcd',
      'x-api-key': 'sa_sk_…abcd',
      accept: 'application/json',
      'set-cookie': 'a=1, b=2',
    });
    expect(redactHeaders({ authorization: 'Bearer short' }).authorization).toBe('Bearer …');
  });
});
