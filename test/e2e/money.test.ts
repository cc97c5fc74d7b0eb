// wallet, positions and pnl as a user runs them: the built binary, nothing configured (the embedded
// service in its own process), the chain sources on (its simulation, on loopback). The shapes a script
// reads, piped and --json, and the exit codes; the rest is test/commands (wallet-balances, positions-pnl).
import { beforeAll, describe, expect, it } from 'vitest';
import { removeAfterFile } from '../helpers/after-file.js';
import { runCli, SOURCES_ON } from '../helpers/cli.js';
import { tempDir } from '../helpers/service.js';
import { ISO_UTC, UUID } from '../helpers/superagent-fixtures.js';

/** One data dir for the file: the agent `demo`, launched once, with its paper balance. */
let dirs: { dataDir: string; configDir: string };
let demo: string;
const money = (args: string[], env: Record<string, string | undefined> = {}) =>
  runCli(args, { ...dirs, env: { ...SOURCES_ON, ...env } });
const rows = (stdout: string) =>
  stdout
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => l.split('\t'));

beforeAll(async () => {
  dirs = {
    dataDir: removeAfterFile(tempDir('superagent-data-')),
    configDir: removeAfterFile(tempDir('superagent-config-')),
  };
  const launched = await runCli(['launch', '--name', 'demo'], dirs);
  expect(launched.exitCode, launched.stderr).toBe(0);
  demo = launched.stdout.trim();
  expect(demo).toMatch(UUID);
});

describe('the money view on the embedded service, as a script reads it', () => {
  it('wallet: the two addresses, then chain, asset, amount, usd rows; --json the same holdings', async () => {
    const piped = await money(['wallet', 'demo']);
    expect([piped.exitCode, piped.stderr]).toEqual([0, '']);
    const [evm, solana, ...held] = rows(piped.stdout);
    expect(evm).toEqual(['evm', expect.stringMatching(/^0x[0-9a-fA-F]{40}$/)]);
    expect(solana).toEqual(['solana', expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)]);
    expect(held).toEqual([['hyperliquid', 'account value', '10000.00', '10000.00']]);
    const json = await money(['wallet', 'demo', '--json']);
    expect(json.exitCode).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      agent_id: demo,
      evm_address: evm![1],
      solana_address: solana![1],
      balances: [{ chain: 'hyperliquid', asset: 'account value', amount: '10000.00', usd: 10000 }],
      total_usd: 10000,
      errors: [],
      switched_off: [],
    });
  });

  it('wallet: a source that cannot be read is named, the rest printed, exit 7', async () => {
    const r = await money(['wallet', 'demo', '--json'], { SUPERAGENT_RPC_BASE: 'http://127.0.0.1:1' });
    expect(r.exitCode).toBe(7);
    const out = JSON.parse(r.stdout);
    expect(out.total_usd).toBe(10000);
    expect(out.errors).toEqual([{ source: 'base', message: expect.stringContaining('127.0.0.1') }]);
    expect(r.stderr).toMatch(/base could not be read/);
  });

  it('positions: the account row first; --json both sources; a source switched off said, exit 0', async () => {
    const piped = await money(['positions', 'demo']);
    expect([piped.exitCode, piped.stderr]).toEqual([0, '']);
    expect(rows(piped.stdout)).toEqual([['account', '10000.00', '10000.00']]);
    const json = await money(['positions', 'demo', '--json']);
    expect(json.exitCode).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      agent_id: demo,
      hyperliquid: { account_value: 10000, withdrawable: 10000, positions: [], open_orders: [], spot: [] },
      polymarket: { positions: [], value: 0 },
      errors: [],
      switched_off: [],
    });
    const off = await money(['positions', 'demo'], { SUPERAGENT_POLYMARKET_URL: 'off' });
    expect([off.exitCode, off.stderr]).toEqual([
      0,
      '! not read, switched off: polymarket (what is shown leaves it out)\n',
    ]);
  });

  it('pnl: time, account value, pnl rows; --json the points; an unknown agent exits 4', async () => {
    const piped = await money(['pnl', 'demo']);
    expect([piped.exitCode, piped.stderr]).toEqual([0, '']);
    const points = rows(piped.stdout);
    expect(points.length).toBeGreaterThan(0);
    for (const p of points) expect(p).toEqual([expect.stringMatching(ISO_UTC), '10000.00', '0.00']);
    const json = await money(['pnl', 'demo', '--json']);
    expect(json.exitCode).toBe(0);
    const out = JSON.parse(json.stdout);
    expect(out).toMatchObject({ agent_id: demo, period: 'week', change_usd: 0 });
    for (const p of out.points)
      expect(p).toEqual({ time: expect.stringMatching(ISO_UTC), account_value: 10000, pnl: 0 });
    const unknown = await money(['pnl', 'nobody']);
    expect([unknown.exitCode, unknown.stdout]).toEqual([4, '']);
  });
});
