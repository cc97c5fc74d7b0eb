// The simulated chains an agent's money lives on, evaluated lazily: nothing runs in the background.
// Reading an agent's Hyperliquid account brings it to the service clock's current step (paper.ts),
// trading only while the agent runs with its `hyperliquid` skill on, and writes it back.
import type { SimScenario } from '../../contract.js';
import { leverageCap } from '../runtime/amounts.js';
import { parseSoul } from '../runtime/soul.js';
import type { Store, StoredAgent } from '../store.js';
import { advance, DEFAULT_MAX_LEVERAGE, newAccount, repairHistory, type PaperAccount } from './paper.js';
import { STEP_MS } from './prices.js';
import { advancePm, newPmAccount, type PmAccount, type PmContext } from './polymarket.js';
import { clockNow, marketNow, scenarioRecord, stepAt, type ClockRecord, type ScenarioRecord } from './market-clock.js';
import type { PaperRecord, SeededHolding, SeedRecord } from './records.js';
import type { Market } from './scenario.js';
import { addressKey, findToken, isEvmChain, type SimChain, type SimToken } from './tokens.js';
import { toUnits } from './prices.js';

export interface SimOptions {
  /** what each agent launched gets on its paper Hyperliquid account, in USDC */
  paperBalanceUsd: number;
  /** the service clock the market moves with (tests move it instead of waiting) */
  clock: () => number;
  /** the market's seed: the same seed and clock give the same prices and trades */
  seed: string;
  /** simulated market minutes per real minute (demos) */
  speed: number;
  /** USDC.e on polygon an agent deposits the first time it runs with its polymarket skill */
  polymarketBalanceUsd: number;
  /** the market's shape: calm (its paths as they are) or crash (falling from the start; scenario.ts) */
  scenario: SimScenario;
}

export const DEFAULT_PAPER_BALANCE_USD = 10_000;
export const DEFAULT_POLYMARKET_BALANCE_USD = 1_000;
const USDC_E = '0x2791bca1f2de4661ed88a30c99a7a9449aa84174';
export const DEFAULT_SIM_SEED = 'superagent-sim';
const LEVERAGE_LIMIT = 50;
const SCENARIO_KEY = 'scenario';
const CLOCK_KEY = 'clock';

/** An account as read: brought to `step`, with the clock time it stands for. */
export interface PaperView {
  paper: PaperAccount;
  step: number;
  now: number;
  polymarket?: PmAccount;
}

export class Simulation {
  readonly options: SimOptions;
  /** the market quoted: the seed, the scenario, the step it started from and the level it started at */
  readonly market: Market;
  /** how the market's steps follow the service clock, kept across restarts (market-clock.ts) */
  readonly clock: ClockRecord;
  /** pmNow's answers for one step: a request may ask one balance many times (aggregate3, batches) */
  private pmSeen = { step: NaN, accounts: new Map<string, PmAccount | undefined>() };

  constructor(
    private readonly store: Store,
    options: Partial<SimOptions> = {},
  ) {
    const kept = this.store.sim.read<ScenarioRecord>('market', SCENARIO_KEY);
    // a start that names no scenario goes on with the one kept: a demo's crash is not undone by a command
    // run from a shell without the variable
    const keptScenario = kept?.scenario === 'crash' || kept?.scenario === 'calm' ? kept.scenario : undefined;
    this.options = {
      paperBalanceUsd: options.paperBalanceUsd ?? DEFAULT_PAPER_BALANCE_USD,
      polymarketBalanceUsd: options.polymarketBalanceUsd ?? DEFAULT_POLYMARKET_BALANCE_USD,
      clock: options.clock ?? Date.now,
      seed: options.seed ?? DEFAULT_SIM_SEED,
      speed: options.speed && options.speed > 0 ? options.speed : 1,
      scenario: options.scenario ?? keptScenario ?? 'calm',
    };
    const stepMs = STEP_MS / this.options.speed;
    this.clock = clockNow(this.store.sim.read<ClockRecord>('market', CLOCK_KEY), stepMs, this.now());
    this.market = marketNow(this.options.seed, this.options.scenario, kept, this.clock, this.step());
  }

  /** Start-up: the market's clock and scenario kept, and paper accounts for agents from before them. */
  async start(): Promise<void> {
    const kept = this.store.sim.read<ClockRecord>('market', CLOCK_KEY);
    if (kept?.time !== this.clock.time || kept.step !== this.clock.step || kept.stepMs !== this.clock.stepMs) {
      await this.store.sim.put<ClockRecord>('market', CLOCK_KEY, this.clock);
    }
    const scenario = this.store.sim.read<ScenarioRecord>('market', SCENARIO_KEY);
    const record = scenarioRecord(this.market, this.clock, scenario);
    if (record) await this.store.sim.put<ScenarioRecord>('market', SCENARIO_KEY, record);
    await this.openMissing();
  }

  get seed(): string {
    return this.options.seed;
  }

  now(): number {
    return this.options.clock();
  }

  step(): number {
    return stepAt(this.clock, this.now());
  }

  /** A newly launched agent's paper account, funded with the paper balance. */
  async open(agent: StoredAgent): Promise<void> {
    const record: PaperRecord = {
      account: agent.owner,
      agent_id: agent.agent_id,
      address: agent.evm_address,
      paper: newAccount(this.options.paperBalanceUsd, this.step(), this.now()),
      polymarket: newPmAccount(this.step()),
    };
    await this.store.sim.put('paper', agent.evm_address, record);
  }

  /**
   * Agents from a store written before the simulation had paper accounts get one now, funded with
   * the paper balance from now on, so every live agent's money reads like a new one's.
   */
  async openMissing(): Promise<number> {
    let opened = 0;
    for (const account of this.store.layout.accountIds()) {
      for (const { record } of this.store.liveAgents(account)) {
        if (!record.evm_address || this.store.sim.read<PaperRecord>('paper', record.evm_address)) continue;
        await this.open(record);
        opened++;
      }
    }
    return opened;
  }

  /** A destroyed agent's accounts and holdings are gone. */
  async close(agent: Pick<StoredAgent, 'evm_address' | 'solana_address'>): Promise<void> {
    this.pmSeen.accounts.delete(addressKey(agent.evm_address));
    await this.store.sim.remove('paper', agent.evm_address);
    await this.store.sim.remove('seed', agent.evm_address);
    await this.store.sim.remove('seed', agent.solana_address);
  }

  /** Brings the agent's account up to now as it stands (before a pause, a resume or a skill change). */
  async settle(agent: Pick<StoredAgent, 'evm_address'>): Promise<void> {
    await this.paper(agent.evm_address);
  }

  /** The paper account at `address`, brought to now; undefined for an address that is no live agent's. */
  async paper(address: string): Promise<PaperView | undefined> {
    const found = this.store.sim.read<PaperRecord>('paper', address);
    if (!found) return undefined;
    const agent = this.store.agents.find(found.account, found.agent_id)?.record;
    if (!agent || agent.status === 'destroyed') return undefined;
    const ctx = {
      market: this.market,
      who: addressKey(address),
      trading: agent.status === 'running' && agent.skills?.hyperliquid === true,
      maxLeverage: maxLeverageOf(agent.soul_md),
      clock: this.clock,
    };
    const step = this.step();
    const pm = this.pmContext(agent, address);
    this.pmSeen.accounts.delete(addressKey(address)); // a pause or a skill change may follow
    const view = await this.store.sim.update<PaperRecord, PaperView | undefined>('paper', address, (draft) => {
      if (!draft) return undefined;
      draft.paper.history = repairHistory(draft.paper.history, this.now());
      advance(draft.paper, step, ctx);
      draft.polymarket ??= newPmAccount(step); // a record from before the Polymarket accounts
      advancePm(draft.polymarket, step, pm);
      return { paper: draft.paper, polymarket: draft.polymarket, step, now: this.now() };
    });
    return view;
  }

  private pmContext(agent: StoredAgent, address: string): PmContext {
    const deposit = BigInt(Math.round(this.options.polymarketBalanceUsd * 100)) * 10_000n;
    const trading = agent.status === 'running' && agent.skills?.polymarket === true;
    return { seed: this.seed, who: addressKey(address), trading, deposit };
  }

  /**
   * The Polymarket account at `address` as it stands now, without writing it: what a polygon read
   * of its USDC.e sees (the advance is a pure function of the stored account, so a later write agrees).
   */
  pmNow(address: string): PmAccount | undefined {
    const step = this.step();
    if (this.pmSeen.step !== step) this.pmSeen = { step, accounts: new Map() };
    const key = addressKey(address);
    if (!this.pmSeen.accounts.has(key)) this.pmSeen.accounts.set(key, this.pmAt(address, step));
    return this.pmSeen.accounts.get(key);
  }

  private pmAt(address: string, step: number): PmAccount | undefined {
    const found = this.store.sim.read<PaperRecord>('paper', address);
    const agent = found && this.store.agents.find(found.account, found.agent_id)?.record;
    if (!found?.polymarket || !agent || agent.status === 'destroyed') return undefined;
    const account = structuredClone(found.polymarket);
    advancePm(account, step, this.pmContext(agent, address));
    return account;
  }

  /** Gives `address` an amount of a listed asset on a chain (replacing what it had of it). */
  async seedHoldings(address: string, holding: SeededHolding): Promise<void> {
    const token = findToken(holding.chain, holding.asset);
    if (!token) throw new Error(`no ${holding.asset} on the simulated ${holding.chain}`);
    toUnits(holding.amount, token.decimals); // a malformed amount fails here, not at the read
    const entry: SeededHolding = { chain: holding.chain, asset: token.symbol, amount: holding.amount };
    await this.store.sim.update<SeedRecord, void>('seed', address, (draft) => {
      if (!draft) return;
      draft.holdings = [...draft.holdings.filter((h) => h.chain !== entry.chain || h.asset !== entry.asset), entry];
    });
    // update() writes nothing for a record that is not there: the first seed makes it
    if (!this.store.sim.read<SeedRecord>('seed', address)) {
      await this.store.sim.put<SeedRecord>('seed', address, { holdings: [entry] });
    }
  }

  /** What was seeded at `address` on `chain`, in base units of each token. */
  holdings(address: string, chain: SimChain): Array<{ token: SimToken; units: bigint }> {
    const seeded = this.store.sim.read<SeedRecord>('seed', address)?.holdings ?? [];
    const out: Array<{ token: SimToken; units: bigint }> = [];
    for (const h of seeded) {
      const token = h.chain === chain ? findToken(chain, h.asset) : undefined;
      if (token) out.push({ token, units: toUnits(h.amount, token.decimals) });
    }
    return out;
  }

  /** The units of one token (null: the native asset) an address holds on an EVM chain. */
  evmBalance(address: string, chain: SimChain, tokenAddress: string | null): bigint {
    if (!isEvmChain(chain)) return 0n;
    const wanted = tokenAddress?.toLowerCase() ?? null;
    const hit = this.holdings(address, chain).find((h) => (h.token.address?.toLowerCase() ?? null) === wanted);
    // Polymarket's cash is the USDC.e the agent holds on polygon
    const pmCash = chain === 'polygon' && wanted === USDC_E ? BigInt(this.pmNow(address)?.cash ?? '0') : 0n;
    return (hit?.units ?? 0n) + pmCash;
  }
}

/** The soul's leverage rule, if it has one; else a modest default. */
export function maxLeverageOf(soul: string): number {
  for (const rule of parseSoul(soul).rules) {
    const cap = leverageCap(rule);
    if (cap !== null) return Math.min(LEVERAGE_LIMIT, cap);
  }
  return DEFAULT_MAX_LEVERAGE;
}
