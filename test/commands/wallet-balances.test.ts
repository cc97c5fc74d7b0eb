// `superagent wallet <agent>` with balances, against the embedded service's simulation of the chains:
// the addresses, a row per chain and asset valued in dollars, the total; a source switched off or
// failing named, the rest printed, exit 7.
import { describe, expect, it } from 'vitest';
import { cliFor, MemoryConfig, SOURCES_OFF } from '../helpers/context.js';
import { launchAgent, type TestService } from '../helpers/service.js';
import { perTest } from '../helpers/service-support.js';
import { closedPortUrl, fakeClock, hlInfo } from '../helpers/sim.js';

const t = perTest();

async function withAgent() {
  const svc = await t.service({ simClock: fakeClock().now });
  const agent = await launchAgent(svc, { name: 'holder' });
  const cli = cliFor(() => svc);
  return { svc, agent, cli };
}

/** Whether the command read a simulated source whose path starts so. */
const read = (svc: TestService, prefix: string) => svc.exchanges.some((e) => e.path.startsWith(prefix));

const ethMid = async (svc: TestService) => Number((await hlInfo(svc, 'allMids')).ETH);

describe('wallet with balances', () => {
  it('a fresh agent on the embedded service: a 10,000 account value on Hyperliquid, and that total', async () => {
    const { svc, agent, cli } = await withAgent();
    const r = await cli('wallet holder --json');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual([
      'agent_id',
      'evm_address',
      'solana_address',
      'balances',
      'total_usd',
      'errors',
      'switched_off',
    ]);
    expect(out.agent_id).toBe(agent.agent_id);
    expect(out.evm_address).toBe(agent.wallet_address);
    expect(out.balances).toEqual([{ chain: 'hyperliquid', asset: 'account value', amount: '10000.00', usd: 10000 }]);
    expect(out.total_usd).toBe(10000);
    expect(out.errors).toEqual([]);
    expect(read(svc, '/sim/evm/base') && read(svc, '/sim/solana') && read(svc, '/sim/polymarket/')).toBe(true);
  });

  it('on a terminal: the addresses, a table, the total', async () => {
    const { cli } = await withAgent();
    const r = await cli('wallet holder', { tty: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/EVM:\s+0x[0-9a-fA-F]{40}\n/);
    expect(r.stdout).toMatch(/hyperliquid\s*│?\s*account value\s*│?\s*10000\.00\s*│?\s*\$10,000\.00/);
    expect(r.stdout).toContain('Total:  $10,000.00\n');
  });

  it('a seeded ETH balance is valued at the simulation’s ETH mid; piped, TSV rows of plain numbers', async () => {
    const { svc, agent, cli } = await withAgent();
    await svc.seedHoldings(agent.wallet_address, { chain: 'ethereum', asset: 'ETH', amount: '0.5' });
    const mid = await ethMid(svc);
    const r = await cli('wallet holder');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^evm\t0x/);
    expect(lines[1]).toMatch(/^solana\t/);
    const usd = (Math.round(mid * 50) / 100).toFixed(2);
    expect(lines.slice(2)).toEqual([`ethereum\tETH\t0.5\t${usd}`, 'hyperliquid\taccount value\t10000.00\t10000.00']);
    const json = JSON.parse((await cli('wallet holder --json')).stdout);
    expect(json.balances[0]).toEqual({
      chain: 'ethereum',
      asset: 'ETH',
      amount: '0.5',
      usd: Math.round(mid * 50) / 100,
    });
    expect(json.total_usd).toBeCloseTo(10000 + mid / 2, 2);
  });

  it('a source switched off by its variable is not read, is no failure, and is said', async () => {
    const { svc, cli } = await withAgent();
    const r = await cli('wallet holder --json', { env: { SUPERAGENT_HYPERLIQUID_URL: 'off' } });
    expect(r.code).toBe(0);
    // an empty wallet must not pass for one that was read whole
    expect(r.stderr).toBe('! not read, switched off: hyperliquid (the total leaves it out)\n');
    const out = JSON.parse(r.stdout);
    expect(out.balances).toEqual([]);
    expect(out.total_usd).toBe(0);
    // a script is told too: what was not read is no failure, and no empty list passes for it
    expect(out.switched_off).toEqual(['hyperliquid']);
    expect(read(svc, '/sim/hyperliquid')).toBe(false);
    expect(read(svc, '/sim/evm/ethereum')).toBe(true);
  });

  it('every source switched off: one line on stderr says no balance was read, and how to switch them on', async () => {
    const { svc, cli } = await withAgent();
    const r = await cli('wallet holder', { env: SOURCES_OFF });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^! no balance was read: every source is switched off \(.*config unset rpc\.<chain>.*\)\n$/,
    );
    expect(svc.exchanges.some((e) => e.path.startsWith('/sim/'))).toBe(false);
  });

  it('a source that fails: the rest printed, the total partial, the source named, exit 7', async () => {
    const { cli } = await withAgent();
    const env = { SUPERAGENT_RPC_BASE: await closedPortUrl() };
    const r = await cli('wallet holder', { tty: true, env });
    expect(r.code).toBe(7);
    expect(r.stdout).toContain('$10,000.00');
    expect(r.stdout).toContain('Total:  $10,000.00 (partial: base not read)');
    expect(r.stderr).toMatch(/^base: .*127\.0\.0\.1/m);
    expect(r.stderr).toMatch(/base could not be read: the total is partial/);
    expect(r.stderr).toContain('set SUPERAGENT_RPC_BASE to another endpoint');
    expect(r.stderr).not.toMatch(/\([^)]*\(/); // a hint in parentheses holds none of its own
    const json = await cli('wallet holder --json', { env });
    expect(json.code).toBe(7);
    const out = JSON.parse(json.stdout);
    expect(out.total_usd).toBe(10000);
    expect(out.errors).toEqual([{ source: 'base', message: expect.stringContaining('127.0.0.1') }]);
  });

  it('an endpoint that is no URL is refused before anything is read (exit 2)', async () => {
    const { cli } = await withAgent();
    const r = await cli('wallet holder', { env: { SUPERAGENT_RPC_SOLANA: 'ftp://x' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('SUPERAGENT_RPC_SOLANA');
  });

  it('--no-balances: the addresses alone, as before', async () => {
    const { svc, cli } = await withAgent();
    const r = await cli('wallet holder --no-balances');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^evm\t0x[0-9a-fA-F]{40}\nsolana\t\S+\n$/);
    expect(read(svc, '/sim/')).toBe(false);
  });

  it('--no-balances --json carries the agent_id, as --json does', async () => {
    const { agent, cli } = await withAgent();
    const out = JSON.parse((await cli('wallet holder --no-balances --json')).stdout);
    expect(out.agent_id).toBe(agent.agent_id);
    expect(out.evm_address).toBe(agent.wallet_address);
  });
});

describe('the endpoints as profile settings', () => {
  it('config set rpc.base off: wallet reads no base; the variable wins over the setting', async () => {
    const { svc, cli } = await withAgent();
    const config = new MemoryConfig();
    expect((await cli('config set rpc.base off', { config })).code).toBe(0);
    expect((await cli('config get rpc.base', { config })).stdout).toBe('off\n');
    expect((await cli('config list', { config })).stdout).toContain('default.rpc.base\toff\n');
    svc.exchanges.splice(0);
    expect((await cli('wallet holder', { config })).code).toBe(0);
    expect(read(svc, '/sim/evm/base')).toBe(false);
    expect(read(svc, '/sim/evm/ethereum')).toBe(true);
    const env = { SUPERAGENT_RPC_BASE: `${svc.url}/sim/evm/base` };
    expect((await cli('wallet holder', { config, env })).code).toBe(0);
    expect(read(svc, '/sim/evm/base')).toBe(true);
  });

  it('a failing endpoint from the profile setting: the hint names the setting, not a variable never set', async () => {
    const { cli } = await withAgent();
    const config = new MemoryConfig();
    expect((await cli(`config set rpc.base ${await closedPortUrl()}`, { config })).code).toBe(0);
    const r = await cli('wallet holder', { config });
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('superagent config unset rpc.base');
    expect(r.stderr).not.toContain('SUPERAGENT_RPC_BASE');
    expect(r.stderr).not.toMatch(/\([^)]*\(/);
  });

  it('config set refuses an endpoint that is no http(s) URL (exit 2)', async () => {
    const { cli } = await withAgent();
    const config = new MemoryConfig();
    const r = await cli('config set hyperliquid_url file:///etc/passwd', { config });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("hyperliquid_url must be an http(s) URL or 'off'");
    expect(config.data.profiles?.default?.hyperliquid_url).toBeUndefined();
  });
});
