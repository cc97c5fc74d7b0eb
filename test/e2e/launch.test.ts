// `superagent launch` through the built binary against a real embedded service (CLI.md, contract §4, §7).
// Bad input must exit 2 before any request: those cases run against a service that must stay empty.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { PROBE_RATE_LIMIT, requestProbe, type RequestProbe } from '../helpers/request-count.js';
import { startTestService, tempDir, type TestService } from '../helpers/service.js';
import type { Exchange } from '../../src/server/index.js';
import { perTest, stopService } from '../helpers/service-support.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BOT_TOKEN = '7123456789:AAHk3_x-ZyQw9vLmN0pRsTuVwXyZaBcDeFg';
const BOT_SECRET = BOT_TOKEN.split(':')[1]!;
const SOUL_LIMIT = 256 * 1024;

let service: TestService;
const scratch = perTest();
const cli = (args: string[], input?: string | Buffer, env?: Record<string, string | undefined>) =>
  runCli(args, { target: service, input, env, configDir: scratch.scratch('superagent-config-'), dataDir: scratch.scratch('superagent-data-') });

/** Every launch the service answered 200: what the CLI sent and what came back (the record itself has no provider or bot). */
const launches: Array<{ sent: any; answer: any }> = [];
function noteLaunch(e: Exchange): void {
  if (e.method === 'POST' && e.path === '/v1/superagents' && e.status === 200) launches.push({ sent: JSON.parse(e.requestBody!), answer: JSON.parse(e.responseBody) });
}
function launchOf(id: string): { sent: any; answer: any } {
  const found = launches.filter((l) => l.answer.agent_id === id);
  expect(found).toHaveLength(1);
  return found[0]!;
}

async function record(id: string) {
  const r = await service.call('GET', `/v1/superagents/${id}`);
  expect(r.status).toBe(200);
  return r.json;
}

async function soulOf(id: string): Promise<string> {
  const r = await service.call('GET', `/v1/superagents/${id}/files`);
  expect(r.status).toBe(200);
  return r.json.soul_md;
}

/** Launches through the CLI (piped) and returns the new id. */
async function launched(args: string[], input?: string | Buffer): Promise<string> {
  const r = await cli(['launch', ...args], input);
  expect(r.stderr).toBe('');
  expect(r.exitCode).toBe(0);
  expect(r.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
  return r.stdout.trim();
}

describe('launch: success', () => {
  beforeAll(async () => {
    service = await startTestService({ onExchange: noteLaunch });
  });
  afterAll(async () => {
    await stopService(service);
  });

  it('piped, prints exactly the new agent id and a newline, with the default model and provider', async () => {
    const r = await cli(['launch', '--name', '  scout  ']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    const id = r.stdout.trim();
    expect(id).toMatch(UUID);
    const a = await record(id);
    expect(a).toMatchObject({ agent_id: id, name: 'scout', status: 'running', model: 'claude-sonnet-4-20250514' });
    const { sent, answer } = launchOf(id);
    expect(sent).toMatchObject({ name: 'scout', model: 'claude-sonnet-4-20250514', model_provider: 'anthropic' });
    expect(sent).not.toHaveProperty('telegram_bot_token');
    expect(answer.bot_username).toBeNull();
  });

  it('--json prints the API answer', async () => {
    const r = await cli(['launch', '--name', 'json-agent', '--description', 'BTC swing trader', '--json']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    const body = JSON.parse(r.stdout);
    expect(Object.keys(body).sort()).toEqual(['agent_id', 'bot_username', 'name', 'status', 'wallet_address']);
    expect(body).toMatchObject({ name: 'json-agent', status: 'running', bot_username: null });
    expect(body.agent_id).toMatch(UUID);
    expect(body.wallet_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect((await record(body.agent_id)).description).toBe('BTC swing trader');
  });

  it.each([
    ['gpt-4o', 'openai'],
    ['o3-mini', 'openai'],
    ['chatgpt-4o-latest', 'openai'],
    ['claude-3-5-haiku-latest', 'anthropic'],
    ['grok-4', 'xai'],
    ['anthropic/claude-sonnet-4', 'openrouter'],
  ])('infers the provider of --model %s (%s)', async (model, provider) => {
    const id = await launched(['--name', `m-${provider}`, '--model', model]);
    expect((await record(id)).model).toBe(model);
    expect(launchOf(id).sent).toMatchObject({ model, model_provider: provider });
    await service.call('DELETE', `/v1/superagents/${id}`); // stay under the 10-agent limit
  });

  it('--provider alone gets that provider’s house model; --provider wins over inference', async () => {
    const venice = await launched(['--name', 'v', '--provider', 'venice']);
    expect((await record(venice)).model).toBe('llama-3.3-70b');
    expect(launchOf(venice).sent).toMatchObject({ model: 'llama-3.3-70b', model_provider: 'venice' });
    // a model that looks like another provider's is sent as asked, with one warning line
    const r = await cli(['launch', '--name', 'r', '--model', 'gpt-4o', '--provider', 'openrouter']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("! OpenRouter model ids name their vendor ('openai/gpt-4o'); sending 'gpt-4o' as asked\n");
    expect(r.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    const routed = r.stdout.trim();
    expect((await record(routed)).model).toBe('gpt-4o');
    expect(launchOf(routed).sent).toMatchObject({ model: 'gpt-4o', model_provider: 'openrouter' });
    for (const id of [venice, routed]) await service.call('DELETE', `/v1/superagents/${id}`);
  });

  it('--soul-file PATH uploads the file as it is', async () => {
    const dir = scratch.scratch();
    const file = path.join(dir, 'soul.md');
    const soul = '# Soul of Ünïcode\n\nTrade 🚀 carefully.\n';
    fs.writeFileSync(file, soul);
    const id = await launched(['--name', 'souled', '--soul-file', file]);
    expect(await soulOf(id)).toBe(soul);
    await service.call('DELETE', `/v1/superagents/${id}`);
  });

  it('--soul-file - reads the soul from standard input; exactly 256 KiB is accepted', async () => {
    const soul = '# Piped\n' + 'x'.repeat(SOUL_LIMIT - '# Piped\n'.length);
    const id = await launched(['--name', 'piped', '--soul-file', '-'], soul);
    expect(await soulOf(id)).toBe(soul);
    await service.call('DELETE', `/v1/superagents/${id}`);
  });

  it('--bot-token-stdin sets the bot; the token never appears in any output, --debug included', async () => {
    const r = await cli(['launch', '--name', 'botty', '--bot-token-stdin', '--debug'], `  ${BOT_TOKEN}\n`);
    expect(r.exitCode).toBe(0);
    const id = r.stdout.trim();
    expect(r.stdout).toBe(`${id}\n`);
    expect(r.stderr).toContain('POST'); // the trace is there…
    expect(r.stderr).toContain('7123456789:…'); // …with the token masked
    for (const text of [r.stdout, r.stderr]) expect(text).not.toContain(BOT_SECRET);
    expect(launchOf(id).sent.telegram_bot_token).toBe(BOT_TOKEN);
    expect(launchOf(id).answer.bot_username).toBe('botty_bot');

    const json = await cli(['launch', '--name', 'botty2', '--bot-token-stdin', '--json'], BOT_TOKEN);
    expect(json.exitCode).toBe(0);
    expect(JSON.parse(json.stdout).bot_username).toBe('botty2_bot');
    expect(json.stdout + json.stderr).not.toContain(BOT_SECRET);
  });
});

describe('launch: bad input exits 2 and sends nothing', () => {
  let dir: string;
  let probe: RequestProbe;

  beforeAll(async () => {
    service = await startTestService({ rateLimit: PROBE_RATE_LIMIT });
    probe = await requestProbe(service);
    dir = tempDir('superagent-souls-');
  });
  // a test that failed half-way must not leave its requests to the next one
  beforeEach(async () => {
    await probe.since();
  });
  afterAll(async () => {
    await stopService(service);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function expectRefused(args: string[], message: string | RegExp, input?: string | Buffer, env?: Record<string, string | undefined>) {
    const r = await cli(['launch', ...args], input, env);
    expect(r.stdout).toBe('');
    if (typeof message === 'string') expect(r.stderr).toContain(message);
    else expect(r.stderr).toMatch(message);
    expect(r.exitCode).toBe(2);
    expect(await probe.since()).toEqual({ requests: 0, agents: [] });
    return r;
  }

  it('a missing --name without a terminal names the flag', async () => {
    await expectRefused([], 'Error: --name is required when not running interactively');
    await expectRefused(['--model', 'gpt-4o'], '--name is required');
    await expectRefused(['--no-input'], '--name is required');
    await expectRefused([], '--name is required', undefined, { CI: 'true' });
  });

  it('--name without a value, empty, blank or over 100 characters', async () => {
    await expectRefused(['--name'], "option '--name <name>' argument missing");
    await expectRefused(['--name', ''], '--name: the name must not be empty');
    await expectRefused(['--name', '   '], '--name: the name must not be empty');
    await expectRefused(['--name', 'n'.repeat(101)], '--name: the name must be at most 100 characters (it has 101)');
  });

  it('a description over 500 characters', async () => {
    await expectRefused(['--name', 'x', '--description', 'd'.repeat(501)], '--description must be at most 500 characters (it has 501)');
  });

  it('an unknown --provider lists the five', async () => {
    await expectRefused(['--name', 'x', '--provider', 'mistral'], 'Allowed choices are openai, anthropic, xai, openrouter, venice');
  });

  it('a --model whose provider cannot be told asks for --provider', async () => {
    const r = await expectRefused(['--name', 'x', '--model', 'llama-3.3-70b'], "cannot tell which provider serves model 'llama-3.3-70b'");
    expect(r.stderr).toContain('add --provider, one of: openai, anthropic, xai, openrouter, venice');
    await expectRefused(['--name', 'x', '--model', '  '], '--model must not be empty');
    await expectRefused(['--name', 'x', '--model', 'gpt-' + 'x'.repeat(200)], '--model must be at most 200 characters');
  });

  it('a soul file that is missing, a directory, not UTF-8, empty or too big', async () => {
    const missing = path.join(dir, 'nope.md');
    await expectRefused(['--name', 'x', '--soul-file', missing], `soul file '${missing}' does not exist`);
    await expectRefused(['--name', 'x', '--soul-file', dir], `soul file '${dir}' is a directory, not a file`);
    const latin1 = path.join(dir, 'latin1.md');
    fs.writeFileSync(latin1, Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x0a])); // "Café" in Latin-1
    await expectRefused(['--name', 'x', '--soul-file', latin1], `soul file '${latin1}' is not valid UTF-8 text`);
    const empty = path.join(dir, 'empty.md');
    fs.writeFileSync(empty, '');
    await expectRefused(['--name', 'x', '--soul-file', empty], `soul file '${empty}' is empty`);
    const blank = path.join(dir, 'blank.md');
    fs.writeFileSync(blank, ' \n\t\n');
    await expectRefused(['--name', 'x', '--soul-file', blank], `soul file '${blank}' is empty`);
    const big = path.join(dir, 'big.md');
    fs.writeFileSync(big, 'x'.repeat(SOUL_LIMIT + 1));
    await expectRefused(['--name', 'x', '--soul-file', big], `soul file '${big}' is 257 KiB; a soul may be at most 256 KiB`);
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable soul file', async () => {
    const locked = path.join(dir, 'locked.md');
    fs.writeFileSync(locked, '# soul\n', { mode: 0o000 });
    await expectRefused(['--name', 'x', '--soul-file', locked], `cannot read soul file '${locked}': permission denied`);
  });

  it('a soul on standard input that is empty, not UTF-8 or too big', async () => {
    await expectRefused(['--name', 'x', '--soul-file', '-'], 'the soul on standard input is empty', '');
    await expectRefused(['--name', 'x', '--soul-file', '-'], 'the soul on standard input is not valid UTF-8 text', Buffer.from([0xff, 0xfe, 0x41]));
    await expectRefused(['--name', 'x', '--soul-file', '-'], 'the soul on standard input is 257 KiB', 'y'.repeat(SOUL_LIMIT + 1));
  });

  it('the probe sees a request that was sent (so a zero above means something)', async () => {
    const r = await cli(['list']);
    expect(r.exitCode).toBe(0);
    expect(await probe.since()).toEqual({ requests: 1, agents: [] });
  });

  it('--soul-file - with --bot-token-stdin', async () => {
    await expectRefused(['--name', 'x', '--soul-file', '-', '--bot-token-stdin'], '--soul-file - and --bot-token-stdin cannot both read standard input', BOT_TOKEN);
  });

  it('a bad or missing bot token, never echoed', async () => {
    const wrong = '7123456789:short_secret_value';
    const r = await expectRefused(['--name', 'x', '--bot-token-stdin'], 'the bot token on standard input is not a valid Telegram bot token', wrong);
    expect(r.stderr).not.toContain('short_secret_value');
    const spaced = `7123456789:${BOT_SECRET.slice(0, 20)} ${BOT_SECRET.slice(20)}`;
    const s = await expectRefused(['--name', 'x', '--bot-token-stdin', '--debug'], 'not a valid Telegram bot token', spaced);
    expect(s.stderr).not.toContain(BOT_SECRET.slice(0, 20));
    await expectRefused(['--name', 'x', '--bot-token-stdin'], 'no bot token on standard input', '\n');
  });
});
