// `superagent assistant ask` through the commands layer (docs/cli.md; docs/api.md, Chat, sessions and
// the assistant):
// streamed answers, stdin, --fields / --array parsed, --json, sessions, --model / --provider checked
// before any request, and a hosted-style stream whose "JSON" is not JSON (raw text kept, exit 7).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cliFor } from '../helpers/context.js';
import { stopService } from '../helpers/service-support.js';
import { startTestService, type TestService } from '../helpers/service.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const SESSION_LINE = new RegExp(`^Session: (${UUID})\\n$`);

let service: TestService;
const cli = cliFor(() => service);

beforeAll(async () => {
  service = await startTestService({ connectedProviders: ['anthropic'] });
});
afterAll(async () => {
  await stopService(service);
});
beforeEach(() => {
  service.exchanges.splice(0);
});

/** The assistant's answer to `message` in a fresh session, asked directly (answers are deterministic). */
async function direct(message: string): Promise<string> {
  const r = await service.call('POST', '/v1/chat', { body: { message } });
  expect(r.status).toBe(200);
  return r.json.content;
}

function sessionFrom(stderr: string): string {
  const m = SESSION_LINE.exec(stderr);
  expect(m, stderr).not.toBeNull();
  return m![1]!;
}

/** The bodies the CLI sent to POST /v1/chat since the last look. */
function asked(): unknown[] {
  return service
    .cliRequests()
    .filter((r) => r.method === 'POST' && r.path === '/v1/chat')
    .map((r) => r.body);
}

describe('assistant ask', () => {
  it('streams the answer to stdout with a final newline; the session on stderr', async () => {
    const expected = await direct('What is moving SOL today?');
    const r = await cli(['assistant', 'ask', 'What is moving', 'SOL today?']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${expected}\n`);
    sessionFrom(r.stderr);
    expect(asked()).toEqual([{ message: 'What is moving SOL today?', stream: true }]);
  });

  it('reads the question from stdin; --no-stream gives the same answer', async () => {
    const expected = await direct('BTC funding rates?');
    const piped = await cli(['assistant', 'ask'], { input: 'BTC funding rates?\n' });
    expect(piped.code).toBe(0);
    expect(piped.stdout).toBe(`${expected}\n`);
    const whole = await cli(['assistant', 'ask', '--no-stream', 'BTC funding rates?']);
    expect(whole.code).toBe(0);
    expect(whole.stdout).toBe(`${expected}\n`);
    sessionFrom(whole.stderr);
    expect(asked()).toEqual([
      { message: 'BTC funding rates?', stream: true },
      { message: 'BTC funding rates?', stream: false },
    ]);
  });

  it('--fields prints the parsed object as pretty JSON, keys in the order asked', async () => {
    const content = await direct('ETH outlook\n\nRespond as JSON with: symbol, outlook, confidence');
    const r = await cli(['assistant', 'ask', 'ETH outlook', '--fields', 'symbol, outlook,confidence']);
    expect(r.code).toBe(0);
    const parsed = JSON.parse(r.stdout);
    expect(Object.keys(parsed)).toEqual(['symbol', 'outlook', 'confidence']);
    expect(r.stdout).toBe(`${JSON.stringify(JSON.parse(content), null, 2)}\n`);
    sessionFrom(r.stderr);
    expect(asked()).toEqual([
      { message: 'ETH outlook\n\nRespond as JSON with: symbol, outlook, confidence', stream: true },
    ]);
  });

  it('--fields --array prints the parsed array (JSON when piped)', async () => {
    const r = await cli(['assistant', 'ask', 'Top perps by funding', '--fields', 'symbol,funding_rate', '--array']);
    expect(r.code).toBe(0);
    const parsed = JSON.parse(r.stdout);
    expect(Array.isArray(parsed)).toBe(true);
    expect(parsed.length).toBeGreaterThan(0);
    for (const row of parsed) expect(Object.keys(row)).toEqual(['symbol', 'funding_rate']);
    expect(r.stdout).toBe(`${JSON.stringify(parsed, null, 2)}\n`);
    expect(asked()).toEqual([
      { message: 'Top perps by funding\n\nRespond as JSON array with: symbol, funding_rate', stream: true },
    ]);
  });

  it(
    '--json prints the API answer { session_id, content, timestamp } with its ' +
      'tool_calls (none: the assistant streams no tool events), and nothing on stderr',
    async () => {
      const expected = await direct('Macro view this week?');
      for (const extra of [[], ['--no-stream']]) {
        const r = await cli(['assistant', 'ask', '--json', ...extra, 'Macro view this week?']);
        expect(r.code).toBe(0);
        expect(r.stderr).toBe('');
        const body = JSON.parse(r.stdout);
        expect(Object.keys(body)).toEqual(['session_id', 'content', 'timestamp', 'tool_calls']);
        expect(body.content).toBe(expected);
        expect(body.session_id).toMatch(new RegExp(`^${UUID}$`));
        expect(body.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/);
        expect(body.tool_calls).toEqual([]);
      }
    },
  );

  it('--session continues: the same id back, and the history changes the answer', async () => {
    const first = await cli(['assistant', 'ask', 'How is BTC?']);
    const sid = sessionFrom(first.stderr);
    const second = await cli(['assistant', 'ask', '--session', sid, 'How is BTC?']);
    expect(second.code).toBe(0);
    expect(sessionFrom(second.stderr)).toBe(sid);
    expect(second.stdout).not.toBe(first.stdout);
    expect(asked().at(-1)).toEqual({ message: 'How is BTC?', session_id: sid, stream: true });
  });

  it('a connected provider’s model is used; an unconnected one is refused by the service (exit 2)', async () => {
    const ok = await cli(['assistant', 'ask', '--model', 'claude-sonnet-4-20250514', 'hello']);
    expect(ok.code, ok.stderr).toBe(0);
    const refused = await cli(['assistant', 'ask', '--model', 'gpt-4o', '--provider', 'openai', 'hello']);
    expect(refused).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        "Error: No API key connected for provider 'openai', which --model gpt-4o needs " +
        '(connect a key for openai to your account, or choose another --model)\n',
    });
    // the provider inferred from the model, or as given
    expect(asked()).toEqual([
      { message: 'hello', model: 'claude-sonnet-4-20250514', model_provider: 'anthropic', stream: true },
      { message: 'hello', model: 'gpt-4o', model_provider: 'openai', stream: true },
    ]);
  });

  it.each<[string, string[], string | undefined, string]>([
    [
      'an unknown --provider',
      ['--provider', 'acme', '--model', 'x', 'hi'],
      undefined,
      "Error: --provider must be one of: openai, anthropic, xai, openrouter, venice; not 'acme'\n",
    ],
    [
      '--provider without --model',
      ['--provider', 'openai', 'hi'],
      undefined,
      'Error: --provider needs --model (e.g. --model gpt-4o --provider openai)\n',
    ],
    [
      'a model whose provider cannot be told',
      ['--model', 'mystery-model', 'hi'],
      undefined,
      "Error: cannot tell which provider serves model 'mystery-model' (add " +
        '--provider, one of: openai, anthropic, xai, openrouter, venice)\n',
    ],
    [
      '--array without --fields',
      ['--array', 'hi'],
      undefined,
      'Error: --array needs --fields (e.g. --fields symbol,price --array)\n',
    ],
    [
      '--fields without a name',
      ['--fields', ' , ', 'hi'],
      undefined,
      'Error: --fields needs at least one field name (e.g. --fields symbol,price,outlook)\n',
    ],
    [
      'a --session that cannot be an id',
      ['--session', 'two words', 'hi'],
      undefined,
      "Error: --session needs a session id as printed by an earlier reply, not 'two words'\n",
    ],
    [
      'an empty question on stdin',
      [],
      '',
      "Error: the question is empty (give it as arguments, superagent assistant ask 'question', or pipe it on stdin)\n",
    ],
  ])('refuses %s before any request (exit 2)', async (_, args, input, message) => {
    const r = await cli(['assistant', 'ask', ...args], { input });
    expect(r).toMatchObject({ code: 2, stdout: '', stderr: message });
    expect(service.cliRequests()).toEqual([]);
  });

  it('an unknown session exits 4', async () => {
    const sid = randomUUID();
    const r = await cli(['assistant', 'ask', '--session', sid, 'hi']);
    expect(r).toMatchObject({
      code: 4,
      stdout: '',
      stderr: `Error: session ${sid} not found (leave out --session to start a new conversation)\n`,
    });
  });
});

describe('assistant (the REPL) with stdin piped', () => {
  it('answers each line and draws no prompt: stderr ends with a whole line', async () => {
    const first = await direct('What about ETH?');
    const r = await cli(['assistant'], { input: 'What about ETH?\nAnd SOL?\n' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(first);
    expect(r.stderr).not.toContain('›');
    expect(r.stderr === '' || r.stderr.endsWith('\n'), r.stderr).toBe(true);
  });
});

describe('assistant ask against a hosted-style stream', () => {
  let server: http.Server;
  let url: string;
  let seen: Array<Record<string, unknown>>;
  const hosted = cliFor(() => ({ url, key: 'gb_sk_test_key_1234567890' }));

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
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('plain answer: the pieces joined, and the request asked for a stream', async () => {
    const r = await hosted(['assistant', 'ask', 'anything']);
    expect(r).toMatchObject({
      code: 0,
      stdout: 'Sorry, no JSON today.\n',
      stderr: 'Session: 9d1c4f7e-0000-4000-8000-000000000001\n',
    });
    expect(seen.at(-1)).toEqual({ message: 'anything', stream: true });
  });

  it('--fields with content that is not JSON: the raw text on stdout, then an error, exit 7', async () => {
    const r = await hosted(['assistant', 'ask', 'anything', '--fields', 'a,b', '--array']);
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('Sorry, no JSON today.\n');
    expect(r.stderr).toBe(
      'Session: 9d1c4f7e-0000-4000-8000-000000000001\n' +
        'Error: the assistant did not answer with valid JSON (its answer ' +
        'is printed above as it came; try asking again)\n',
    );
    expect(seen.at(-1)).toEqual({ message: 'anything\n\nRespond as JSON array with: a, b', stream: true });
  });
});
