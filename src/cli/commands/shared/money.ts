// What a money command (wallet, positions, pnl, destroy) reads first: the agent's addresses and
// everything they hold, from endpoints chosen per source: a variable, else a profile setting, else the
// embedded service's simulation when the service is the embedded one, else the public endpoints.
import { superagents } from '../../../api/superagents.js';
import { createSourceHttp, type SourceHttp } from '../../../api/money/source-http.js';
import { readHoldings, type Addresses, type HoldingsResult } from '../../../api/money/holdings.js';
import { readHlPortfolio, type HlPortfolioPeriod } from '../../../api/money/hyperliquid.js';
import { EVM_CHAINS, SOURCES, type Endpoints, type JsonRequest, type SourceName } from '../../../api/money/types.js';
import type { Profile } from '../../../config/file.js';
import { EMBEDDED_KEY_PREFIX } from '../../../contract.js';
import { BadAnswerError, UsageError } from '../../../core/errors.js';
import { WAIT_SPINNER_MS } from '../../../ui/spinner.js';
import type { Context } from '../../context.js';
import type { OpenedApi } from './opened-api.js';

/** each source's own limit when no --timeout is given */
export const SOURCE_TIMEOUT_MS = 10_000;

const PUBLIC: Partial<Record<SourceName, string>> = {
  solana: 'https://api.mainnet-beta.solana.com',
  hyperliquid: 'https://api.hyperliquid.xyz',
  polymarket: 'https://data-api.polymarket.com',
};

/** The variable that sets each source's endpoint (spelled out: the docs list every variable read). */
const ENDPOINT_VARIABLES: Readonly<Record<SourceName, string>> = {
  ethereum: 'SUPERAGENT_RPC_ETHEREUM',
  arbitrum: 'SUPERAGENT_RPC_ARBITRUM',
  base: 'SUPERAGENT_RPC_BASE',
  polygon: 'SUPERAGENT_RPC_POLYGON',
  bsc: 'SUPERAGENT_RPC_BSC',
  optimism: 'SUPERAGENT_RPC_OPTIMISM',
  solana: 'SUPERAGENT_RPC_SOLANA',
  hyperliquid: 'SUPERAGENT_HYPERLIQUID_URL',
  polymarket: 'SUPERAGENT_POLYMARKET_URL',
};

/** The variable that sets a source's endpoint. */
export function endpointVariable(source: SourceName): string {
  return ENDPOINT_VARIABLES[source];
}

/** The profile setting that sets a source's endpoint. */
export function endpointSetting(source: SourceName): keyof Profile {
  if (source === 'hyperliquid' || source === 'polymarket') return `${source}_url`;
  return `rpc.${source}`;
}

/** Where a source's endpoint comes from: its variable, the profile's setting, or neither (the default). */
export function endpointOrigin(
  env: NodeJS.ProcessEnv,
  profile: Profile | undefined,
  source: SourceName,
): 'variable' | 'setting' | 'default' {
  if (env[endpointVariable(source)]?.trim()) return 'variable';
  const configured = profile?.[endpointSetting(source)];
  return typeof configured === 'string' && isEndpointValue(configured) ? 'setting' : 'default';
}

/** How to point a source elsewhere, said where its endpoint came from (never a variable the user did not set). */
export function endpointHint(env: NodeJS.ProcessEnv, profile: Profile | undefined, source: SourceName): string {
  const setting = endpointSetting(source);
  if (endpointOrigin(env, profile, source) === 'setting') {
    return (
      `set ${setting} to another endpoint or to 'off' with superagent config set ${setting} …, ` +
      `or back to the default with superagent config unset ${setting}`
    );
  }
  // no parentheses: the hint is said in its own
  return `set ${endpointVariable(source)} to another endpoint, or to 'off' to skip it`;
}

/** An endpoint as a setting or variable may give it: an http(s) URL, or `off`. */
export function isEndpointValue(value: string): boolean {
  if (value === 'off') return true;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The embedded service's own URL when the service is the embedded one (in this process or not). */
function embeddedBase(api: OpenedApi): string | null {
  if (api.embedded) return api.embedded.url;
  const { baseUrl, apiKey } = api.connection;
  return baseUrl && apiKey?.startsWith(EMBEDDED_KEY_PREFIX) ? baseUrl : null;
}

function simulated(base: string, source: SourceName): string {
  const root = base.replace(/\/+$/, '');
  if (source === 'solana') return `${root}/sim/solana`;
  if (source === 'hyperliquid') return `${root}/sim/hyperliquid`;
  if (source === 'polymarket') return `${root}/sim/polymarket`;
  return `${root}/sim/evm/${source}`;
}

/** Where each source is read (null: switched off); `defaultRpc` gives an EVM chain's public endpoint. */
export function resolveEndpoints(
  env: NodeJS.ProcessEnv,
  profile: Profile | undefined,
  embedded: string | null,
  defaultRpc: (chain: (typeof EVM_CHAINS)[number]) => string,
): Endpoints {
  const out = {} as Endpoints;
  for (const source of SOURCES) {
    const variable = endpointVariable(source);
    const fromEnv = env[variable]?.trim();
    let value: string;
    if (fromEnv) {
      if (!isEndpointValue(fromEnv)) {
        throw new UsageError(`${variable} is not an http(s) URL`, `set it to the endpoint's URL, or to 'off'`);
      }
      value = fromEnv;
    } else {
      const setting = endpointSetting(source);
      const configured = profile?.[setting];
      if (typeof configured === 'string' && isEndpointValue(configured)) value = configured;
      else if (embedded) value = simulated(embedded, source);
      else value = PUBLIC[source] ?? defaultRpc(source as (typeof EVM_CHAINS)[number]);
    }
    out[source] = value === 'off' ? null : value;
  }
  return out;
}

export interface AgentMoney extends HoldingsResult {
  agent_id: string;
  evm_address: string | null;
  solana_address: string | null;
}

/**
 * Whether what the agent holds is paper money: the service is the embedded one, and every source read is
 * its own simulation, none pointed elsewhere by a variable or setting (what is there cannot be vouched for).
 */
export function paperOnly(ctx: Context, api: OpenedApi): boolean {
  if (!embeddedBase(api)) return false;
  const { profile } = api.connection;
  const own = (s: SourceName) => endpointOrigin(ctx.env, profile, s) === 'default';
  const off = switchedOffNow(ctx.env, profile);
  return SOURCES.every((s) => own(s) || off.has(s));
}

function switchedOffNow(env: NodeJS.ProcessEnv, profile: Profile | undefined): Set<SourceName> {
  const endpoints = resolveEndpoints(env, profile, null, () => 'default');
  return new Set(SOURCES.filter((s) => endpoints[s] === null));
}

/** Piped, a read still under way after this long is said once on stderr (a log shows why the job paused). */
const PIPED_NOTICE_MS = 3_000;

/** `work` under a spinner on a terminal; piped, one stderr line if it is still under way after a few seconds. */
async function whileReading<T>(ctx: Context, label: string, timeoutMs: number, work: Promise<T>): Promise<T> {
  if (!label) return work;
  const p = ctx.printer;
  const shown = ctx.spinner(label, { delayMs: WAIT_SPINNER_MS });
  // a real timer, not the Context's clock: it says how long the sources take, which no fake clock moves
  const what = `${label[0]!.toLowerCase()}${label.slice(1, -1)}`;
  const still = `Still ${what}: a source is given up after ${timeoutMs / 1000} s (--timeout sets it)`;
  const notice = p.chatty ? undefined : setTimeout(() => p.warn(still), PIPED_NOTICE_MS);
  notice?.unref();
  try {
    return await work;
  } finally {
    shown.stop();
    clearTimeout(notice);
  }
}

/** Opens the sources' HTTP layer as this command's flags say (proxies, --debug, --timeout). */
export function openSources(ctx: Context): { http: SourceHttp; timeoutMs: number } {
  const timeoutMs = ctx.globals.timeout !== undefined ? ctx.globals.timeout * 1000 : SOURCE_TIMEOUT_MS;
  const p = ctx.printer;
  const trace = ctx.globals.debug ? (line: string) => p.stderrWrite(p.err.dim(line) + '\n') : undefined;
  return { http: createSourceHttp({ env: ctx.env, timeoutMs, trace }), timeoutMs };
}

export type { Addresses };

/** The agent's addresses: one request to the service (they never change, so a watcher asks once). */
export async function agentAddresses(api: OpenedApi, agentId: string): Promise<Addresses> {
  const wallet = await superagents.wallet(api.client, agentId);
  return { evm: wallet.evm_address ?? null, solana: wallet.solana_address ?? null };
}

export interface MoneyReadOptions {
  signal?: AbortSignal;
  /** the sources this command has a use for (`positions`: Hyperliquid and Polymarket) */
  only?: readonly SourceName[];
  /** no spinner and no piped notice: a caller drawing its own screen or log says what it waits for */
  quiet?: boolean;
  /** each source request through this (a watcher paces and counts them per host) */
  wrapJson?: (json: JsonRequest) => JsonRequest;
}

/** What the addresses hold, from the sources alone (no request to the service). */
export async function readMoneyAt(
  ctx: Context,
  api: OpenedApi,
  addresses: Addresses,
  opts: MoneyReadOptions = {},
): Promise<HoldingsResult> {
  const only = opts.only;
  // viem only when an EVM chain is read
  const evm =
    !only || only.some((s) => (EVM_CHAINS as readonly string[]).includes(s))
      ? await import('../../../vendor/evm-reader.js')
      : undefined;
  const defaultRpc = evm?.defaultRpc ?? (() => 'off');
  const endpoints = resolveEndpoints(ctx.env, api.connection.profile, embeddedBase(api), defaultRpc);
  if (only) for (const source of SOURCES) if (!only.includes(source)) endpoints[source] = null;
  const { http, timeoutMs } = openSources(ctx);
  try {
    const count = SOURCES.filter((s) => endpoints[s]).length;
    const label = `Reading ${only ? 'positions' : 'balances'} from ${count} source${count === 1 ? '' : 's'}…`;
    const reading = readHoldings(
      addresses,
      endpoints,
      { json: opts.wrapJson?.(http.json) ?? http.json, readEvm: evm?.readEvm, timeoutMs },
      opts.signal,
    );
    return await whileReading(ctx, count && !opts.quiet ? label : '', timeoutMs, reading);
  } finally {
    http.close();
  }
}

export async function readAgentMoney(
  ctx: Context,
  api: OpenedApi,
  agent: { agent_id: string; name?: string | null },
  opts: MoneyReadOptions = {},
): Promise<AgentMoney> {
  const addresses = await agentAddresses(api, agent.agent_id);
  const result = await readMoneyAt(ctx, api, addresses, opts);
  return { agent_id: agent.agent_id, evm_address: addresses.evm, solana_address: addresses.solana, ...result };
}

/** The Hyperliquid portfolio history (every period) of an EVM address, from the one endpoint it is read at. */
export async function readPortfolioAt(
  ctx: Context,
  api: OpenedApi,
  evmAddress: string,
  opts: Omit<MoneyReadOptions, 'only'> = {},
): Promise<HlPortfolioPeriod[]> {
  const base = resolveEndpoints(ctx.env, api.connection.profile, embeddedBase(api), () => 'off').hyperliquid;
  if (!base) {
    const fromVariable = endpointOrigin(ctx.env, api.connection.profile, 'hyperliquid') === 'variable';
    throw new UsageError(
      'Hyperliquid is switched off, and the history is read there',
      fromVariable ? `unset ${endpointVariable('hyperliquid')}` : 'superagent config unset hyperliquid_url',
    );
  }
  const { http, timeoutMs } = openSources(ctx);
  try {
    const reading = readHlPortfolio(base, evmAddress, opts.wrapJson?.(http.json) ?? http.json, opts.signal);
    return await whileReading(ctx, opts.quiet ? '' : 'Reading the history from Hyperliquid…', timeoutMs, reading);
  } finally {
    http.close();
  }
}

/** The agent's Hyperliquid portfolio history (every period). */
export async function readAgentPortfolio(
  ctx: Context,
  api: OpenedApi,
  agent: { agent_id: string; name?: string | null },
): Promise<HlPortfolioPeriod[]> {
  const { evm } = await agentAddresses(api, agent.agent_id);
  if (!evm) throw new BadAnswerError(`the service has no EVM address for ${agent.name ?? agent.agent_id}`);
  return readPortfolioAt(ctx, api, evm);
}
