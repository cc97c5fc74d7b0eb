// A SuperAgent's simulated reply (API-CONTRACT.md §9): deterministic for the same agent, session
// history and message; built from the soul (identity and rules), the enabled skills and a
// simulated market snapshot. Pure: no clock, no Math.random(), no I/O.

import {
  assetInfo,
  between,
  digest,
  findSymbols,
  formatNumber,
  formatPct,
  formatQuote,
  formatUsd,
  intBetween,
  marketSnapshot,
  pick,
  quoteOf,
  roundSig,
  seededRng,
  toneOf,
  type Quote,
} from './market.js';
import { SKILLS } from './skills.js';
import { MAX_TOOL_CALLS, simulateTool, type ToolCall } from './tools.js';

export interface AgentForReply {
  agent_id: string;
  name: string;
  description: string;
  model: string;
  model_provider: string;
  soul_md: string;
  skills: Record<string, boolean>;
}

export interface Turn {
  role: 'user' | 'agent';
  content: string;
}

export interface AgentReply {
  content: string;
  /** a line to add to memory.md, or null */
  remember: string | null;
  /** the tools the reply drew on, in order (at most MAX_TOOL_CALLS) */
  toolCalls: ToolCall[];
}

/** [ours] reply length bounds, in whitespace-separated words */
export const REPLY_MIN_WORDS = 40;
export const REPLY_MAX_WORDS = 120;
/** [ours] longest "remember …" note kept, in characters */
export const REMEMBER_MAX_CHARS = 500;

// =============================================================================================
// Small text helpers (shared with the assistant)

export function wordCount(text: string): number {
  let n = 0;
  for (const _ of text.matchAll(/\S+/g)) n++;
  return n;
}

/** Collapse every run of whitespace (newlines included) to one space, trim. */
export function singleLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** At most `max` code points (never half a surrogate pair); adds "…" when cut. */
export function clipChars(text: string, max: number): string {
  const points = Array.from(text);
  if (points.length <= max) return text;
  return points.slice(0, Math.max(0, max - 1)).join('').trimEnd() + '…';
}

/** The first `max` words of `text` on one line; adds "…" when cut. Long "words" are clipped too. */
export function clipWords(text: string, max: number, maxChars = 160): string {
  const words = singleLine(text).split(' ').filter(Boolean);
  let out = words.slice(0, max).join(' ');
  let cut = words.length > max;
  if (Array.from(out).length > maxChars) {
    out = Array.from(out).slice(0, maxChars - 1).join('').trimEnd();
    cut = true;
  }
  return cut ? `${out}…` : out;
}

/** Strip inline markdown decoration: links become their text, emphasis and code marks go. */
function plainInline(text: string): string {
  return text
    .replace(/!?\[([^\]\n]{0,300})\]\([^)\n]{0,500}\)/g, '$1')
    .replace(/<[^<>\n]{0,200}>/g, '')
    .replace(/\*+|`+|~~|__/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Remove one trailing sentence mark so a quote can end our own sentence. */
function dropFinalStop(text: string): string {
  return text.replace(/[.;:!]+$/, '');
}

// =============================================================================================
// The soul: identity and rules

export interface SoulProfile {
  /** how the agent names itself, or null when the soul does not say */
  identity: string | null;
  /** where the identity came from */
  identitySource: 'heading' | 'statement' | null;
  /** rules, most explicit first: bullets under a "rules" heading, then never/always/must lines, then other bullets */
  rules: string[];
}

/** [ours] headings that name a section rather than the agent */
const GENERIC_HEADINGS = new Set([
  'soul',
  'soul.md',
  'soul md',
  'identity',
  'rules',
  'about',
  'about me',
  'persona',
  'personality',
  'instructions',
  'overview',
  'profile',
  'role',
  'who you are',
  'who i am',
  'system prompt',
  'background',
  'mission',
  'goals',
  'goal',
  'strategy',
  'style',
  'tone',
  'memory',
  'notes',
  'agent',
  'character',
]);

const RULE_WORDS = /\b(never|always|must|mustn't|do not|don't|dont|avoid|no more than|at most|at least|only ever)\b/i;
const MAX_RULES = 60;
/** [ours] lines longer than this are clipped before any pattern work (soul.md may be 256 KiB) */
const MAX_LINE_SCAN = 600;

interface Heading {
  text: string;
}

/** ATX heading ("## Rules ##") without regex backtracking over long lines. */
function atxHeading(line: string): Heading | null {
  const m = /^ {0,3}(#{1,6})(?=[ \t]|$)/.exec(line);
  if (!m) return null;
  let text = line.slice(m[0].length).trim();
  // Optional closing sequence: spaces then #s at the end.
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  if (end < text.length && (end === 0 || text[end - 1] === ' ' || text[end - 1] === '\t')) {
    text = text.slice(0, end).trim();
  }
  return { text };
}

const SETEXT_UNDERLINE = /^ {0,3}(=+|-{2,})[ \t]*$/;
const BULLET = /^\s{0,12}(?:[-*+•]|\d{1,3}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?/;
const FENCE = /^ {0,3}(```|~~~)/;

function isGenericHeading(text: string): boolean {
  const key = text
    .toLowerCase()
    .replace(/[^a-z0-9. ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return key === '' || GENERIC_HEADINGS.has(key) || /\brules?\b/.test(key);
}

/** "You are Satoshi Scalper, a …" → "Satoshi Scalper"; "You are a cautious agent that …" → "a cautious agent". */
function statementIdentity(line: string): string | null {
  const m = /(?:^|[.!?]\s+)(?:you are|you're|i am|i'm)\s+([^\n]{1,300})/i.exec(line);
  if (!m || !m[1]) return null;
  let who = m[1];
  who = who.split(/[.!?;:,(—–]|\s-\s|\s+(?:that|who|which|and|with|whose)\s+/i)[0] ?? '';
  who = plainInline(who);
  if (!who) return null;
  const words = who.split(' ');
  return words.length > 8 ? words.slice(0, 8).join(' ') : who;
}

/** Pull the agent's stated identity and rules out of soul.md. Tolerates any input. */
export function parseSoul(soul: string): SoulProfile {
  const lines = (typeof soul === 'string' ? soul : '').split(/\r\n|\r|\n/);
  let heading: string | null = null;
  let statement: string | null = null;
  const ruled: string[] = [];
  const worded: string[] = [];
  const bullets: string[] = [];
  let inFence = false;
  let underRules = false;

  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    const line = raw.length > MAX_LINE_SCAN ? raw.slice(0, MAX_LINE_SCAN) : raw;
    if (FENCE.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence || line.trim() === '') continue;

    let headingText: string | null = null;
    const atx = atxHeading(line);
    if (atx) headingText = atx.text;
    else {
      const next = lines[i + 1];
      if (next !== undefined && next.length <= MAX_LINE_SCAN && SETEXT_UNDERLINE.test(next) && !BULLET.test(line)) {
        headingText = line.trim();
        i++;
      }
    }
    if (headingText !== null) {
      const text = plainInline(headingText);
      underRules = /\b(rules?|guardrails?|constraints?|principles?|limits?|red lines?|risk)\b/i.test(text);
      if (heading === null && text && !isGenericHeading(text)) heading = clipWords(text, 10, 80);
      continue;
    }

    if (SETEXT_UNDERLINE.test(line) && /^ {0,3}-{3,}\s*$/.test(line)) continue; // thematic break

    const bullet = BULLET.exec(line);
    const body = plainInline(bullet ? line.slice(bullet[0].length) : line.replace(/^\s*>+\s?/, ''));
    if (!body) continue;

    if (statement === null && !bullet) statement = statementIdentity(body);

    const collect = (into: string[], text: string) => {
      if (into.length < MAX_RULES) into.push(clipWords(text, 40, 280));
    };
    if (bullet) {
      if (underRules) collect(ruled, body);
      else if (RULE_WORDS.test(body)) collect(worded, body);
      else collect(bullets, body);
    } else {
      // Prose: keep the sentences that state a rule.
      for (const s of body.split(/(?<=[.!?])\s+/)) {
        if (RULE_WORDS.test(s)) collect(underRules ? ruled : worded, s);
        else if (underRules) collect(ruled, s);
      }
    }
  }

  const rules: string[] = [];
  const seen = new Set<string>();
  for (const r of [...ruled, ...worded, ...bullets]) {
    const key = r.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      rules.push(r);
    }
  }
  if (heading) return { identity: heading, identitySource: 'heading', rules };
  if (statement) return { identity: statement, identitySource: 'statement', rules };
  return { identity: null, identitySource: null, rules };
}

// =============================================================================================
// Intents → skills

interface Intent {
  key: 'perps' | 'research' | 'bets' | 'swap' | 'portfolio' | 'wallet' | 'chain' | 'market';
  skills: string[];
  pattern: RegExp;
  /** words that make a soul rule relevant to this intent */
  topic: string[];
}

/** [ours] keyword → skill routing, in priority order */
export const INTENTS: readonly Intent[] = [
  {
    key: 'perps',
    skills: ['hyperliquid'],
    pattern: /\b(?:long|longs|longing|short|shorts|shorting|perps?|perpetuals?|funding|leverage|leveraged|hyperliquid|\d+(?:\.\d+)?x)\b/i,
    topic: ['leverage', 'leveraged', 'long', 'short', 'perp', 'perpetual', 'position', 'trade', 'trading', 'stop', 'loss', 'risk', 'size', 'margin', 'liquidation', 'hyperliquid', 'futures'],
  },
  {
    key: 'research',
    skills: ['polymarket-deep-research'],
    pattern: /\b(?:research|researching|deep[- ]dive)\b/i,
    topic: ['research', 'polymarket', 'prediction', 'source', 'sources'],
  },
  {
    key: 'bets',
    skills: ['polymarket'],
    pattern: /\b(?:bet|bets|betting|odds|predictions?|polymarket)\b/i,
    topic: ['bet', 'betting', 'odds', 'prediction', 'polymarket', 'stake', 'wager', 'gamble', 'gambling', 'market'],
  },
  {
    key: 'swap',
    skills: ['solana-swap'],
    pattern: /\b(?:swap|swaps|swapping|swapped)\b/i,
    topic: ['swap', 'trade', 'trading', 'slippage', 'token', 'buy', 'sell', 'dex'],
  },
  {
    key: 'portfolio',
    skills: ['portfolio-tracker'],
    pattern: /\b(?:portfolio|balances?|pnl|holdings)\b|\bp&l\b/i,
    topic: ['portfolio', 'balance', 'pnl', 'holding', 'exposure', 'report'],
  },
  {
    key: 'wallet',
    skills: ['evm-wallet', 'solana-wallet'],
    pattern: /\b(?:wallets?|address|addresses)\b/i,
    topic: ['wallet', 'address', 'key', 'keys', 'withdraw', 'transfer', 'send', 'fund', 'funds'],
  },
  {
    key: 'chain',
    skills: ['chain-registry'],
    pattern: /\b(?:chains?|bridge|bridges|bridging|networks?)\b/i,
    topic: ['chain', 'bridge', 'bridging', 'network', 'fund', 'funds'],
  },
  {
    key: 'market',
    skills: ['market-intel'],
    pattern: /\b(?:markets?|prices?|news)\b/i,
    topic: ['market', 'price', 'news', 'data', 'source', 'sources'],
  },
];

/** Which intents a message carries, in routing-table order. */
export function detectIntents(message: string): Intent['key'][] {
  return INTENTS.filter((i) => i.pattern.test(message)).map((i) => i.key);
}

function skillEnabled(agent: AgentForReply, name: string): boolean {
  const v = agent.skills?.[name];
  if (typeof v === 'boolean') return v;
  return SKILLS.find((s) => s.name === name)?.defaultEnabled ?? false;
}

/** How a shell user writes the agent reference: bare when safe, single-quoted otherwise. */
function shellAgentRef(agent: AgentForReply): string {
  const name = agent.name ?? '';
  if (!name.trim() || /[\u0000-\u001f\u007f]/.test(name)) return agent.agent_id;
  if (/^[A-Za-z0-9._@%+=:,/-]+$/.test(name)) return name;
  return `'${name.replace(/'/g, `'\\''`)}'`;
}

export function enableHint(agent: AgentForReply, skill: string): string {
  return `enable it with \`superagent skills enable ${shellAgentRef(agent)} ${skill}\``;
}

// =============================================================================================
// Rules relevant to a message

const STOP_WORDS = new Set(
  ('a an the and or but if then than to of in on at for with by from as is are be been being it its this that these those ' +
    'i me my you your we our they them their he she his her never always must do dont don t not no any more less ' +
    'use using used only ever every all each some can will would should could may might just very so too also per ' +
    'over under above below into out up down about what when where which who how why').split(' '),
);

function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 3 && word.endsWith('ies')) return word.slice(0, -3) + 'y';
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(/[a-z0-9]+/g)) {
    const w = m[0];
    if (STOP_WORDS.has(w)) continue;
    // "2x", "10x": a leverage figure is about leverage, whatever the number.
    out.add(/^\d+x$/.test(w) ? 'leverage' : stem(w));
  }
  return out;
}

/** Concept → weight: words of the message itself weigh 3, words of its topics 1. */
function messageConcepts(message: string, intents: Intent['key'][], symbols: string[]): Map<string, number> {
  const concepts = new Map<string, number>();
  const add = (w: string, weight: number) => concepts.set(w, Math.max(weight, concepts.get(w) ?? 0));
  for (const w of contentWords(message)) add(w, 3);
  for (const intent of INTENTS) {
    if (!intents.includes(intent.key)) continue;
    for (const w of intent.topic) add(stem(w), 1);
  }
  for (const s of symbols) {
    const info = assetInfo(s);
    add(s.toLowerCase(), 3);
    if (info) add(stem(info.name.toLowerCase()), 3);
    if (info?.meme) for (const w of ['meme', 'memecoin', 'shitcoin']) add(w, 2);
  }
  return concepts;
}

/** The rule most related to the message, or null when none shares a concept with it. */
export function relevantRule(rules: readonly string[], message: string): string | null {
  const intents = detectIntents(message);
  const concepts = messageConcepts(message, intents, findSymbols(message));
  let best: string | null = null;
  let bestScore = 0;
  for (const rule of rules) {
    let score = 0;
    for (const w of contentWords(rule)) score += concepts.get(w) ?? 0;
    if (score > bestScore) {
      best = rule;
      bestScore = score;
    }
  }
  return best;
}

// =============================================================================================
// "remember …"

/** Up to the end of the first sentence: "remember that I prefer SOL. How is it doing?" keeps the first. */
function firstSentence(text: string): string {
  const end = /[.!?](?=\s+\S)/.exec(text);
  return end ? text.slice(0, end.index + 1) : text;
}

/**
 * The note a message asks to remember: "remember that I prefer SOL" → "I prefer SOL",
 * "Please remember: no memecoins" → "no memecoins". Only an imperative "remember" counts (at the
 * start of a sentence, or after please / also / and / can you …), so "I can't remember the
 * price" is not a note. One line, at most 500 characters; null when there is none.
 */
export function extractRemember(message: string): string | null {
  const re =
    /(?:^|[.!?;\n]\s*|\b(?:please|pls|plz|also|and|kindly|to|can you|could you|would you|will you|always|do)\s+)remember\b/gi;
  for (const m of message.matchAll(re)) {
    let rest = message.slice((m.index ?? 0) + m[0].length);
    rest = rest.replace(/^[\s:,\-–—]+/, '');
    rest = rest.replace(/^(?:that|this|the following)\b[\s:,\-–—]*/i, '');
    rest = firstSentence(singleLine(rest));
    if (!/[^\s\p{P}]/u.test(rest)) continue;
    rest = clipChars(rest, REMEMBER_MAX_CHARS);
    return rest;
  }
  return null;
}

// =============================================================================================
// Composing the reply

interface Section {
  text: string;
  /** higher survives longer when the reply is too long */
  keep: number;
  /** layout: 'lead' joins the first paragraph, 'item' is a list line, 'line' its own line */
  kind: 'lead' | 'item' | 'line';
}

function opening(agent: AgentForReply, soul: SoulProfile, rng: () => number): string {
  const name = clipWords(agent.name || 'Your agent', 10, 100);
  const identity = soul.identity;
  if (!identity) return pick(rng, [`${name} here.`, `This is ${name}.`, `${name} reporting in.`]);
  if (soul.identitySource === 'statement' && /^(a|an|the|your|one)\s/i.test(identity)) {
    return pick(rng, [`${name} here, ${identity}.`, `${name} here, speaking as ${identity}.`]);
  }
  return pick(rng, [`${identity} here.`, `This is ${identity}.`, `${identity} reporting in.`]);
}

function requestedLeverage(message: string): number | null {
  const m = /\b(\d+(?:\.\d+)?)\s?x\b/i.exec(message) ?? /\bleverage\s+(?:of\s+)?(\d+(?:\.\d+)?)\b/i.exec(message);
  if (!m || !m[1]) return null;
  const n = Number(m[1]);
  return Number.isFinite(n) && n >= 1 ? Math.min(n, 50) : null;
}

/** The leverage a rule allows, when the rule is about leverage at all. */
function leverageCap(rule: string | null): number | null {
  if (!rule || !/leverag/i.test(rule)) return null;
  const m = /(\d+(?:\.\d+)?)\s?x\b/i.exec(rule);
  if (m && m[1]) return Math.max(1, Number(m[1]));
  if (/\b(never|no|don't|do not|avoid|without)\b/i.test(rule)) return 1;
  return null;
}

function requestedUsd(message: string): number | null {
  const m =
    /\$\s?(\d[\d,]*(?:\.\d+)?)\s*(k|m)?\b/i.exec(message) ??
    /\b(\d[\d,]*(?:\.\d+)?)\s*(k|m)?\s*(?:usd|usdc|usdt|dollars|bucks)\b/i.exec(message);
  if (!m || !m[1]) return null;
  let n = Number(m[1].replace(/,/g, ''));
  if (m[2]?.toLowerCase() === 'k') n *= 1_000;
  if (m[2]?.toLowerCase() === 'm') n *= 1_000_000;
  return Number.isFinite(n) && n > 0 ? n : null;
}

function formatAmount(n: number): string {
  if (n >= 1000) return formatNumber(n, 0);
  if (n >= 1) return formatNumber(roundSig(n, 4), n >= 100 ? 1 : 2);
  return String(roundSig(n, 4));
}

interface PlanContext {
  agent: AgentForReply;
  message: string;
  snapshot: Quote[];
  symbols: string[];
  rule: string | null;
  rng: () => number;
  /** what each enabled skill's tool returned: the plan quotes these figures, never its own */
  found: ReadonlyMap<string, Record<string, unknown>>;
}

function found(ctx: PlanContext, skill: string, key: string): unknown {
  return ctx.found.get(skill)?.[key];
}

function focusQuote(ctx: PlanContext, fallback: string): Quote {
  const sym = ctx.symbols[0] ?? fallback;
  return quoteOf(ctx.snapshot, sym) ?? (ctx.snapshot[0] as Quote);
}

function perpsPlan(ctx: PlanContext): string {
  const q = focusQuote(ctx, 'BTC');
  const side = /\bshort/i.test(ctx.message) && !/\blong\b/i.test(ctx.message) ? 'short' : 'long';
  const wanted = requestedLeverage(ctx.message) ?? 2;
  const cap = leverageCap(ctx.rule);
  const lev = cap !== null && wanted > cap ? cap : wanted;
  const notional = requestedUsd(ctx.message) ?? intBetween(ctx.rng, 10, 50) * 50;
  const stopPct = between(ctx.rng, 1.2, 3) / 100;
  const dir = side === 'long' ? 1 : -1;
  const stop = roundSig(q.price * (1 - dir * stopPct), 5);
  const target = roundSig(q.price * (1 + dir * stopPct * 2), 5);
  const capped = cap !== null && wanted > cap ? ` (you asked for ${formatNumber(wanted, wanted % 1 ? 1 : 0)}x; my rule caps it)` : '';
  const funding = Number(found(ctx, 'hyperliquid', 'funding_rate'));
  return (
    `Hyperliquid plan (simulated): ${side} ${q.symbol}-PERP at ${formatUsd(q.price)}, ` +
    `${formatNumber(lev, lev % 1 ? 1 : 0)}x on $${formatNumber(notional, 0)} notional${capped}, ` +
    `stop ${formatUsd(stop)}, target ${formatUsd(target)}` +
    (Number.isFinite(funding) ? `; funding ${(funding * 100).toFixed(4)}%/h.` : '.')
  );
}

function betsPlan(ctx: PlanContext): string {
  const markets = found(ctx, 'polymarket', 'markets') as Array<{ yes_price: number }> | undefined;
  const odds = Math.round((markets?.[0]?.yes_price ?? 0.5) * 100);
  const stake = requestedUsd(ctx.message) ?? intBetween(ctx.rng, 2, 20) * 25;
  return (
    `Polymarket plan (simulated): find the market, compare its ${odds}% implied odds with my own estimate, ` +
    `and stake $${formatNumber(stake, 0)} only if the edge beats 5 points.`
  );
}

function researchPlan(ctx: PlanContext): string {
  const p = Math.round(Number(found(ctx, 'polymarket-deep-research', 'probability') ?? 0.5) * 100);
  const sources = Number(found(ctx, 'polymarket-deep-research', 'sources') ?? 12);
  return (
    `Deep research (simulated): read the resolution rules, ${sources} recent sources and the order-book depth, ` +
    `then give a probability; a first pass puts it near ${p}%.`
  );
}

function swapPlan(ctx: PlanContext): string {
  const from = ctx.symbols[0] ?? 'SOL';
  const to = ctx.symbols[1] ?? 'USDC';
  const pFrom = quoteOf(ctx.snapshot, from)?.price ?? 1;
  const pTo = to === 'USDC' ? 1 : quoteOf(ctx.snapshot, to)?.price ?? 1;
  const amountMatch = /\b(\d+(?:\.\d+)?)\s*\$?([A-Za-z]+)\b/.exec(ctx.message);
  let amount: number | null = null;
  if (amountMatch && amountMatch[1] && findSymbols(amountMatch[2] ?? '')[0] === from) amount = Number(amountMatch[1]);
  if (amount === null || !Number.isFinite(amount) || amount <= 0) {
    const usd = requestedUsd(ctx.message) ?? intBetween(ctx.rng, 5, 40) * 25;
    amount = roundSig(usd / pFrom, 3);
  }
  const out = (amount * pFrom * 0.997) / pTo;
  const slippage = pick(ctx.rng, ['0.3', '0.5', '1.0']);
  return (
    `Solana swap (simulated): ${formatAmount(amount)} ${from} for about ${formatAmount(out)} ${to} ` +
    `on the best route, max slippage ${slippage}%.`
  );
}

function portfolioPlan(ctx: PlanContext): string {
  const sol = quoteOf(ctx.snapshot, 'SOL') as Quote;
  const eth = quoteOf(ctx.snapshot, 'ETH') as Quote;
  return (
    `Portfolio (simulated): I pull balances from both wallets and mark them to market at SOL ${formatUsd(sol.price)} ` +
    `and ETH ${formatUsd(eth.price)}; 24h PnL follows SOL's ${formatPct(sol.change24h)}.`
  );
}

function walletPlan(ctx: PlanContext): string {
  return (
    `Wallets: my EVM and Solana addresses are ready; \`superagent wallet ${shellAgentRef(ctx.agent)}\` shows both, ` +
    `and private keys never leave my container.`
  );
}

function chainPlan(ctx: PlanContext): string {
  const chain = String(found(ctx, 'chain-registry', 'chain') ?? 'Ethereum');
  const id = String(found(ctx, 'chain-registry', 'chain_id') ?? 1);
  return (
    `Chain registry (simulated): I confirm chain id, RPC and bridge route first, ` +
    `for example ${chain} (chain id ${id}), before moving funds.`
  );
}

function marketPlan(ctx: PlanContext, quotes: Quote[]): string {
  const headlines = found(ctx, 'market-intel', 'headlines') as string[] | undefined;
  const news = headlines?.[0] ? `; top headline: "${headlines[0]}"` : '';
  return `Market read (simulated): ${quotes.map(formatQuote).join(', ')}; the tape looks ${toneOf(quotes)}${news}.`;
}

const LABELS: Record<Intent['key'], string> = {
  perps: 'Perpetuals trading',
  research: 'Deep research',
  bets: 'Prediction-market betting',
  swap: 'Swapping',
  portfolio: 'Portfolio tracking',
  wallet: 'Wallet access',
  chain: 'Chain lookups',
  market: 'Live market intel',
};

const FILLERS: readonly string[] = [
  'Position sizes stay small until a setup proves itself.',
  'I size every trade so a single loss stays a small one.',
  'Ask for a plan, a price check or a portfolio report whenever you like.',
  'I will flag it here if anything moves sharply.',
  'Everything above is simulated, and nothing was executed.',
  'Risk first, returns second: that is how I stay in the game.',
];

function assemble(sections: Section[]): string {
  const lead = sections.filter((s) => s.kind === 'lead').map((s) => s.text);
  const lines: string[] = [];
  if (lead.length) lines.push(lead.join(' '));
  for (const s of sections) {
    if (s.kind === 'item') lines.push(`- ${s.text}`);
    else if (s.kind === 'line') lines.push(s.text);
  }
  return lines
    .map((l) => l.replace(/\s+$/u, ''))
    .filter((l) => l !== '')
    .join('\n')
    .trim();
}

function fitLength(sections: Section[], rng: () => number, min: number, max: number): string {
  const parts = [...sections];
  let text = assemble(parts);
  while (wordCount(text) > max) {
    let lowest = -1;
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i] as Section;
      if (p.keep < 100 && (lowest < 0 || p.keep < (parts[lowest] as Section).keep)) lowest = i;
    }
    if (lowest < 0) break;
    parts.splice(lowest, 1);
    text = assemble(parts);
  }
  if (wordCount(text) > max) {
    // Only reachable with pathological input: keep the first `max` words, line breaks collapsed.
    text = clipWords(text, max, 4000);
  }
  const pool = [...FILLERS];
  while (wordCount(text) < min && pool.length) {
    const i = Math.floor(rng() * pool.length);
    const [filler] = pool.splice(i, 1);
    // Before the closing line, which stays last.
    parts.splice(Math.max(0, parts.length - 1), 0, { text: filler as string, keep: 1, kind: 'line' });
    text = assemble(parts);
  }
  return text;
}

/**
 * The agent's reply to `message`, given the session's earlier turns. Deterministic: the same
 * agent, history and message always give the same reply.
 */
export function composeAgentReply(agent: AgentForReply, history: Turn[], message: string): AgentReply {
  const msg = typeof message === 'string' ? message : '';
  const turns = Array.isArray(history) ? history : [];
  const soul = parseSoul(agent.soul_md ?? '');
  const remember = extractRemember(msg);

  const skillsKey = Object.keys(agent.skills ?? {})
    .sort()
    .map((k) => `${k}=${agent.skills[k] ? 1 : 0}`)
    .join(',');
  const ref = digest(
    'agent-reply',
    agent.agent_id ?? '',
    agent.name ?? '',
    agent.description ?? '',
    agent.model ?? '',
    agent.model_provider ?? '',
    agent.soul_md ?? '',
    skillsKey,
    JSON.stringify(turns.map((t) => [t.role, t.content])),
    msg,
  );
  const rng = seededRng(ref);
  const snapshot = marketSnapshot(`${agent.agent_id ?? ''}\u0000${msg}\u0000${turns.length}`);

  const symbols = findSymbols(msg);
  const intents = detectIntents(msg);
  const asksRules = /\b(?:your|my|the)\s+(?:rules|guardrails|principles)\b|\brules\?/i.test(msg);
  const rule = asksRules ? null : relevantRule(soul.rules, msg);
  const foundBySkill = new Map<string, Record<string, unknown>>();
  const toolCalls: ToolCall[] = [];
  const ctx: PlanContext = { agent, message: msg, snapshot, symbols, rule, rng, found: foundBySkill };

  const sections: Section[] = [];
  sections.push({ text: opening(agent, soul, rng), keep: 100, kind: 'lead' });

  if (turns.length > 0) {
    const previous = lastUserTurn(turns);
    sections.push({
      text: previous ? `Following up on "${dropFinalStop(clipWords(previous.content, 8, 80))}":` : 'Picking up where we left off:',
      keep: 90,
      kind: 'lead',
    });
  }

  if (remember !== null) {
    sections.push({ text: `Noted, I will remember: "${dropFinalStop(clipWords(remember, 12, 100))}".`, keep: 100, kind: 'lead' });
  }

  // Skills the message needs: a plan when enabled, a hint when not. Three at most.
  const handled = new Set<string>();
  const focus = symbols.length ? symbols.slice(0, 3) : ['BTC', 'ETH', 'SOL'];
  const focusQuotes = focus.map((s) => quoteOf(snapshot, s)).filter((q): q is Quote => q !== undefined);
  let marketLineDone = false;
  let used = 0;
  for (const intent of INTENTS) {
    if (!intents.includes(intent.key) || used >= 3) continue;
    used++;
    const disabled = intent.skills.filter((s) => !skillEnabled(agent, s));
    for (const skill of disabled) {
      if (handled.has(skill)) continue;
      handled.add(skill);
      sections.push({
        text: `${LABELS[intent.key]} needs the ${skill} skill, which is disabled for me; ${enableHint(agent, skill)}.`,
        keep: 95,
        kind: 'item',
      });
    }
    if (disabled.length > 0) continue;
    for (const skill of intent.skills) {
      const tool = simulateTool(skill, { seed: ref, message: msg, symbols, snapshot });
      if (!tool) continue;
      foundBySkill.set(skill, tool.data);
      // past the cap a tool still informs the plan; only the report of calls is kept short
      if (toolCalls.length < MAX_TOOL_CALLS) toolCalls.push(tool.call);
    }
    let plan: string;
    switch (intent.key) {
      case 'perps':
        plan = perpsPlan(ctx);
        break;
      case 'research':
        plan = researchPlan(ctx);
        break;
      case 'bets':
        plan = betsPlan(ctx);
        break;
      case 'swap':
        plan = swapPlan(ctx);
        break;
      case 'portfolio':
        plan = portfolioPlan(ctx);
        break;
      case 'wallet':
        plan = walletPlan(ctx);
        break;
      case 'chain':
        plan = chainPlan(ctx);
        break;
      case 'market':
        plan = marketPlan(ctx, focusQuotes);
        marketLineDone = true;
        break;
    }
    sections.push({ text: plan, keep: 80 - used, kind: 'item' });
  }

  if (asksRules) {
    const listed = soul.rules.slice(0, 3).map((r, i) => `${i + 1}) ${dropFinalStop(clipWords(r, 12, 100))}`);
    sections.push({
      text: listed.length
        ? `My rules: ${listed.join('; ')}.`
        : 'My soul lists no explicit rules, so I default to small sizes and hard stops.',
      keep: 85,
      kind: 'line',
    });
  }

  if (intents.length === 0 && !asksRules && remember === null) {
    const brief = agent.description?.trim()
      ? `My brief: ${dropFinalStop(clipWords(agent.description, 14, 120))}.`
      : 'Nothing in that asks me to act, so I keep watching for a clean setup.';
    sections.push({ text: brief, keep: 40, kind: 'line' });
  }

  if (!marketLineDone) {
    const prefix = intents.includes('market') ? 'Last simulated snapshot I hold' : 'Simulated snapshot';
    sections.push({ text: `${prefix}: ${focusQuotes.map(formatQuote).join(', ')}.`, keep: 60, kind: 'line' });
  }

  if (rule) {
    sections.push({ text: `I keep my rule: "${dropFinalStop(clipWords(rule, 18, 140))}".`, keep: 97, kind: 'line' });
  }

  sections.push({ text: `Simulation only; ref ${ref.slice(0, 8)}.`, keep: 100, kind: 'line' });

  const content = fitLength(sections, rng, REPLY_MIN_WORDS, REPLY_MAX_WORDS);
  return { content, remember, toolCalls };
}

// =============================================================================================
// Streaming pieces

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff01-\uff60]/u;
const SPACE = /^\s+$/u;
/** [ours] a run without spaces is cut into units of at most this many characters (graphemes) */
const MAX_UNIT_GRAPHEMES = 12;
/** [ours] units per piece, cycled: pieces of 1–3 words */
const PIECE_PATTERN = [2, 1, 3, 2, 2, 1, 3] as const;

/**
 * Cut text into small pieces for streaming: 1–3 words each, with their whitespace, so that
 * `pieces.join('') === text`. Never cuts inside a grapheme (so never inside a surrogate pair or
 * an emoji sequence); CJK characters count as words; a long run without spaces is cut every
 * few characters.
 */
/** The latest non-empty message of the user in a history, if any. */
export function lastUserTurn(history: readonly Turn[]): Turn | undefined {
  return [...history].reverse().find((t) => t.role === 'user' && typeof t.content === 'string' && t.content.trim());
}

export function splitIntoPieces(text: string): string[] {
  if (typeof text !== 'string' || text === '') return [];
  const units: string[] = [];
  let cur = '';
  let curGraphemes = 0; // non-space graphemes in cur
  let curHasTrailingSpace = false;
  let curWide = false;
  const flush = () => {
    if (cur !== '') units.push(cur);
    cur = '';
    curGraphemes = 0;
    curHasTrailingSpace = false;
    curWide = false;
  };
  for (const { segment } of segmenter.segment(text)) {
    if (SPACE.test(segment)) {
      cur += segment;
      curHasTrailingSpace = true;
      continue;
    }
    const wide = WIDE.test(segment);
    const startsNew = curGraphemes > 0 && (curHasTrailingSpace || wide || curWide || curGraphemes >= MAX_UNIT_GRAPHEMES);
    if (startsNew) flush();
    // Leading whitespace (cur holds only spaces) stays with the first word.
    cur += segment;
    curGraphemes++;
    curHasTrailingSpace = false;
    curWide = wide;
  }
  flush();

  const pieces: string[] = [];
  let i = 0;
  let k = 0;
  while (i < units.length) {
    const n = PIECE_PATTERN[k % PIECE_PATTERN.length] as number;
    pieces.push(units.slice(i, i + n).join(''));
    i += n;
    k++;
  }
  return pieces;
}
