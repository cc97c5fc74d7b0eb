// The client's side of the hosted wire, as pure functions: which service a key goes to,
// what launch and model send, the disabled set skills send, and how tool calls are shown.
import { describe, expect, it } from 'vitest';
import { resolveConnection } from '../../src/config/resolve.js';
import { launchModel, warnIfMismatched } from '../../src/cli/commands/shared/providers.js';
import { disabledAfter } from '../../src/cli/commands/skills/toggle.js';
import { EXIT, exitCodeFor } from '../../src/cli/exit-codes.js';
import { toGlobals, type GlobalOptions } from '../../src/cli/globals.js';
import { CredentialsError } from '../../src/core/errors.js';
import { HOSTED_BASE_URL } from '../../src/contract.js';
import { Printer } from '../../src/ui/printer.js';
import { shortArgs, toolLabel, toolOutcome } from '../../src/ui/tool-calls.js';

const globals = (over: Partial<GlobalOptions> = {}): GlobalOptions => ({ ...toGlobals({}, {}), ...over });

describe('a key with no base URL never lands on the wrong account', () => {
  it('a gb_sk_ key goes to the hosted service’s documented base URL, and says why', () => {
    const c = resolveConnection(globals(), { SUPERAGENT_API_KEY: 'gb_sk_live_0123456789abcdef' }, {});
    expect(c.baseUrl).toBe(HOSTED_BASE_URL);
    expect(c.service).toBe('hosted');
    expect(c.baseUrlSource).toBe('key');
    expect(c.reason).toBe('a gb_sk_ key comes from SUPERAGENT_API_KEY and no base URL is set');
  });

  it('SUPERAGENT_HOSTED_URL stands in for the hosted URL (tests use a loopback mock)', () => {
    const c = resolveConnection(
      globals(),
      { SUPERAGENT_API_KEY: 'gb_sk_x', SUPERAGENT_HOSTED_URL: 'http://127.0.0.1:9/' },
      {},
    );
    expect(c.baseUrl).toBe('http://127.0.0.1:9');
    expect(c.service).toBe('hosted');
  });

  it('an sa_sk_ key goes to the embedded service', () => {
    const c = resolveConnection(globals({ apiKey: 'sa_sk_0123456789abcdef0123456789abcdef' }), {}, {});
    expect(c.baseUrl).toBeNull();
    expect(c.service).toBe('embedded');
    expect(c.reason).toContain('--api-key');
  });

  it('any other key is exit 3 naming SUPERAGENT_BASE_URL and superagent login, the key masked', () => {
    const key = 'sk-proj-0123456789abcdefghij';
    let err: unknown;
    try {
      resolveConnection(globals(), {}, { active_profile: 'p', profiles: { p: { api_key: key } } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CredentialsError);
    const e = err as CredentialsError;
    expect(exitCodeFor(e)).toBe(EXIT.auth);
    expect(`${e.message} ${e.hint}`).toMatch(/SUPERAGENT_BASE_URL/);
    expect(`${e.message} ${e.hint}`).toMatch(/superagent login/);
    expect(e.message).toContain("profile 'p'");
    expect(e.message).not.toContain(key);
  });

  it('a base URL wins over the key’s prefix; the hosted URL given explicitly is still "hosted"', () => {
    const c = resolveConnection(
      globals({ baseUrl: 'https://api.gigabrain.gg/v1' }),
      { SUPERAGENT_API_KEY: 'other' },
      {},
    );
    expect([c.baseUrl, c.service, c.reason]).toEqual([HOSTED_BASE_URL, 'hosted', 'the base URL comes from --base-url']);
    const own = resolveConnection(globals({ baseUrl: 'http://localhost:8420' }), { SUPERAGENT_API_KEY: 'gb_sk_x' }, {});
    expect([own.baseUrl, own.service]).toEqual(['http://localhost:8420', 'configured']);
  });

  it('nothing configured: the embedded service', () => {
    const c = resolveConnection(globals(), {}, {});
    expect([c.baseUrl, c.service, c.reason]).toEqual([null, 'embedded', 'no base URL or key is configured']);
  });
});

describe('launch always sends a model and its provider', () => {
  it('flags first; a model alone brings its inferred provider, a provider alone its house model', () => {
    expect(launchModel({ model: 'gpt-4o' }, { model: 'grok-4', provider: 'xai' })).toEqual({
      model: 'gpt-4o',
      provider: 'openai',
      source: 'flags',
    });
    expect(launchModel({ provider: 'xai' }, undefined)).toEqual({ model: 'grok-4', provider: 'xai', source: 'flags' });
    expect(launchModel({ model: 'llama-3.3-70b' }, undefined).provider).toBeUndefined();
  });

  it('then the profile’s model and provider settings', () => {
    expect(launchModel({}, { model: 'llama-3.3-70b', provider: 'venice' })).toEqual({
      model: 'llama-3.3-70b',
      provider: 'venice',
      source: 'profile',
    });
    expect(launchModel({}, { model: 'claude-opus-4' })).toEqual({
      model: 'claude-opus-4',
      provider: 'anthropic',
      source: 'profile',
    });
    expect(launchModel({}, { provider: 'openai' })).toEqual({ model: 'gpt-4o', provider: 'openai', source: 'profile' });
  });

  it('then the documented default', () => {
    expect(launchModel({}, undefined)).toEqual({
      model: 'claude-sonnet-4-20250514',
      provider: 'anthropic',
      source: 'default',
    });
    expect(launchModel({}, { provider: 'not-a-provider' })).toEqual({
      model: 'claude-sonnet-4-20250514',
      provider: 'anthropic',
      source: 'default',
    });
  });

  it('a model that clearly belongs to another provider gets one warning line; a plausible pair none', () => {
    const lines: string[] = [];
    const p = new Printer(
      { write: () => true },
      { write: (s) => (lines.push(s), true) },
      { json: false, quiet: false, color: false, env: {} },
    );
    warnIfMismatched(p, 'gpt-4o', 'anthropic');
    warnIfMismatched(p, 'gpt-4o', 'openai');
    warnIfMismatched(p, 'llama-3.3-70b', 'venice');
    warnIfMismatched(p, 'anthropic/claude-sonnet-4', 'openrouter');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/gpt-4o.*openai.*anthropic/);
    expect(lines[0]!.trimEnd().split('\n')).toHaveLength(1);
  });
});

describe('skills: the whole disabled set', () => {
  const skills = [
    { name: 'hyperliquid', description: '', enabled: false },
    { name: 'evm-wallet', description: '', enabled: true },
    { name: 'polymarket', description: '', enabled: false },
    { name: 'market-intel', description: '', enabled: true },
  ];

  it('enabling removes the names from the disabled set and keeps every other skill as it is', () => {
    expect(disabledAfter(skills, ['hyperliquid'], true)).toEqual(['polymarket']);
  });

  it('disabling adds them, in catalogue order, without duplicates', () => {
    expect(disabledAfter(skills, ['market-intel', 'hyperliquid'], false)).toEqual([
      'hyperliquid',
      'polymarket',
      'market-intel',
    ]);
  });

  it('enabling everything sends an empty set', () => {
    expect(disabledAfter(skills, ['hyperliquid', 'polymarket'], true)).toEqual([]);
  });
});

describe('tool call lines', () => {
  it('name and short arguments, from an object or its JSON text', () => {
    expect(toolLabel({ id: '1', name: 'get_funding_rate', args: { symbol: 'ETH' }, state: 'running' })).toBe(
      '⚙ get_funding_rate(symbol=ETH)',
    );
    expect(shortArgs('{"symbol":"SOL","limit":5}')).toBe('symbol=SOL, limit=5');
    expect(shortArgs(undefined)).toBe('');
    expect(shortArgs({ q: 'x'.repeat(200) }).length).toBeLessThanOrEqual(60);
  });

  it('controls and line breaks from the service never reach the line', () => {
    const label = toolLabel({
      id: '1',
      name: 'evil\u001b]52;c;Y3VybA==\u0007',
      args: { a: 'line\nbreak\u001b[2J' },
      state: 'running',
    });
    expect(label).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it('the outcome: duration, failure with its reason, or still running', () => {
    expect(toolOutcome({ id: '1', name: 'x', state: 'done', durationMs: 210 })).toBe('✓ 0.2 s');
    expect(toolOutcome({ id: '1', name: 'x', state: 'done', durationMs: 12_400 })).toBe('✓ 12 s');
    expect(toolOutcome({ id: '1', name: 'x', state: 'done' })).toBe('✓');
    expect(toolOutcome({ id: '1', name: 'x', state: 'failed', error: 'HTTP 503' })).toBe('✗ HTTP 503');
    expect(toolOutcome({ id: '1', name: 'x', state: 'running' })).toBe('…');
  });
});

describe('tool lines on a terminal', () => {
  function tty() {
    const err: string[] = [];
    const out: string[] = [];
    const p = new Printer(
      { write: (s) => (out.push(s), true), isTTY: true },
      { write: (s) => (err.push(s), true), isTTY: true },
      { json: false, quiet: false, color: false, env: {} },
    );
    return { p, err, out };
  }

  it('a call opens its line when it starts and finishes it when it ends: one line per call', async () => {
    const { ToolLines } = await import('../../src/ui/tool-calls.js');
    const { p, err } = tty();
    const lines = new ToolLines(p, 'live');
    lines.show({ id: 'a', name: 'get_price', args: { symbol: 'BTC' }, state: 'running' });
    expect(err.join('')).toBe('⚙ get_price(symbol=BTC)');
    lines.show({ id: 'a', name: 'get_price', args: { symbol: 'BTC' }, state: 'done', durationMs: 1370 });
    lines.show({ id: 'b', name: 'get_news', state: 'running' });
    lines.show({ id: 'b', name: 'get_news', state: 'failed', error: 'timeout' });
    lines.finish();
    expect(err.join('')).toBe('⚙ get_price(symbol=BTC) ✓ 1.4 s\n⚙ get_news() ✗ timeout\n');
  });

  it('an open line is ended before the next call starts or the reply prints', async () => {
    const { ToolLines } = await import('../../src/ui/tool-calls.js');
    const { p, err } = tty();
    const lines = new ToolLines(p, 'live');
    lines.show({ id: 'a', name: 'one', state: 'running' });
    lines.show({ id: 'b', name: 'two', state: 'running' });
    lines.show({ id: 'a', name: 'one', state: 'done' });
    lines.close();
    expect(err.join('')).toBe('⚙ one()\n⚙ two()\n⚙ one() ✓\n');
  });

  it('--quiet shows nothing; a pipe shows nothing unless --verbose', async () => {
    const { toolDisplay } = await import('../../src/ui/tool-calls.js');
    const mk = (isTTY: boolean, quiet: boolean) =>
      new Printer({ write: () => true }, { write: () => true, isTTY }, { json: false, quiet, color: false, env: {} });
    expect(toolDisplay(mk(true, false), false)).toBe('live');
    expect(toolDisplay(mk(true, true), true)).toBe('off');
    expect(toolDisplay(mk(false, false), false)).toBe('off');
    expect(toolDisplay(mk(false, false), true)).toBe('log');
  });
});
