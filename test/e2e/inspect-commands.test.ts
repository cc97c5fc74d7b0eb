// memory, skills (list/enable/disable), wallet and health: the built binary against a real embedded service.
import { randomUUID } from 'node:crypto';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli as runCliIn, type RunOptions } from '../helpers/cli.js';
import { launchAgent, startTestService, type TestService } from '../helpers/service.js';
import { perTest, stopService } from '../helpers/service-support.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CATALOGUE = [
  'hyperliquid',
  'polymarket',
  'polymarket-deep-research',
  'evm-wallet',
  'solana-wallet',
  'solana-swap',
  'portfolio-tracker',
  'chain-registry',
  'market-intel',
];

const scratch = perTest();
/** runCli with config and data dirs of the test's own, removed after it */
const runCli = (args: string[], opts: Omit<RunOptions, 'configDir' | 'dataDir'>) =>
  runCliIn(args, { ...opts, configDir: scratch.scratch('superagent-config-'), dataDir: scratch.scratch('superagent-data-') });

async function launch(svc: TestService, name: string): Promise<string> {
  return (await launchAgent(svc, { name })).agent_id;
}

async function skillStates(svc: TestService, id: string): Promise<Record<string, boolean>> {
  const r = await svc.call('GET', `/v1/superagents/${id}/skills`);
  expect(r.status).toBe(200);
  return Object.fromEntries(r.json.skills.map((s: { name: string; enabled: boolean }) => [s.name, s.enabled]));
}

describe('memory, skills, wallet, health', () => {
  let svc: TestService;
  let id: string;

  beforeAll(async () => {
    svc = await startTestService();
    id = await launch(svc, 'demo');
  });
  afterAll(async () => {
    await stopService(svc);
  });

  describe('memory <agent>', () => {
    it('prints memory.md byte for byte, including what a chat asked to remember', async () => {
      const chat = await svc.call('POST', `/v1/superagents/${id}/chat`, { body: { message: 'remember that I prefer SOL over ETH' } });
      expect(chat.status, chat.text).toBe(200);
      const files = await svc.call('GET', `/v1/superagents/${id}/files`);
      expect(files.json.memory_md).toMatch(/- \d{4}-\d{2}-\d{2}: I prefer SOL over ETH\n$/);

      const r = await runCli(['memory', 'demo'], { target: svc });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toBe(files.json.memory_md);
      expect(r.stderr).toBe('');
    });

    it('--json prints { agent_id, memory_md }', async () => {
      const files = await svc.call('GET', `/v1/superagents/${id}/files`);
      const r = await runCli(['memory', id.slice(0, 6), '--json'], { target: svc });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ agent_id: id, memory_md: files.json.memory_md });
    });

    it('an unknown agent exits 4', async () => {
      const r = await runCli(['memory', 'nobody'], { target: svc });
      expect(r.exitCode).toBe(4);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain("no agent matches 'nobody'");
    });
  });

  describe('skills <agent>', () => {
    it('piped: one name<TAB>on|off line per skill, in the service order', async () => {
      const states = await skillStates(svc, id);
      const r = await runCli(['skills', 'demo'], { target: svc });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toBe(CATALOGUE.map((n) => `${n}\t${states[n] ? 'on' : 'off'}\n`).join(''));
    });

    it('--json prints the API answer', async () => {
      const api = await svc.call('GET', `/v1/superagents/${id}/skills`);
      const r = await runCli(['skills', 'demo', '--json'], { target: svc });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual(api.json);
    });
  });

  describe('skills enable / disable', () => {
    it('enables several skills in one go and prints their new state', async () => {
      const before = await skillStates(svc, id);
      expect(before.hyperliquid).toBe(false);
      expect(before.polymarket).toBe(false);
      const r = await runCli(['skills', 'enable', 'demo', 'hyperliquid', 'polymarket'], { target: svc });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toBe('hyperliquid\ton\npolymarket\ton\n');
      expect(await skillStates(svc, id)).toEqual({ ...before, hyperliquid: true, polymarket: true });
    });

    it('disables skills, and --json prints the API answer (the full list)', async () => {
      const before = await skillStates(svc, id);
      expect(before['evm-wallet']).toBe(true);
      const r = await runCli(['skills', 'disable', 'demo', 'evm-wallet', 'hyperliquid', '--json'], { target: svc });
      expect(r.exitCode, r.stderr).toBe(0);
      const after = await svc.call('GET', `/v1/superagents/${id}/skills`);
      expect(JSON.parse(r.stdout)).toEqual(after.json);
      expect(await skillStates(svc, id)).toEqual({ ...before, 'evm-wallet': false, hyperliquid: false });
    });

    it('an unknown skill exits 2 naming the valid ones, sends no PUT and changes nothing', async () => {
      const before = await skillStates(svc, id);
      const r = await runCli(['skills', 'enable', 'demo', 'solana-swap', 'moon-shot', '--debug'], { target: svc });
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`Error: unknown skill 'moon-shot' for demo (available: ${CATALOGUE.join(', ')})`);
      expect(r.stderr).toContain('→ GET');
      expect(r.stderr).not.toContain('→ PUT');
      expect(await skillStates(svc, id)).toEqual(before);
    });

    it('no skill named exits 2', async () => {
      const r = await runCli(['skills', 'disable', 'demo'], { target: svc });
      expect(r.exitCode).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain("missing required argument 'skill'");
    });
  });

  describe('wallet <agent>', () => {
    it('piped: evm and solana lines; --json: the API answer', async () => {
      const api = await svc.call('GET', `/v1/superagents/${id}/wallet`);
      const piped = await runCli(['wallet', 'demo'], { target: svc });
      expect(piped.exitCode, piped.stderr).toBe(0);
      expect(piped.stdout).toBe(`evm\t${api.json.evm_address}\nsolana\t${api.json.solana_address}\n`);
      const json = await runCli(['wallet', 'demo', '--json'], { target: svc });
      expect(json.exitCode, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual(api.json);
    });
  });

  describe('health <agent>', () => {
    it('healthy: prints healthy and exits 0; --json prints the answer', async () => {
      const r = await runCli(['health', 'demo'], { target: svc });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toBe('healthy\n');
      expect(r.stderr).toBe('');
      const json = await runCli(['health', 'demo', '--json'], { target: svc });
      expect(json.exitCode, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual({ agent_id: id, healthy: true });
    });

    it('--watch 1 --count 2 piped prints one timestamped line per check', async () => {
      const started = Date.now();
      const r = await runCli(['health', 'demo', '--watch', '1', '--count', '2'], { target: svc });
      expect(r.exitCode, r.stderr).toBe(0);
      const lines = r.stdout.split('\n');
      expect(lines.pop()).toBe('');
      expect(lines).toHaveLength(2);
      for (const line of lines) {
        const [at, word, ...rest] = line.split('\t');
        expect(at).toMatch(ISO);
        expect(word).toBe('healthy');
        expect(rest).toEqual([]);
      }
      // the second check waited for the interval
      expect(Date.parse(lines[1]!.split('\t')[0]!) - Date.parse(lines[0]!.split('\t')[0]!)).toBeGreaterThanOrEqual(900);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    });

    it('--watch --json prints each answer as one JSON line', async () => {
      const r = await runCli(['health', 'demo', '--watch', '1', '--count', '2', '--json'], { target: svc });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).toBe(`${JSON.stringify({ agent_id: id, healthy: true })}\n`.repeat(2));
    });

    it('a failed check during --watch is shown and the watch goes on', async () => {
      const missing = randomUUID();
      const r = await runCli(['health', missing, '--watch', '1', '--count', '2'], { target: svc });
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      for (const line of lines) expect(line).toMatch(/^\S+\terror\tAgent not found$/);
      // the last check failed: its exit code (404 → 4)
      expect(r.exitCode).toBe(4);
    });

    it('--watch 0 and --watch abc exit 2 before any request', async () => {
      for (const value of ['0', 'abc', '0.5']) {
        const r = await runCli(['health', 'demo', '--watch', value, '--debug'], { target: svc });
        expect(r.exitCode).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toContain(`--watch must be a number from 1`);
        expect(r.stderr).toContain(`not '${value}'`);
        expect(r.stderr).not.toContain('→');
      }
    });

    it('Ctrl-C ends --watch with exit 130', async () => {
      const child = execa(process.execPath, [BIN, 'health', 'demo', '--watch', '1'], {
        env: cleanEnv({ target: svc, configDir: scratch.scratch('superagent-config-'), dataDir: scratch.scratch('superagent-data-') }),
        extendEnv: false,
        reject: false,
        timeout: 20_000,
        stripFinalNewline: false,
      });
      await new Promise<void>((resolve) => {
        child.stdout!.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('\thealthy')) resolve();
        });
      });
      child.kill('SIGINT');
      const r = await child;
      // ended by our handler (exit 130), not killed by the signal
      expect(r.isTerminated).toBe(false);
      expect(r.exitCode).toBe(130);
      expect(String(r.stdout)).toMatch(/^\S+\thealthy\n/);
      expect(String(r.stderr)).toBe('');
    });
  });
});

describe('health against an unhealthy agent', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startTestService({ faults: { unhealthy: true } });
    await launch(svc, 'sick');
  });
  afterAll(async () => {
    await stopService(svc);
  });

  it('prints unhealthy and exits 8', async () => {
    const r = await runCli(['health', 'sick'], { target: svc });
    expect(r.exitCode).toBe(8);
    expect(r.stdout).toBe('unhealthy\n');
    expect(r.stderr).toContain('Error: sick is unhealthy');
  });

  it('--json still prints the answer on stdout, and exits 8', async () => {
    const r = await runCli(['health', 'sick', '--json'], { target: svc });
    expect(r.exitCode).toBe(8);
    expect(JSON.parse(r.stdout)).toMatchObject({ healthy: false });
  });

  it('--watch --count 2 exits 8 when the last check was unhealthy', async () => {
    const r = await runCli(['health', 'sick', '--watch', '1', '--count', '2'], { target: svc });
    expect(r.exitCode).toBe(8);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.map((l) => l.split('\t')[1])).toEqual(['unhealthy', 'unhealthy']);
  });
});
