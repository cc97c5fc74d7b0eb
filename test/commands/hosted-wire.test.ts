// The commands against a loopback stand-in for the hosted service (test/helpers/hosted-mock.ts),
// answering in hosted-openapi.json's shapes and streaming recorded hosted streams: the hosted wire
// as a user meets it, through the commands layer. No request ever leaves loopback, and with
// a hosted key the embedded service is never started (its data dir stays empty after every run).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MemoryConfig, runLine, type RunOptions } from '../helpers/context.js';
import { HOSTED_AGENT, startHostedMock, type HostedMock, type Route } from '../helpers/hosted-mock.js';
import { perTest } from '../helpers/service-support.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/streams');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, `${name}.sse`));
const expected = (name: string) =>
  JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.expected.json`), 'utf8')) as {
    text: string;
    message?: string;
  };

const HOSTED_KEY = 'gb_sk_live_4f8a2b9c1d3e5f7a9b0c';
const ID = HOSTED_AGENT.agent_id;
const PAUSED = {
  ...HOSTED_AGENT,
  agent_id: 'b2c3d4e5-6789-01ab-cdef-2345678901bc',
  name: 'Degen Trader',
  status: 'paused',
  model: null,
};

const SKILLS = [
  { name: 'hyperliquid', description: 'Trade perpetuals on HyperLiquid', enabled: false },
  { name: 'polymarket', description: 'Bet on prediction markets', enabled: false },
  { name: 'market-intel', description: 'Market news', enabled: true },
];

/** A hosted service with two agents whose skills PUT takes effect (unless `ignoreSkills`). */
function hosted(opts: { ignoreSkills?: boolean; wallet?: unknown; stream?: Uint8Array | string } = {}): Route {
  let disabled = SKILLS.filter((s) => !s.enabled).map((s) => s.name);
  return ({ method, path: p, body }) => {
    if (method === 'GET' && p === '/v1/superagents') return { json: { agents: [HOSTED_AGENT, PAUSED] } };
    if (method === 'GET' && p === `/v1/superagents/${ID}`) return { json: HOSTED_AGENT };
    if (method === 'POST' && /\/pause$/.test(p)) return { json: { agent_id: p.split('/')[3], status: 'paused' } };
    if (method === 'GET' && p === `/v1/superagents/${ID}/wallet`)
      return {
        json: opts.wallet ?? {
          evm_address: '0x1a2B3c4D5e6F7a8B9c0D1e2F3a4B5c6D7e8F9a0B',
          solana_address: '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU',
        },
      };
    if (method === 'GET' && p === `/v1/superagents/${ID}/skills`)
      return { json: { agent_id: ID, skills: SKILLS.map((s) => ({ ...s, enabled: !disabled.includes(s.name) })) } };
    if (method === 'PUT' && p === `/v1/superagents/${ID}/skills`) {
      if (!Array.isArray(body?.disabled))
        return { status: 400, json: { statusCode: 400, message: ['disabled must be an array'] } };
      if (!opts.ignoreSkills) disabled = body.disabled;
      return { json: { agent_id: ID, status: 'updated' } };
    }
    if (method === 'POST' && p === '/v1/superagents')
      return {
        json: {
          agent_id: 'c3d4e5f6-7890-12ab-cdef-3456789012cd',
          name: body?.name,
          bot_username: null,
          wallet_address: '0x1234...abcd',
          status: 'running',
        },
      };
    if (method === 'POST' && (p === `/v1/superagents/${ID}/chat` || p === '/v1/chat') && opts.stream)
      return { sse: opts.stream };
    return undefined;
  };
}

const temp = perTest();
let mock: HostedMock;

/** A hosted stand-in for this test, closed after it. */
async function useMock(route: Route): Promise<void> {
  mock = await startHostedMock(route);
  temp.closeAfter(mock);
}

describe('the hosted service, chosen by a gb_sk_ key', () => {
  /** as a user with a hosted key and no base URL: the key's prefix chooses the (mocked) hosted service */
  async function cli(argv: string[], o: RunOptions = {}) {
    const dataDir = temp.scratch('superagent-hosted-data-');
    const r = await runLine(undefined, argv, {
      ...o,
      env: { SUPERAGENT_API_KEY: HOSTED_KEY, SUPERAGENT_HOSTED_URL: mock.url, SUPERAGENT_DATA_DIR: dataDir, ...o.env },
    });
    // the embedded service was never started: nothing was written to its data dir
    expect(fs.readdirSync(dataDir)).toEqual([]);
    return r;
  }

  it('pause --all goes to the hosted service with the key, never the embedded one', async () => {
    await useMock(hosted());
    const r = await cli(['pause', '--all']);
    expect(r.code, r.stderr).toBe(0);
    expect(mock.requests.map((q) => `${q.method} ${q.path}`)).toEqual([
      'GET /v1/superagents',
      `POST /v1/superagents/${ID}/pause`,
    ]);
    expect(mock.requests.every((q) => q.authorization === `Bearer ${HOSTED_KEY}`)).toBe(true);
  });

  it('whoami and the first --debug line say which service and what chose it', async () => {
    await useMock(hosted());
    const who = await cli(['whoami', '--json']);
    expect(who.code, who.stderr).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({
      service: 'hosted',
      base_url: mock.url,
      reason: 'a gb_sk_ key comes from SUPERAGENT_API_KEY and no base URL is set',
      authenticated: true,
    });
    const debug = await cli(['list', '--debug']);
    expect(debug.code, debug.stderr).toBe(0);
    expect(debug.stderr.split('\n')[0]).toBe(
      `superagent: using the hosted service at ${mock.url}: a gb_sk_ ` +
        `key comes from SUPERAGENT_API_KEY and no base URL is set`,
    );
    expect(debug.stderr).toContain('GET'); // the trace ran, and…
    expect(debug.stderr).not.toContain(HOSTED_KEY); // …never shows the key whole
  });

  it(
    'a key of no known service with no base URL: exit 3, naming ' + 'SUPERAGENT_BASE_URL and login, before any request',
    async () => {
      await useMock(hosted());
      const r = await cli(['pause', '--all'], { env: { SUPERAGENT_API_KEY: 'sk-live-0123456789abcdefghij' } });
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(/SUPERAGENT_BASE_URL/);
      expect(r.stderr).toMatch(/superagent login/);
      expect(r.stderr).not.toContain('sk-live-0123456789abcdefghij');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(mock.requests).toEqual([]);
    },
  );

  it('get on a hosted record leaves out the fields its answer never carries, never says "none"', async () => {
    await useMock(hosted());
    const r = await cli(['get', ID]);
    expect(r.code, r.stderr).toBe(0);
    const fields = Object.fromEntries(
      r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')),
    );
    expect(fields).toMatchObject({ name: 'ETH Scalper', model: 'gpt-4o' });
    expect(Object.keys(fields)).not.toContain('bot');
    expect(Object.keys(fields)).not.toContain('wallet');
    expect(r.stdout).not.toMatch(/none/);
  });

  it('a list item with a status the client does not know is shown as it is', async () => {
    await useMock((req) =>
      req.method === 'GET' && req.path === '/v1/superagents'
        ? { json: { agents: [{ ...HOSTED_AGENT, status: 'stopped', model: null }] } }
        : undefined,
    );
    const r = await cli(['list']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\t')).toEqual([ID, 'ETH Scalper', 'stopped', '', '2026-03-15T10:00:00Z\n']);
  });

  it('wallet with a null address says so and exits 7', async () => {
    await useMock(
      hosted({ wallet: { evm_address: '0x1a2B3c4D5e6F7a8B9c0D1e2F3a4B5c6D7e8F9a0B', solana_address: null } }),
    );
    const r = await cli(['wallet', ID, '--no-balances']);
    expect(r.code).toBe(7);
    expect(r.stdout).toBe('evm\t0x1a2B3c4D5e6F7a8B9c0D1e2F3a4B5c6D7e8F9a0B\nsolana\t\n');
    expect(r.stderr).toMatch(/no Solana address/);
  });

  it('skills enable sends the whole disabled set, then reads the list back', async () => {
    await useMock(hosted());
    const r = await cli(['skills', 'enable', ID, 'hyperliquid']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('hyperliquid\ton\n');
    expect(mock.requests.map((q) => `${q.method} ${q.path.split('/').pop()}`)).toEqual([
      'GET skills',
      'PUT skills',
      'GET skills',
    ]);
    expect(mock.requests[1]!.body).toEqual({ disabled: ['polymarket'] });
  });

  it('skills disable of a skill already off writes nothing', async () => {
    await useMock(hosted());
    const r = await cli(['skills', 'disable', ID, 'polymarket']);
    expect(r.code, r.stderr).toBe(0);
    expect(mock.requests.map((q) => q.method)).toEqual(['GET']);
  });

  it('a change the service accepted but did not apply: exit 7 naming the skill', async () => {
    await useMock(hosted({ ignoreSkills: true }));
    const r = await cli(['skills', 'enable', ID, 'hyperliquid']);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/hyperliquid is still off/);
  });

  it('an unknown skill name is exit 2 with the valid names, before any write', async () => {
    await useMock(hosted());
    const r = await cli(['skills', 'enable', ID, 'hyperliqud']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/hyperliquid, polymarket, market-intel/);
    expect(mock.requests.filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('launch in a script sends a model and a provider: the profile’s settings, else the default', async () => {
    await useMock(hosted());
    // launch reads the list again after its POST
    const launched = () => mock.requests.filter((q) => q.method === 'POST').at(-1)!.body;
    const config = new MemoryConfig();
    const plain = await cli(['launch', '--name', 'scout'], { config });
    expect(plain.code, plain.stderr).toBe(0);
    expect(launched()).toEqual({ name: 'scout', model: 'claude-sonnet-4-20250514', model_provider: 'anthropic' });
    for (const [k, v] of [
      ['model', 'llama-3.3-70b'],
      ['provider', 'venice'],
    ]) {
      const set = await cli(['config', 'set', k!, v!], { config });
      expect(set.code, set.stderr).toBe(0);
    }
    const fromProfile = await cli(['launch', '--name', 'scout2'], { config });
    expect(fromProfile.code, fromProfile.stderr).toBe(0);
    expect(launched()).toEqual({ name: 'scout2', model: 'llama-3.3-70b', model_provider: 'venice' });
    const mismatched = await cli(['launch', '--name', 'scout3', '--model', 'gpt-4o', '--provider', 'anthropic'], {
      config,
    });
    expect(mismatched.code, mismatched.stderr).toBe(0);
    expect(mismatched.stderr).toMatch(/gpt-4o.*openai/);
    expect(launched()).toEqual({ name: 'scout3', model: 'gpt-4o', model_provider: 'anthropic' });
  });

  it('model AGENT MODEL with a provider that cannot be told: exit 2 naming --provider, nothing sent', async () => {
    await useMock(hosted());
    const r = await cli(['model', ID, 'llama-3.3-70b']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--provider/);
    expect(mock.requests).toEqual([]);
  });
});

describe('recorded hosted streams', () => {
  const target = () => ({ url: mock.url, key: HOSTED_KEY });
  const chat = async (name: string, args: string[] = []) => {
    await useMock(hosted({ stream: fixture(name) }));
    return runLine(target(), ['chat', ID, 'what now?', ...args]);
  };
  /** An assistant stream of data-only blocks, as the hosted service sends them. */
  const sse = (events: object[], done = false) =>
    events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '');

  it(
    'an Agno agent stream with tool calls and RunCompleted: ' + 'the reply once, tool calls on stderr with --verbose',
    async () => {
      const r = await chat('agno2-agent-chat-tools', ['--verbose']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe(`${expected('agno2-agent-chat-tools').text}\n`);
      expect(r.stderr).toContain('⚙ get_funding_rate(symbol=ETH) ✓ 0.2 s');
      expect(r.stderr).toContain('⚙ get_price(symbol=ETH, interval=5m) ✓ 1.4 s');
      expect(r.stderr).not.toContain('completed in');
    },
  );

  it('piped without --verbose, tool calls are not shown; --json lists them under tool_calls', async () => {
    const plain = await chat('agno2-agent-chat-tools');
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).not.toContain('⚙');
    const json = await chat('agno2-agent-chat-tools', ['--json']);
    expect(json.code, json.stderr).toBe(0);
    const out = JSON.parse(json.stdout);
    expect(out.content).toBe(expected('agno2-agent-chat-tools').text);
    expect(
      out.tool_calls.map((c: { name: string; status: string; arguments: unknown }) => [c.name, c.status, c.arguments]),
    ).toEqual([
      ['get_funding_rate', 'done', { symbol: 'ETH' }],
      ['get_price', 'done', { symbol: 'ETH', interval: '5m' }],
    ]);
  });

  it('an error event mid-stream: the text already printed stays, then exit 7 with the service’s message', async () => {
    const r = await chat('error-midstream');
    expect(r.code).toBe(7);
    expect(r.stdout).toBe(`${expected('error-midstream').text}\n`);
    expect(r.stderr).toContain(expected('error-midstream').message!);
  });

  it('a RunError: exit 7, never a success', async () => {
    const r = await chat('agno-run-error');
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('Rate limit reached for gpt-4o');
  });

  it('assistant ask --fields against an Agno assistant stream prints the JSON once and exits 0', async () => {
    const answer = '{"direction":"long","confidence":0.7}';
    const pieces = ['{"direction":', '"long","confidence"', ':0.7}'];
    await useMock(
      hosted({
        stream: sse([
          ...pieces.map((p) => ({ event: 'RunResponseContent', content: p, session_id: 's1' })),
          { event: 'RunCompleted', content: answer, session_id: 's1' },
        ]),
      }),
    );
    const r = await runLine(target(), ['assistant', 'ask', 'ETH?', '--fields', 'direction,confidence']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ direction: 'long', confidence: 0.7 });
    expect(r.stdout.match(/direction/g)).toHaveLength(1);
  });

  it('assistant ask --session that comes back as another session says so once on stderr', async () => {
    await useMock(
      hosted({ stream: sse([{ event: 'RunResponseContent', content: 'Hi', session_id: 'new-session' }], true) }),
    );
    const r = await runLine(target(), ['assistant', 'ask', 'and ETH?', '--session', 'old-session']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('Hi\n');
    expect(r.stderr.match(/did not continue session old-session/g)).toHaveLength(1);
  });
});
