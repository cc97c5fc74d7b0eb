// destroy and wallet when Hyperliquid's allMids, which prices every chain's own coin, lies or leaves a
// coin out: a holding is never let go, or counted as nothing, because of a price alone.
import { afterEach, describe, expect, it } from 'vitest';
import { runLine } from '../helpers/context.js';
import { startChainStandIn, type ChainStandIn } from '../helpers/chain-standin.js';
import { perTest } from '../helpers/service-support.js';
import { launchAgent } from '../helpers/service.js';

const t = perTest();
const standIns: ChainStandIn[] = [];
afterEach(async () => {
  while (standIns.length) await standIns.pop()!.close();
});

/** A Hyperliquid of an empty account whose allMids answers `mids`. */
async function hyperliquidQuoting(mids: Record<string, string>): Promise<string> {
  const s = await startChainStandIn();
  standIns.push(s);
  s.overrides.set('hyperliquid-clearinghouseState', {
    marginSummary: { accountValue: '0' },
    withdrawable: '0',
    assetPositions: [],
  });
  s.overrides.set('hyperliquid-spotClearinghouseState', { balances: [] });
  s.overrides.set('hyperliquid-openOrders', []);
  s.overrides.set('hyperliquid-allMids', mids);
  return s.hyperliquid;
}

/** An agent of the embedded service holding `amount` ETH on base, and the CLI with Hyperliquid at `hl`. */
async function holder(amount: string, hl: string) {
  const svc = await t.service({ paperBalanceUsd: 0 });
  const agent = await launchAgent(svc, { name: 'victim' });
  await svc.seedHoldings(agent.wallet_address, { chain: 'base', asset: 'ETH', amount });
  const env = { SUPERAGENT_HYPERLIQUID_URL: hl };
  const status = async () => {
    const r = await svc.call('GET', `/v1/superagents/${agent.agent_id}`);
    return r.status === 200 ? r.json.status : r.status;
  };
  return { status, cli: (line: string) => runLine(svc, line, { env }) };
}

describe('destroy never lets a holding go on its price alone', () => {
  it('ETH priced at a few cents: 50 ETH valued under $1 still refuses (past its dust amount)', async () => {
    const { cli, status } = await holder('50', await hyperliquidQuoting({ ETH: '0.015', SOL: '150', BNB: '600' }));
    const r = await cli('destroy victim --yes');
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^Error: victim holds \$0\.75: 50 ETH on base; /);
    expect(await status()).toBe('running');
  });

  it('ETH priced at 1e-12 (below any plausible price): the prices fail, 1000 ETH is unpriced and refuses', async () => {
    const tiny = '0.000000000001';
    const { cli, status } = await holder('1000', await hyperliquidQuoting({ ETH: tiny, SOL: tiny, BNB: tiny }));
    const r = await cli('destroy victim --yes');
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/^Error: victim holds \$0\.00: 1000 ETH on base; /);
    expect(await status()).toBe('running');
  });
});

describe('mid prices that leave out a chain coin', () => {
  it('wallet: the coin has no value, the total is partial naming the gap, exit 7; destroy still refuses', async () => {
    const { cli, status } = await holder('1000', await hyperliquidQuoting({ SOL: '150', BNB: '600' }));
    const r = await cli('wallet victim --json');
    expect(r.code).toBe(7);
    const out = JSON.parse(r.stdout);
    expect(out.balances).toEqual([{ chain: 'base', asset: 'ETH', amount: '1000', usd: null }]);
    expect(out.errors).toEqual([
      { source: 'hyperliquid', message: expect.stringMatching(/^mid prices: .* allMids lists no price for ETH$/) },
    ]);
    expect(r.stderr).toMatch(/^hyperliquid: mid prices: .* allMids lists no price for ETH\n/m);
    const destroyed = await cli('destroy victim --yes');
    expect(destroyed.code).toBe(6);
    expect(destroyed.stderr).toMatch(/^Error: victim holds \$0\.00: 1000 ETH on base; /);
    expect(await status()).toBe('running');
  });
});
