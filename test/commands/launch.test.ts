// `superagent launch` through the commands layer (docs/cli.md; docs/api.md, Rules the client follows):
// the real parser, Context and exit-code map in this process, against an embedded service on loopback.
// Bad input must exit 2 before any request.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MemoryConfig, cliFor } from '../helpers/context.js';
import { perTest, stopService } from '../helpers/service-support.js';
import { startTestService, tempDir, type TestService } from '../helpers/service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BOT_TOKEN = '7123456789:AAHk3_x-ZyQw9vLmN0pRsTuVwXyZaBcDeFg';
const BOT_SECRET = BOT_TOKEN.split(':')[1]!;
const SOUL_LIMIT = 256 * 1024;

let service: TestService;
const scratch = perTest();
const cli = cliFor(() => service);

beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await stopService(service);
});
beforeEach(() => {
  service.exchanges.splice(0);
});

/** What the CLI sent to launch, and what it got back (the record itself has no provider or bot). */
function launchOf(id: string): { sent: any; answer: any } {
  const found = service.exchanges.filter(
    (e) =>
      e.method === 'POST' &&
      e.path === '/v1/superagents' &&
      e.status === 200 &&
      JSON.parse(e.responseBody).agent_id === id,
  );
  expect(found).toHaveLength(1);
  return { sent: JSON.parse(found[0]!.requestBody!), answer: JSON.parse(found[0]!.responseBody) };
}

async function record(id: string) {
  const r = await service.call('GET', `/v1/superagents/${id}`);
  expect(r.status).toBe(200);
  return r.json;
}

async function soulOf(id: string): Promise<string> {
  return (await service.call('GET', `/v1/superagents/${id}/files`)).json.soul_md;
}

async function destroy(...ids: string[]): Promise<void> {
  for (const id of ids) await service.call('DELETE', `/v1/superagents/${id}`); // stay under the 10-agent limit
}

/** Launches (piped) and returns the new id. */
async function launched(args: string[], input?: string | Buffer): Promise<string> {
  const r = await cli(['launch', ...args], { input });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
  return r.stdout.trim();
}

describe('launch: success', () => {
  it('piped, prints exactly the new agent id and a newline, with the default model and provider', async () => {
    const r = await cli(['launch', '--name', '  scout  ']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const id = r.stdout.trim();
    expect(r.stdout).toBe(`${id}\n`);
    expect(id).toMatch(UUID);
    expect(await record(id)).toMatchObject({
      agent_id: id,
      name: 'scout',
      status: 'running',
      model: 'claude-sonnet-4-20250514',
    });
    const { sent, answer } = launchOf(id);
    expect(sent).toEqual({ name: 'scout', model: 'claude-sonnet-4-20250514', model_provider: 'anthropic' });
    expect(answer.bot_username).toBeNull();
    await destroy(id);
  });

  it('on a terminal: the fields of the answer, and a hint on stderr', async () => {
    const r = await cli(['launch', '--name', 'tty-agent', '--model', 'gpt-4o'], {
      tty: { stdout: true, stderr: true },
    });
    expect(r.code).toBe(0);
    const fields = Object.fromEntries(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split(/:\s+/)),
    );
    expect(fields).toMatchObject({ Name: 'tty-agent', Status: 'running', Bot: 'none' });
    expect(fields.ID).toMatch(UUID);
    expect(fields.Wallet).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(r.stderr).toContain('✓ Launched tty-agent');
    expect(r.stderr).toContain('Chat with it: superagent chat tty-agent');
    await destroy(fields.ID!);
  });

  it('--json prints the API answer', async () => {
    const r = await cli(['launch', '--name', 'json-agent', '--description', 'BTC swing trader', '--json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    const body = JSON.parse(r.stdout);
    expect(Object.keys(body).sort()).toEqual(['agent_id', 'bot_username', 'name', 'status', 'wallet_address']);
    expect(body).toMatchObject({ name: 'json-agent', status: 'running', bot_username: null });
    expect(body.wallet_address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect((await record(body.agent_id)).description).toBe('BTC swing trader');
    await destroy(body.agent_id);
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
    await destroy(id);
  });

  it(
    '--provider alone gets that provider’s house model; ' + '--provider wins over inference, with one warning line',
    async () => {
      const venice = await launched(['--name', 'v', '--provider', 'venice']);
      expect(launchOf(venice).sent).toMatchObject({ model: 'llama-3.3-70b', model_provider: 'venice' });
      const r = await cli(['launch', '--name', 'r', '--model', 'gpt-4o', '--provider', 'openrouter']);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe("! OpenRouter model ids name their vendor ('openai/gpt-4o'); sending 'gpt-4o' as asked\n");
      const routed = r.stdout.trim();
      expect(launchOf(routed).sent).toMatchObject({ model: 'gpt-4o', model_provider: 'openrouter' });
      await destroy(venice, routed);
    },
  );

  it('the profile’s model and provider settings are used when no flag is given', async () => {
    const config = new MemoryConfig({ profiles: { default: { model: 'grok-4', provider: 'xai' } } });
    const r = await cli(['launch', '--name', 'from-profile'], { config });
    expect(r.code).toBe(0);
    expect(launchOf(r.stdout.trim()).sent).toMatchObject({ model: 'grok-4', model_provider: 'xai' });
    await destroy(r.stdout.trim());
  });

  it('--soul-file PATH uploads the file as it is', async () => {
    const file = path.join(scratch.scratch(), 'soul.md');
    const soul = '# Soul of Ünïcode\n\nTrade 🚀 carefully.\n';
    fs.writeFileSync(file, soul);
    const id = await launched(['--name', 'souled', '--soul-file', file]);
    expect(await soulOf(id)).toBe(soul);
    await destroy(id);
  });

  it('--soul-file - reads the soul from standard input; exactly 256 KiB is accepted', async () => {
    const soul = '# Piped\n' + 'x'.repeat(SOUL_LIMIT - '# Piped\n'.length);
    const id = await launched(['--name', 'piped', '--soul-file', '-'], soul);
    expect(await soulOf(id)).toBe(soul);
    await destroy(id);
  });

  it('--bot-token-stdin sets the bot; the token never appears in any output, --debug included', async () => {
    const r = await cli(['launch', '--name', 'botty', '--bot-token-stdin', '--debug'], { input: `  ${BOT_TOKEN}\n` });
    expect(r.code).toBe(0);
    const id = r.stdout.trim();
    expect(r.stdout).toBe(`${id}\n`);
    expect(r.stderr).toContain('POST'); // the trace is there…
    expect(r.stderr).toContain('7123456789:…'); // …with the token masked
    for (const text of [r.stdout, r.stderr]) expect(text).not.toContain(BOT_SECRET);
    expect(launchOf(id).sent.telegram_bot_token).toBe(BOT_TOKEN);
    expect(launchOf(id).answer.bot_username).toBe('botty_bot');
    await destroy(id);
  });
});

describe('launch on a terminal asks for what is missing', () => {
  const tty = { tty: true } as const;

  it('the name, then the provider and model (the defaults offered)', async () => {
    const r = await cli(['launch'], { ...tty, answers: ['asked', 'openai', ''] });
    expect(r.code, r.stderr).toBe(0);
    expect(r.asked).toEqual(['Name', 'Provider', 'Model']);
    const id = /ID:\s+(\S+)/.exec(r.stdout)![1]!;
    expect(launchOf(id).sent).toMatchObject({ name: 'asked', model: 'gpt-4o', model_provider: 'openai' });
    await destroy(id);
  });

  it.each([
    ['--yes', ['launch', '--yes'], ['Name']],
    ["--name (the README's first command)", ['launch', '--name', 'quick'], []],
  ])('%s takes the default model and provider without asking for them', async (_, argv, asked) => {
    const r = await cli(argv, { ...tty, answers: asked.length ? ['quick'] : [] });
    expect(r.code, r.stderr).toBe(0);
    expect(r.asked).toEqual(asked);
    const id = /ID:\s+(\S+)/.exec(r.stdout)![1]!;
    expect(launchOf(id).sent).toMatchObject({
      name: 'quick',
      model: 'claude-sonnet-4-20250514',
      model_provider: 'anthropic',
    });
    await destroy(id);
  });

  it('a model whose provider cannot be told: the provider is asked for', async () => {
    const r = await cli(['launch', '--name', 'vv', '--model', 'llama-3.3-70b'], { ...tty, answers: ['venice'] });
    expect(r.code, r.stderr).toBe(0);
    expect(r.asked).toEqual(['Provider of llama-3.3-70b']);
    await destroy(/ID:\s+(\S+)/.exec(r.stdout)![1]!);
  });

  it('Ctrl-C at a prompt: exit 130, nothing sent', async () => {
    const { InterruptedError } = await import('../../src/core/errors.js');
    const r = await cli(['launch'], { ...tty, answers: [new InterruptedError()] });
    expect(r.code).toBe(130);
    // only the look at the agent limit, before the first question: nothing launched
    expect(service.cliRequests().map((q) => q.method)).toEqual(['GET']);
  });
});

describe('launch: bad input exits 2 and sends nothing', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir('superagent-souls-');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function expectRefused(
    args: string[],
    message: string | RegExp,
    input?: string | Buffer,
    env?: Record<string, string | undefined>,
  ) {
    const r = await cli(['launch', ...args], { input, env });
    expect(r.stdout).toBe('');
    if (typeof message === 'string') expect(r.stderr).toContain(message);
    else expect(r.stderr).toMatch(message);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.code).toBe(2);
    expect(service.cliRequests()).toEqual([]);
    return r;
  }

  it('a missing --name without a terminal names the flag', async () => {
    await expectRefused([], 'Error: --name is required when not running interactively');
    await expectRefused(['--model', 'gpt-4o'], '--name is required');
    await expectRefused(['--no-input'], '--name is required');
    await expectRefused([], '--name is required', undefined, { CI: 'true' });
  });

  it('--name without a value, empty, blank or over 100 characters', async () => {
    await expectRefused(['--name'], 'Error: --name needs a value (e.g. --name <name>)');
    await expectRefused(['--name', '--quiet'], '--name needs a value');
    await expectRefused(['--name', ''], '--name: the name must not be empty');
    await expectRefused(['--name', '   '], '--name: the name must not be empty');
    await expectRefused(['--name', 'n'.repeat(101)], '--name: the name must be at most 100 characters (it has 101)');
  });

  it('a description over 500 characters', async () => {
    await expectRefused(
      ['--name', 'x', '--description', 'd'.repeat(501)],
      '--description must be at most 500 characters (it has 501)',
    );
  });

  it('an unknown --provider lists the five', async () => {
    await expectRefused(
      ['--name', 'x', '--provider', 'mistral'],
      "--provider must be one of: openai, anthropic, xai, openrouter, venice; not 'mistral'",
    );
    await expectRefused(['--name', 'x', '--provider', 'openia'], "(did you mean 'openai'?)");
  });

  it('an unknown option, with the nearest one suggested', async () => {
    await expectRefused(['--name', 'x', '--modle', 'gpt-4o'], "unknown option '--modle' (did you mean '--model'?)");
  });

  it('a --model whose provider cannot be told asks for --provider', async () => {
    const r = await expectRefused(
      ['--name', 'x', '--model', 'llama-3.3-70b'],
      "cannot tell which provider serves model 'llama-3.3-70b'",
    );
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
    await expectRefused(
      ['--name', 'x', '--soul-file', big],
      `soul file '${big}' is 257 KiB; a soul may be at most 256 KiB`,
    );
  });

  it.skipIf(process.getuid?.() === 0)('an unreadable soul file', async () => {
    const locked = path.join(dir, 'locked.md');
    fs.writeFileSync(locked, '# soul\n', { mode: 0o000 });
    await expectRefused(['--name', 'x', '--soul-file', locked], `cannot read soul file '${locked}': permission denied`);
  });

  it('a soul on standard input that is empty, not UTF-8 or too big', async () => {
    await expectRefused(['--name', 'x', '--soul-file', '-'], 'the soul on standard input is empty', '');
    await expectRefused(
      ['--name', 'x', '--soul-file', '-'],
      'the soul on standard input is not valid UTF-8 text',
      Buffer.from([0xff, 0xfe, 0x41]),
    );
    await expectRefused(
      ['--name', 'x', '--soul-file', '-'],
      'the soul on standard input is over 256 KiB',
      'y'.repeat(SOUL_LIMIT + 1),
    );
  });

  it.skipIf(!fs.existsSync('/dev/zero'))(
    'a soul file that never ends (/dev/zero) is read no further than the limit, then refused',
    async () => {
      await expectRefused(
        ['--name', 'x', '--soul-file', '/dev/zero'],
        "soul file '/dev/zero' is over 256 KiB; a soul may be at most 256 KiB",
      );
    },
  );

  it('--soul-file - with --bot-token-stdin', async () => {
    await expectRefused(
      ['--name', 'x', '--soul-file', '-', '--bot-token-stdin'],
      '--soul-file - and --bot-token-stdin cannot both read standard input',
      BOT_TOKEN,
    );
  });

  it('a bad or missing bot token, never echoed', async () => {
    const wrong = '7123456789:short_secret_value';
    const r = await expectRefused(
      ['--name', 'x', '--bot-token-stdin'],
      'the bot token on standard input is not a valid Telegram bot token',
      wrong,
    );
    expect(r.stderr).not.toContain('short_secret_value');
    const spaced = `7123456789:${BOT_SECRET.slice(0, 20)} ${BOT_SECRET.slice(20)}`;
    const s = await expectRefused(
      ['--name', 'x', '--bot-token-stdin', '--debug'],
      'not a valid Telegram bot token',
      spaced,
    );
    expect(s.stderr).not.toContain(BOT_SECRET.slice(0, 20));
    await expectRefused(['--name', 'x', '--bot-token-stdin'], 'no bot token on standard input', '\n');
  });

  it('a bot token over 4 KiB on stdin: refused as too long, never echoed', async () => {
    const long = `${BOT_TOKEN}${'x'.repeat(4096)}`;
    const over = 'the bot token on standard input is over 4 KiB';
    const r = await expectRefused(['--name', 'x', '--bot-token-stdin'], over, long);
    expect(r.stderr).not.toContain(BOT_SECRET.slice(0, 20));
  });

  it('the service sees a request that was sent (so an empty list above means something)', async () => {
    expect((await cli(['list'])).code).toBe(0);
    expect(service.cliRequests()).toEqual([{ method: 'GET', path: '/v1/superagents', body: undefined }]);
  });
});
