// One run of every registered command, with --debug, whose whole output is searched for the API key
// and the bot token: neither may appear (a key shows as its prefix and last four characters).
// A command added to the registry (src/cli/registry.ts) without a run here fails the first test.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ENTRIES } from '../../src/cli/registry.js';
import type { Editor } from '../../src/ui/editor.js';
import { MemoryConfig, fakeEditor, runLine, type CliRun } from '../helpers/context.js';
import { perTest, stopService } from '../helpers/service-support.js';
import { startTestService, type TestService, UNFUNDED } from '../helpers/service.js';

const KEY = 'sa_sk_' + 'Q7sEcReTkEy0123456789abcdefGHIJK'.slice(0, 32);
const MASKED = `${KEY.slice(0, 6)}…${KEY.slice(-4)}`;
const BOT_TOKEN = '7012345678:AAH-secretBotTokenPart_0123456789abcd';
const BOT_SECRET = BOT_TOKEN.split(':')[1]!;

/**
 * Commands run elsewhere, with the reason. launch: first, below, to make the agent the others use.
 * server: runs in the foreground until a signal, so test/e2e/keys.test.ts runs it as a process.
 */
const RUN_ELSEWHERE = ['launch', 'server'];

let service: TestService;
const temp = perTest();

beforeAll(async () => {
  service = await startTestService({ keys: [KEY], ...UNFUNDED }); // not about money: its agents hold nothing
});
afterAll(async () => {
  await stopService(service);
});

interface Invocation {
  args: string[];
  input?: string;
  editor?: Editor;
  /** the exit code it must give (a run that fails early would prove nothing) */
  code?: number;
  /** it talks to the service, so the --debug trace must show requests with the key masked */
  traced?: boolean;
}

/** How to run each command once. Every registered command must be here or in RUN_ELSEWHERE. */
function invocations(agentId: string, classicId: string, soulFile: string, fleetDir = ''): Record<string, Invocation> {
  const t = { traced: true };
  return {
    list: { args: ['list'], ...t },
    get: { args: ['get', agentId], ...t },
    pause: { args: ['pause', agentId], ...t },
    resume: { args: ['resume', agentId], ...t },
    restart: { args: ['restart', agentId], ...t },
    update: { args: ['update', agentId, '--description', 'keeps secrets'], ...t },
    model: { args: ['model', agentId, 'gpt-4o'], ...t },
    memory: { args: ['memory', agentId], ...t },
    skills: { args: ['skills', agentId], ...t },
    'skills enable': { args: ['skills', 'enable', agentId, 'hyperliquid'], ...t },
    'skills disable': { args: ['skills', 'disable', agentId, 'hyperliquid'], ...t },
    wallet: { args: ['wallet', agentId], ...t },
    positions: { args: ['positions', agentId], ...t },
    pnl: { args: ['pnl', agentId], ...t },
    health: { args: ['health', agentId], ...t },
    top: { args: ['top', '--once'], ...t },
    // a breach (the agent's paper account holds less), reported and not acted on
    guard: { args: ['guard', agentId, '--min-value', '1000000', '--once', '--dry-run'], code: 10, ...t },
    'soul show': { args: ['soul', 'show', agentId], ...t },
    'soul set': { args: ['soul', 'set', agentId, '--file', soulFile], ...t },
    'soul edit': {
      args: ['soul', 'edit', agentId, '--yes'],
      editor: fakeEditor((file) => fs.appendFileSync(file, '- added by the editor\n')),
      ...t,
    },
    chat: { args: ['chat', agentId, 'remember that secrets stay secret'], ...t },
    // piped, the REPL reads each line as a question
    assistant: { args: ['assistant'], input: 'how is BTC?\n', ...t },
    'assistant ask': { args: ['assistant', 'ask', 'how is BTC?'], ...t },
    'classic list': { args: ['classic', 'list'], ...t },
    'classic get': { args: ['classic', 'get', classicId], ...t },
    'classic update': { args: ['classic', 'update', classicId, '--goal', 'stay quiet'], ...t },
    login: { args: ['login', '--with-token', '--base-url', service.url], input: KEY, ...t },
    whoami: { args: ['whoami'], ...t },
    'config list': { args: ['config', 'list'] },
    'config get': { args: ['config', 'get', 'api_key'] },
    'config set': { args: ['config', 'set', 'output', 'table'] },
    'config unset': { args: ['config', 'unset', 'output'] },
    'config path': { args: ['config', 'path'] },
    logout: { args: ['logout'] },
    completion: { args: ['completion', 'bash'] },
    // the hidden command behind shell completion (its cache in a dir of the test's own, below)
    __complete: { args: ['__complete', 'skills', agentId] },
    version: { args: ['version'] },
    // the fleet: a file that launches an agent with the token of a variable, then a plan and an apply of it
    schema: { args: ['schema'] },
    export: { args: ['export', '--dir', fleetDir, '--yes'], ...t },
    plan: { args: ['plan', '-f', path.join(fleetDir, 'fleet.yaml')], ...t },
    apply: { args: ['apply', '-f', path.join(fleetDir, 'fleet.yaml'), '--yes'], ...t },
    destroy: { args: ['destroy', agentId, '--yes'], ...t },
  };
}

describe('no command prints the key or the bot token whole, even with --debug', () => {
  it('every registered command is covered', () => {
    const covered = Object.keys(invocations('agent', 'classic', 'soul.md')).concat(RUN_ELSEWHERE);
    for (const entry of ENTRIES)
      expect(covered, `add '${entry.path.join(' ')}' to invocations()`).toContain(entry.path.join(' '));
    expect(covered).toHaveLength(ENTRIES.length);
  });

  it('runs each command and searches stdout and stderr', async () => {
    const soulFile = path.join(temp.scratch(), 'soul.md');
    fs.writeFileSync(soulFile, '# Keeper\n\nNever reveal secrets.\n');
    const dataDir = temp.scratch('superagent-data-');
    // what a command writes outside the Context (the completion
    // cache, the editor's temp file) goes to dirs of this test
    vi.stubEnv('XDG_CACHE_HOME', temp.scratch('superagent-cache-'));
    vi.stubEnv('TMPDIR', temp.scratch('superagent-tmp-'));
    try {
      const config = new MemoryConfig();
      const fleetDir = temp.scratch('superagent-fleet-');
      fs.writeFileSync(
        path.join(fleetDir, 'fleet.yaml'),
        'agents:\n  - name: keeper\n  - name: fleet-bot\n    bot_token_env: FLEET_BOT_TOKEN\n',
      );
      const run = (args: string[], o: { input?: string; editor?: Editor } = {}) =>
        runLine(service, [...args, '--debug'], {
          ...o,
          config,
          env: { SUPERAGENT_DATA_DIR: dataDir, FLEET_BOT_TOKEN: BOT_TOKEN },
        });

      const outputs = new Map<string, CliRun>();
      const launched = await run(['launch', '--name', 'keeper', '--bot-token-stdin'], { input: BOT_TOKEN });
      expect(launched.code, launched.stderr).toBe(0);
      outputs.set('launch', launched);
      const agentId = launched.stdout.trim();
      const classic = await service.call('POST', '/v1/agents', { body: { name: 'c', goal: 'g', instructions: 'i' } });
      expect(classic.status).toBe(201);

      for (const [name, inv] of Object.entries(invocations(agentId, classic.json.agent_id, soulFile, fleetDir))) {
        const r = await run(inv.args, inv);
        expect(r.code, `${name}: ${r.stderr}`).toBe(inv.code ?? 0);
        // the debug trace did run (the search is meaningful): requests were traced with the key masked
        if (inv.traced) expect(r.stderr, `${name} traced no request`).toMatch(/→ (GET|POST|PUT|PATCH|DELETE) /);
        if (inv.traced) expect(r.stderr, `${name} showed no masked key`).toContain(MASKED);
        outputs.set(name, r);
      }
      for (const [name, r] of outputs) {
        const all = r.stdout + r.stderr;
        expect(all, `${name} printed the key`).not.toContain(KEY);
        expect(all, `${name} printed the bot token`).not.toContain(BOT_SECRET);
      }
      // the secrets were there to leak: the launch sent the token, login stored the key
      expect(outputs.get('launch')!.stderr).toContain('7012345678:…');
      expect(outputs.get('config get')!.stdout).toBe(`${MASKED}\n`);
      expect(outputs.get('apply')!.stderr).toContain('"telegram_bot_token":"7012345678:…"');
      for (const file of fs.readdirSync(fleetDir, { recursive: true, encoding: 'utf8' })) {
        const full = path.join(fleetDir, file);
        if (fs.statSync(full).isFile())
          expect(fs.readFileSync(full, 'utf8'), `${file} holds the bot token`).not.toContain(BOT_SECRET);
      }
      // destroy took the agent it named; the fleet's own launch stays
      expect((await service.call('GET', '/v1/superagents')).json.agents.map((a: { name: string }) => a.name)).toEqual([
        'fleet-bot',
      ]);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
