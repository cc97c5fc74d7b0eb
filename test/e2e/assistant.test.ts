// `superagent assistant ask` through the built binary (CLI.md `assistant ask`, contract §4, §5, §6):
// streamed answers, stdin, --fields / --array parsed, --json, sessions, providers checked before any
// request, and a hosted-style stream whose "JSON" is not JSON (raw text kept, exit 7).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { PROBE_RATE_LIMIT, requestProbe, type RequestProbe } from '../helpers/request-count.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { perTest, stopService } from '../helpers/service-support.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const SESSION_LINE = new RegExp(`^Session: (${UUID})\\n$`);

let svc: TestService;
let probe: RequestProbe;
// every run gets a private config and data dir, removed after its test
const scratch = perTest();
const dirs = () => ({ configDir: scratch.scratch('superagent-config-'), dataDir: scratch.scratch('superagent-data-') });
const cli = (args: string[], input?: string) => runCli(args, { target: svc, input, ...dirs() });

beforeAll(async () => {
  svc = await startTestService({ rateLimit: PROBE_RATE_LIMIT, connectedProviders: ['anthropic'] });
  probe = await requestProbe(svc);
});
afterAll(async () => {
  await stopService(svc);
});

/** The assistant's answer to `message` in a fresh session, asked directly (answers are deterministic). */
async function direct(message: string): Promise<string> {
  const r = await svc.call('POST', '/v1/chat', { body: { message } });
  expect(r.status).toBe(200);
  return r.json.content;
}

function sessionFrom(stderr: string): string {
  const m = SESSION_LINE.exec(stderr);
  expect(m, stderr).not.toBeNull();
  return m![1]!;
}

describe('assistant ask', () => {
  it('streams the answer to stdout with a final newline; the session on stderr', async () => {
    const expected = await direct('What is moving SOL today?');
    const r = await cli(['assistant', 'ask', 'What is moving', 'SOL today?']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`${expected}\n`);
    sessionFrom(r.stderr);
  });

  it('reads the question from stdin; --no-stream gives the same answer', async () => {
    const expected = await direct('BTC funding rates?');
    const piped = await cli(['assistant', 'ask'], 'BTC funding rates?\n');
    expect(piped.exitCode).toBe(0);
    expect(piped.stdout).toBe(`${expected}\n`);
    const whole = await cli(['assistant', 'ask', '--no-stream', 'BTC funding rates?']);
    expect(whole.stdout).toBe(`${expected}\n`);
    sessionFrom(whole.stderr);
  });

  it('--fields prints the parsed object as pretty JSON, keys in the order asked', async () => {
    const content = await direct('ETH outlook\n\nRespond as JSON with: symbol, outlook, confidence');
    const r = await cli(['assistant', 'ask', 'ETH outlook', '--fields', 'symbol, outlook,confidence']);
    expect(r.exitCode).toBe(0);
    const parsed = JSON.parse(r.stdout);
    expect(Object.keys(parsed)).toEqual(['symbol', 'outlook', 'confidence']);
    expect(r.stdout).toBe(`${JSON.stringify(JSON.parse(content), null, 2)}\n`);
    sessionFrom(r.stderr);
  });

  it('--fields --array prints the parsed array (JSON when piped)', async () => {
    const r = await cli(['assistant', 'ask', 'Top perps by funding', '--fields', 'symbol,funding_rate', '--array']);
    expect(r.exitCode).toBe(0);
    const parsed = JSON.parse(r.stdout);
    expect(Array.isArray(parsed)).toBe(true);
    expect(parsed.length).toBeGreaterThan(0);
    for (const row of parsed) expect(Object.keys(row)).toEqual(['symbol', 'funding_rate']);
    expect(r.stdout).toBe(`${JSON.stringify(parsed, null, 2)}\n`);
  });

  it('--json prints the API answer { session_id, content, timestamp } with its tool_calls (none: the assistant streams no tool events), and nothing on stderr', async () => {
    const expected = await direct('Macro view this week?');
    for (const extra of [[], ['--no-stream']]) {
      const r = await cli(['assistant', 'ask', '--json', ...extra, 'Macro view this week?']);
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toBe('');
      const body = JSON.parse(r.stdout);
      expect(Object.keys(body)).toEqual(['session_id', 'content', 'timestamp', 'tool_calls']);
      expect(body.content).toBe(expected);
      expect(body.session_id).toMatch(new RegExp(`^${UUID}$`));
      expect(body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/);
      expect(body.tool_calls).toEqual([]);
    }
  });

  it('--session continues: the same id back, and the history changes the answer', async () => {
    const first = await cli(['assistant', 'ask', 'How is BTC?']);
    const sid = sessionFrom(first.stderr);
    const second = await cli(['assistant', 'ask', '--session', sid, 'How is BTC?']);
    expect(second.exitCode).toBe(0);
    expect(sessionFrom(second.stderr)).toBe(sid);
    expect(second.stdout).not.toBe(first.stdout);
  });

  it('a connected provider’s model is used; an unconnected one is refused by the service (exit 2)', async () => {
    const ok = await cli(['assistant', 'ask', '--model', 'claude-sonnet-4-20250514', 'hello']);
    expect(ok.exitCode).toBe(0);
    const refused = await cli(['assistant', 'ask', '--model', 'gpt-4o', '--provider', 'openai', 'hello']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe("Error: No API key connected for provider 'openai'\n");
  });

  it('refuses bad input before any request (exit 2)', async () => {
    const cases: Array<[string[], string, string?]> = [
      [['assistant', 'ask', '--provider', 'acme', '--model', 'x', 'hi'], "argument 'acme' is invalid"],
      [['assistant', 'ask', '--provider', 'openai', 'hi'], '--provider needs --model'],
      [['assistant', 'ask', '--model', 'mystery-model', 'hi'], "cannot tell which provider serves model 'mystery-model'"],
      [['assistant', 'ask', '--array', 'hi'], '--array needs --fields'],
      [['assistant', 'ask', '--fields', ' , ', 'hi'], '--fields needs at least one field name'],
      [['assistant', 'ask', '--session', 'two words', 'hi'], '--session needs a session id'],
      [['assistant', 'ask'], 'the question is empty', ''],
    ];
    for (const [args, message, input] of cases) {
      await probe.since();
      const r = await cli(args, input);
      expect(r.exitCode, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(message);
      expect((await probe.since()).requests).toBe(0);
    }
  });

  it('an unknown session exits 4', async () => {
    const sid = randomUUID();
    const r = await cli(['assistant', 'ask', '--session', sid, 'hi']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toBe(`Error: session ${sid} not found (leave out --session to start a new conversation)\n`);
  });
});

describe('assistant ask against a hosted-style stream', () => {
  let server: http.Server;
  let url: string;
  let seen: Array<Record<string, unknown>>;

  beforeAll(async () => {
    seen = [];
    // unnamed events with `text`, CRLF, a [DONE] terminator, and "JSON" that is not JSON
    server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (d: Buffer) => (raw += d));
      req.on('end', () => {
        seen.push(JSON.parse(raw));
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"session_id":"9d1c4f7e-0000-4000-8000-000000000001","text":"Sorry, "}\r\n\r\n');
        res.write('data: {"text":"no JSON today."}\r\n\r\n');
        res.end('data: [DONE]\r\n\r\n');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  const hosted = (args: string[]) => runCli(args, { target: { url, key: 'gb_sk_test_key_1234567890' }, ...dirs() });

  it('plain answer: the pieces joined, and the request asked for a stream', async () => {
    const r = await hosted(['assistant', 'ask', 'anything']);
    expect(r).toEqual({ exitCode: 0, stdout: 'Sorry, no JSON today.\n', stderr: 'Session: 9d1c4f7e-0000-4000-8000-000000000001\n' });
    expect(seen.at(-1)).toEqual({ message: 'anything', stream: true });
  });

  it('--fields with content that is not JSON: the raw text on stdout, then an error, exit 7', async () => {
    const r = await hosted(['assistant', 'ask', 'anything', '--fields', 'a,b', '--array']);
    expect(r.exitCode).toBe(7);
    expect(r.stdout).toBe('Sorry, no JSON today.\n');
    expect(r.stderr).toBe(
      'Session: 9d1c4f7e-0000-4000-8000-000000000001\n' +
        'Error: the assistant did not answer with valid JSON (its answer is printed above as it came; try asking again)\n',
    );
    expect(seen.at(-1)).toEqual({ message: 'anything\n\nRespond as JSON array with: a, b', stream: true });
  });
});
