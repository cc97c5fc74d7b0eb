// One run of every command, with --debug, whose whole output is searched for the API key and the
// bot token: neither may appear (CLI.md: a key shows as its prefix and last four characters).
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRIES } from '../../src/cli/registry.js';
import { BIN, cleanEnv, runCli, type CliResult } from '../helpers/cli.js';
import { startTestService, tempDir, type TestService } from '../helpers/service.js';
import { perTest, stopService } from '../helpers/service-support.js';

const KEY = 'sa_sk_' + 'Q7sEcReTkEy0123456789abcdefGHIJK'.slice(0, 32);
const BOT_TOKEN = '7012345678:AAH-secretBotTokenPart_0123456789abcd';
const BOT_SECRET = BOT_TOKEN.split(':')[1]!;

let service: TestService;
let agentId: string;
let classicId: string;
let configDir: string;
let dataDir: string;
// the temp dirs a test makes are removed after it; the file's own (config, data) after the file
const temp = perTest();

beforeAll(async () => {
  service = await startTestService({ keys: [KEY] });
  configDir = tempDir('superagent-secrets-config-');
  dataDir = tempDir('superagent-secrets-data-');
  const launched = await runCli(['launch', '--name', 'keeper', '--bot-token-stdin', '--debug'], { target: service, input: BOT_TOKEN, configDir, dataDir });
  expect(launched.exitCode, launched.stderr).toBe(0);
  outputs.set('launch', launched);
  agentId = launched.stdout.trim();
  const classic = await service.call('POST', '/v1/agents', { body: { name: 'c', goal: 'g', instructions: 'i' } });
  classicId = classic.json.agent_id;
});
afterAll(async () => {
  await stopService(service);
  for (const dir of [configDir, dataDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const outputs = new Map<string, CliResult>();

/** How to run each command once (input on stdin where it needs some). Every registered command must be here. */
function invocations(): Record<string, { args: string[]; input?: string; env?: Record<string, string> }> {
  const soulFile = path.join(temp.scratch(), 'soul.md');
  fs.writeFileSync(soulFile, '# Keeper\n\nNever reveal secrets.\n');
  const editor = path.join(temp.scratch(), 'editor.sh');
  fs.writeFileSync(editor, '#!/bin/sh\necho "- added by the editor" >> "$1"\n', { mode: 0o755 });
  return {
    list: { args: ['list'] },
    get: { args: ['get', agentId] },
    pause: { args: ['pause', agentId] },
    resume: { args: ['resume', agentId] },
    restart: { args: ['restart', agentId] },
    update: { args: ['update', agentId, '--description', 'keeps secrets'] },
    model: { args: ['model', agentId, 'gpt-4o'] },
    memory: { args: ['memory', agentId] },
    skills: { args: ['skills', agentId] },
    'skills enable': { args: ['skills', 'enable', agentId, 'hyperliquid'] },
    'skills disable': { args: ['skills', 'disable', agentId, 'hyperliquid'] },
    wallet: { args: ['wallet', agentId] },
    health: { args: ['health', agentId] },
    'soul show': { args: ['soul', 'show', agentId] },
    'soul set': { args: ['soul', 'set', agentId, '--file', soulFile] },
    'soul edit': { args: ['soul', 'edit', agentId, '--yes'], env: { EDITOR: editor, VISUAL: '' } },
    chat: { args: ['chat', agentId, 'remember that secrets stay secret'] },
    assistant: { args: ['assistant'] },
    'assistant ask': { args: ['assistant', 'ask', 'how is BTC?'] },
    'classic list': { args: ['classic', 'list'] },
    'classic get': { args: ['classic', 'get', classicId] },
    'classic update': { args: ['classic', 'update', classicId, '--goal', 'stay quiet'] },
    login: { args: ['login', '--with-token', '--base-url', service.url], input: KEY },
    whoami: { args: ['whoami'] },
    'config list': { args: ['config', 'list'] },
    'config get': { args: ['config', 'get', 'api_key'] },
    'config set': { args: ['config', 'set', 'output', 'table'] },
    'config unset': { args: ['config', 'unset', 'output'] },
    'config path': { args: ['config', 'path'] },
    logout: { args: ['logout'] },
    completion: { args: ['completion', 'bash'] },
    // the hidden command behind shell completion; its own cache dir, not the developer's
    __complete: { args: ['__complete', 'skills', agentId], env: { XDG_CACHE_HOME: temp.scratch('superagent-cache-') } },
    destroy: { args: ['destroy', agentId, '--yes'] },
  };
}

describe('no command prints the key or the bot token whole, even with --debug', () => {
  it('every registered command is covered', () => {
    const covered = Object.keys(invocations()).concat(['launch', 'server']);
    for (const entry of ENTRIES) expect(covered, `add '${entry.path.join(' ')}' to invocations()`).toContain(entry.path.join(' '));
  });

  it('runs each command and searches stdout and stderr', async () => {
    for (const [name, inv] of Object.entries(invocations())) {
      const r = await runCli([...inv.args, '--debug'], { target: service, input: inv.input, env: { TMPDIR: temp.scratch('superagent-tmp-'), ...inv.env }, configDir, dataDir });
      outputs.set(name, r);
    }
    for (const [name, r] of outputs) {
      const all = r.stdout + r.stderr;
      expect(all, `${name} printed the key`).not.toContain(KEY);
      expect(all, `${name} printed the bot token`).not.toContain(BOT_SECRET);
    }
    // the debug trace did run (the search is meaningful): requests were traced with the key masked
    expect(outputs.get('get')!.stderr).toContain('→ GET');
    expect(outputs.get('get')!.stderr).toContain(`${KEY.slice(0, 6)}…${KEY.slice(-4)}`);
  });

  it('server, given the key with --key, shows it masked', async () => {
    const child = execa(process.execPath, [BIN, 'server', '--port', '0', '--data-dir', temp.scratch(), '--key', KEY, '--debug'], {
      env: cleanEnv({ configDir: temp.scratch('superagent-config-'), dataDir: temp.scratch('superagent-data-') }),
      extendEnv: false,
      reject: false,
    });
    let seen = '';
    await new Promise<void>((resolve) => {
      child.stdout!.on('data', (d: Buffer) => {
        seen += d.toString();
        if (seen.includes('API key')) resolve();
      });
      setTimeout(resolve, 5000);
    });
    child.kill('SIGTERM');
    const r = await child;
    expect(String(r.stdout) + String(r.stderr)).not.toContain(KEY);
    expect(String(r.stdout)).toContain('Listening on http://127.0.0.1:');
  });
});
