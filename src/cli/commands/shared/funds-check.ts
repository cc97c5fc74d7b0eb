// Before an agent is destroyed (destroy, apply --prune): what it still holds, read once from the
// chains. Money known to be there refuses the destroy (exit 6); nothing known but a source unread
// (failed, or switched off: a source off is a source not read) refuses it too (exit 7), since what
// was not read may hold the money. --abandon-funds lets it go.
import { fundsSummary, type FundsSummary } from '../../../api/money/funds.js';
import { SOURCES, type SourceName } from '../../../api/money/types.js';
import { BadAnswerError, StateConflictError } from '../../../core/errors.js';
import type { Context } from '../../context.js';
import { cellSafe } from '../../../ui/format.js';
import { maskSecrets } from '../../../ui/mask.js';
import { readAgentMoney, switchedOff } from './money-off.js';
import { endpointOrigin, endpointSetting, endpointVariable, paperOnly } from './money.js';
import type { OpenedApi } from './opened-api.js';
import { withStop } from './stop.js';

export const ABANDON_FUNDS = '--abandon-funds';

/** What one agent holds, as far as it could be read. */
export interface Holdings {
  name: string;
  summary: FundsSummary | null;
  /** the sources that failed ("hyperliquid", or "wallet" when the addresses themselves were not read) */
  unread: string[];
  /** the first failure, for the message */
  why?: string;
  /** read from the embedded service's simulation alone: paper money, which cannot be moved out */
  paper?: boolean;
  /** why each failed source was not read */
  whys?: Partial<Record<string, string>>;
  /** the sources switched off: not read either, by choice */
  off: SourceName[];
  /** how to switch each of those on again: "unset SUPERAGENT_HYPERLIQUID_URL" */
  switchOn?: string[];
}

/** How to get the money out before a destroy: the agent or the dashboard moves it (there is no command for it). */
const MOVE_OUT =
  'close its positions and move its funds out first (the agent can do it when asked, or the dashboard), or ';
const PAPER = 'it is paper money: ';

/** The way past a refusal: destroy and apply take --abandon-funds; a plan destroys nothing, apply does. */
function abandonHow(planned: boolean, it: string, anyway = ''): string {
  return planned
    ? `apply --prune ${ABANDON_FUNDS} destroys ${it}${anyway}`
    : `pass ${ABANDON_FUNDS} to destroy ${it}${anyway}`;
}

/** How to switch a source off by a variable or a setting on again. */
function switchOnStep(ctx: Context, api: OpenedApi, source: SourceName): string {
  return endpointOrigin(ctx.env, api.connection.profile, source) === 'setting'
    ? `superagent config unset ${endpointSetting(source)}`
    : `unset ${endpointVariable(source)}`;
}

/** "$6,984.50" */
export function usdText(usd: number): string {
  const cents = { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  return `${usd < 0 ? '-' : ''}$${Math.abs(usd).toLocaleString('en-US', cents)}`;
}

/**
 * Whether the agent holds what a destroy would lose: $1 or more, anything open, an amount without a
 * price, or a chain's own coin past its dust amount (never let go on a price read elsewhere alone).
 */
export function holdsFunds(s: FundsSummary): boolean {
  const open = s.open_positions > 0 || s.open_orders > 0;
  return s.usd >= 1 || open || s.unpriced.length > 0 || s.beyond_dust.length > 0;
}

export async function readFunds(
  ctx: Context,
  api: OpenedApi,
  agent: { agent_id: string; name: string },
  signal?: AbortSignal,
): Promise<Holdings> {
  // a name from the service may hold anything: shown on one line, a key in it masked
  const name = maskSecrets(cellSafe(agent.name));
  const off = SOURCES.filter((s) => switchedOff(ctx, api).has(s));
  const allOff = ["unset the variables or settings saying 'off' to read the sources"];
  if (off.length === SOURCES.length) return { name, summary: null, unread: [], off, switchOn: allOff };
  const switchOn = off.map((s) => `${switchOnStep(ctx, api, s)} to read ${s}`);
  try {
    const money = await readAgentMoney(ctx, api, agent, { signal });
    const unread = [...new Set(money.errors.map((e) => e.source))];
    const whys: Partial<Record<string, string>> = {};
    for (const e of money.errors) whys[e.source] ??= e.message;
    const paper = paperOnly(ctx, api);
    const why = money.errors[0]?.message;
    return { name, summary: fundsSummary(money), unread, why, whys, off, switchOn, paper };
  } catch (err) {
    if (signal?.aborted) throw err;
    return {
      name,
      summary: null,
      unread: ['wallet'],
      why: err instanceof Error ? err.message : String(err),
      off,
      switchOn,
    };
  }
}

/** What each of these agents holds, read side by side in one round; Ctrl-C or SIGTERM gives it up. */
export async function readEach(ctx: Context, agents: Array<{ agent_id: string; name: string }>): Promise<Holdings[]> {
  if (agents.length === 0) return [];
  const api = await ctx.api();
  return withStop(ctx, (stop) => stop.race(Promise.all(agents.map((a) => readFunds(ctx, api, a, stop.signal)))));
}

/** "holds $6,984.50: 1.5 ETH on ethereum, …" */
const holdsText = (h: Holdings) => `holds ${usdText(h.summary!.usd)}: ${h.summary!.phrase}`;

/** "demo holds $6,984.50: 1.5 ETH on ethereum, …" */
const heldText = (h: Holdings) => `${h.name} ${holdsText(h)}`;

/** "not read: hyperliquid (switched off), solana (… did not answer within 10 s)" */
function unreadText(h: Holdings): string {
  if (h.unread.includes('wallet')) return `the wallet of ${h.name} could not be read${h.why ? ` (${h.why})` : ''}`;
  if (h.off.length === SOURCES.length) return 'not read: every source is switched off';
  const failed = h.unread.map((s) => `${s} (${h.whys?.[s] ?? 'could not be read'})`);
  return `not read: ${[...h.off.map((s) => `${s} (switched off)`), ...failed].join(', ')}`;
}

const notRead = (h: Holdings) => h.unread.length > 0 || h.off.length > 0;

const held = (h: Holdings) => h.summary !== null && holdsFunds(h.summary);

/**
 * The refusal for these agents, or undefined when nothing stands in the way: known holdings first
 * (exit 6), else the sources not read (exit 7). `planned`: said by plan, which destroys nothing.
 */
export function refusal(all: Holdings[], { planned = false } = {}): Error | undefined {
  const holding = all.filter(held);
  if (holding.length > 0) {
    const it = holding.length > 1 ? 'them' : 'it';
    const paper = holding.every((h) => h.paper);
    const what = paper
      ? PAPER + abandonHow(planned, it)
      : MOVE_OUT + (planned ? abandonHow(true, it) : `pass ${ABANDON_FUNDS}`);
    return new StateConflictError(`${holding.map(heldText).join('; ')}; ${what}`);
  }
  const unread = all.filter(notRead);
  if (unread.length > 0) {
    const each = unread.map((h) => `${h.name}: nothing found, but ${unreadText(h)}`).join('; ');
    const it = unread.length > 1 ? 'them' : 'it';
    // trying again helps a source that failed; one switched off stays off until switched on
    const failed = unread.some((h) => h.unread.length > 0);
    const steps = [...(failed ? ['try again'] : []), ...new Set(unread.flatMap((h) => h.switchOn ?? []))];
    return new BadAnswerError(`${each}; ${steps.join(', ')}, or ${abandonHow(planned, it, ' anyway')}`);
  }
  return undefined;
}

/** What a destroy leaves behind: "$5.00: 0.001 ETH on base", "nothing", and what could not be read. */
export function leftBehind(h: Holdings): string {
  const parts: string[] = [];
  if (h.off.length === SOURCES.length) parts.push('nothing read (every source is switched off)');
  else if (!h.summary) parts.push('unknown');
  else if (h.summary.phrase !== 'nothing') parts.push(`${usdText(h.summary.usd)}: ${h.summary.phrase}`);
  else parts.push(notRead(h) ? 'nothing known' : 'nothing');
  if (notRead(h) && h.off.length < SOURCES.length) parts.push(unreadText(h));
  return parts.join('; ');
}

/**
 * What a plan says of an agent apply --prune would destroy (said after its name): what will refuse
 * it, or with --abandon-funds what is left behind; undefined when nothing stands in the way.
 */
export function fundsNote(h: Holdings, abandon: boolean): string | undefined {
  if (abandon)
    return abandons(h) ? `apply --prune ${ABANDON_FUNDS} abandons what it holds: ${leftBehind(h)}` : undefined;
  const refused = `apply --prune will refuse it unless ${ABANDON_FUNDS}`;
  if (held(h)) return `${holdsText(h)}; ${refused}`;
  if (notRead(h)) return `nothing found, but ${unreadText(h)}; ${refused}`;
  return undefined;
}

/** Whether a destroy with --abandon-funds says what it leaves behind: anything held, or maybe held. */
export const abandons = (h: Holdings): boolean => held(h) || notRead(h);

/** With --abandon-funds: says on stderr what is left behind, when anything is (or may be). */
export function sayAbandoned(ctx: Context, all: Holdings[]): void {
  for (const h of all) if (abandons(h)) ctx.printer.stderrWrite(`Abandoning what ${h.name} holds: ${leftBehind(h)}\n`);
}

/** The question a person answers by typing the name, once the holdings were said or found to be nothing. */
export function destroyQuestion(name: string, abandoned: boolean, rest = ''): string {
  const lost = abandoned ? ', and what it holds is lost' : rest;
  return `Destroying ${name} cannot be undone${lost}. Type its name to confirm:`;
}
