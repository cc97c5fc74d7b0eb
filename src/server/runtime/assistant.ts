// The market-intelligence assistant (API-CONTRACT.md §5, §9): routes a query to specialists by
// keywords, answers with a plain-text brief, or — when the message says `Respond as JSON with:` /
// `Respond as JSON array with:` — with a JSON string holding exactly the requested keys.
// Pure: no clock, no Math.random(), no I/O.

import {
  ASSETS,
  assetInfo,
  between,
  digest,
  findSymbols,
  formatCompactUsd,
  formatNumber,
  formatPct,
  formatQuote,
  formatUsd,
  intBetween,
  marketSnapshot,
  pick,
  quoteOf,
  round2,
  roundSig,
  seededRng,
  toneOf,
  type AssetInfo,
  type Quote,
} from './market.js';
import { clipChars, clipWords, lastUserTurn, singleLine, wordCount, type Turn } from './text.js';

export type { Turn } from './text.js';

export const SPECIALISTS: readonly string[] = Object.freeze([
  'macro',
  'microstructure',
  'fundamentals',
  'price movement',
  'trenches',
  'prediction markets',
]);

/** [ours] keyword routing table: a query goes to every specialist one of whose words it contains */
export const SPECIALIST_KEYWORDS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  macro: ['fed', 'fomc', 'rates', 'rate cut', 'rate hike', 'interest rate', 'inflation', 'cpi', 'dxy', 'macro', 'yields', 'treasury'],
  microstructure: ['funding', 'open interest', 'order book', 'orderbook', 'liquidations', 'liquidation', 'basis', 'perp', 'perps', 'spread', 'depth'],
  fundamentals: ['tvl', 'revenue', 'tokenomics', 'unlock', 'unlocks', 'fees', 'fundamentals', 'fundamental', 'emissions', 'supply'],
  'price movement': ['price', 'pump', 'dump', 'rally', 'rallies', 'move', 'moves', 'moving', 'why', 'chart', 'support', 'resistance', 'breakout', 'crash'],
  trenches: ['memecoin', 'meme', 'pump.fun', 'degen', 'trenches', 'new tokens', 'launch', 'launches', 'launched', 'rug'],
  'prediction markets': ['polymarket', 'kalshi', 'odds', 'election', 'prediction', 'predictions', 'bet', 'bets', 'betting'],
});

/** [ours] when no keyword matches */
export const DEFAULT_SPECIALISTS: readonly string[] = Object.freeze(['price movement', 'macro']);

function keywordPattern(keyword: string): RegExp {
  const body = keyword
    .split(/\s+/)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[\\s_-]+');
  return new RegExp(`(?<![a-z0-9])${body}(?:s|es|ed|ing)?(?![a-z0-9])`, 'i');
}

const ROUTES: readonly [string, RegExp[]][] = SPECIALISTS.map((s) => [s, (SPECIALIST_KEYWORDS[s] ?? []).map(keywordPattern)]);

/** The specialists a query goes to, in SPECIALISTS order; "price movement" + "macro" when none match. */
export function routeSpecialists(text: string): string[] {
  const hit = ROUTES.filter(([, patterns]) => patterns.some((p) => p.test(text))).map(([s]) => s);
  return hit.length ? hit : [...DEFAULT_SPECIALISTS];
}

// =============================================================================================
// "Respond as JSON with: a, b, c"

export interface JsonRequest {
  fields: string[];
  array: boolean;
}

const JSON_REQUEST = /respond[ \t]+as[ \t]+json(?:[ \t]+(array))?[ \t]+with[ \t]*:/gi;

/** Where the (last) JSON request starts in the message, or null. */
function jsonRequestAt(message: string): { index: number; end: number; array: boolean } | null {
  let found: { index: number; end: number; array: boolean } | null = null;
  for (const m of message.matchAll(JSON_REQUEST)) {
    found = { index: m.index ?? 0, end: (m.index ?? 0) + m[0].length, array: m[1] !== undefined };
  }
  return found;
}

/**
 * The structured-output request in a message: the comma-separated fields after
 * `Respond as JSON with:` (or `Respond as JSON array with:`), up to the end of that line — each
 * trimmed, a trailing period dropped, empty ones and repeats dropped. Null when the phrase is
 * absent or no field remains. When the phrase appears twice, the last one counts (the CLI's
 * `--fields` appends it to the question).
 */
export function parseJsonRequest(message: string): JsonRequest | null {
  if (typeof message !== 'string') return null;
  const at = jsonRequestAt(message);
  if (!at) return null;
  const rest = message.slice(at.end);
  const eol = rest.search(/\r\n|\r|\n/);
  const list = eol < 0 ? rest : rest.slice(0, eol);
  const fields: string[] = [];
  for (const part of list.split(',')) {
    const field = part.trim().replace(/\.$/, '').trim();
    if (field !== '' && !fields.includes(field)) fields.push(field);
  }
  return fields.length ? { fields, array: at.array } : null;
}

// =============================================================================================
// Field values

type FieldKind =
  | 'boolean'
  | 'date'
  | 'url'
  | 'percent'
  | 'probability'
  | 'rating'
  | 'integer'
  | 'price'
  | 'symbol'
  | 'name'
  | 'sentiment'
  | 'sentence'
  | 'text';

const KIND_BY_WORD: Readonly<Record<string, FieldKind>> = {
  date: 'date', time: 'date', timestamp: 'date', datetime: 'date', at: 'date', when: 'date', expiry: 'date', expires: 'date', deadline: 'date',
  url: 'url', link: 'url', links: 'url', href: 'url', uri: 'url', website: 'url',
  change: 'percent', pct: 'percent', percent: 'percent', percentage: 'percent', return: 'percent', returns: 'percent', roi: 'percent', apy: 'percent', apr: 'percent', yield: 'percent',
  confidence: 'probability', probability: 'probability', prob: 'probability', score: 'probability', likelihood: 'probability',
  rating: 'rating', rank: 'rating', ranking: 'rating', stars: 'rating',
  volume: 'integer', tvl: 'integer', cap: 'integer', marketcap: 'integer', mcap: 'integer', fdv: 'integer', liquidity: 'integer', count: 'integer',
  holders: 'integer', trades: 'integer', transactions: 'integer', supply: 'integer', interest: 'integer', oi: 'integer',
  price: 'price', usd: 'price', value: 'price', cost: 'price', entry: 'price', exit: 'price', stop: 'price', target: 'price',
  support: 'price', resistance: 'price', high: 'price', low: 'price',
  symbol: 'symbol', ticker: 'symbol', token: 'symbol', asset: 'symbol', coin: 'symbol',
  name: 'name', title: 'name',
  sentiment: 'sentiment', bias: 'sentiment', stance: 'sentiment', mood: 'sentiment',
  summary: 'sentence', reason: 'sentence', reasons: 'sentence', analysis: 'sentence', thesis: 'sentence', description: 'sentence',
  outlook: 'sentence', rationale: 'sentence', explanation: 'sentence', commentary: 'sentence', narrative: 'sentence', notes: 'sentence',
  note: 'sentence', recommendation: 'sentence', insight: 'sentence', verdict: 'sentence',
};

/** Unit words that qualify the noun before them: "volume_usd" is a volume, "price_usd" a price. */
const UNIT_WORDS = new Set(['usd', 'usdc', 'usdt', 'dollars']);

function fieldWords(field: string): string[] {
  const spaced = field.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return Array.from(spaced.matchAll(/[a-z]+|[0-9]+/g), (m) => m[0]);
}

/** What kind of value suits a field name. The last meaningful word decides ("price_change" → percent). */
export function fieldKind(field: string): FieldKind {
  const words = fieldWords(field);
  if (words.length >= 2 && ['is', 'has', 'should', 'can', 'will', 'was', 'did'].includes(words[0] as string)) return 'boolean';
  let unit: FieldKind | null = null;
  for (let i = words.length - 1; i >= 0; i--) {
    const w = words[i] as string;
    const kind = Object.hasOwn(KIND_BY_WORD, w) ? KIND_BY_WORD[w] : undefined; // not "constructor" from the prototype
    if (!kind) continue;
    if (UNIT_WORDS.has(w)) {
      unit ??= kind;
      continue;
    }
    return kind;
  }
  return unit ?? 'text';
}

interface ItemContext {
  asset: AssetInfo;
  quote: Quote;
  rng: () => number;
  specialists: string[];
}

const BASE_TIME = Date.UTC(2026, 0, 1, 0, 0, 0);

function sentimentOf(q: Quote): 'bullish' | 'bearish' | 'neutral' {
  return q.change24h > 1.5 ? 'bullish' : q.change24h < -1.5 ? 'bearish' : 'neutral';
}

function slug(text: string): string {
  const s = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return s.slice(0, 40).replace(/-+$/, '') || 'item';
}

function finite(n: number): number {
  return Number.isFinite(n) ? n : 0;
}

function fieldValue(field: string, ctx: ItemContext): string | number | boolean {
  const { asset, quote, rng } = ctx;
  const words = fieldWords(field);
  const has = (...w: string[]) => w.some((x) => words.includes(x));
  const cap = quote.price * asset.supply;
  switch (fieldKind(field)) {
    case 'boolean':
      if (has('bullish', 'up', 'positive', 'rising', 'green')) return quote.change24h > 0;
      if (has('bearish', 'down', 'negative', 'falling', 'red')) return quote.change24h < 0;
      if (has('meme', 'memecoin')) return asset.meme;
      return rng() < 0.5;
    case 'date': {
      const minutes = intBetween(rng, 0, 60 * 24 * 45);
      return new Date(BASE_TIME + minutes * 60_000).toISOString();
    }
    case 'url':
      return `https://example.com/${slug(field)}/${asset.symbol.toLowerCase()}`;
    case 'percent':
      if (has('change', 'pct', 'percent', 'percentage')) return finite(round2(quote.change24h));
      return finite(round2(between(rng, -25, 40)));
    case 'probability':
      return finite(round2(between(rng, 0.05, 0.95)));
    case 'rating':
      return intBetween(rng, 1, 5);
    case 'integer': {
      let n: number;
      if (has('volume')) n = cap * between(rng, 0.02, 0.12);
      else if (has('cap', 'marketcap', 'mcap', 'fdv')) n = cap;
      else if (has('tvl', 'liquidity')) n = cap * between(rng, 0.004, 0.04);
      else if (has('supply')) n = asset.supply;
      else if (has('interest', 'oi')) n = cap * between(rng, 0.005, 0.03);
      else if (has('count', 'holders', 'trades', 'transactions')) n = intBetween(rng, 120, 250_000);
      else n = intBetween(rng, 1_000, 1_000_000);
      return Math.max(0, Math.round(finite(n)));
    }
    case 'price': {
      let p = quote.price;
      if (has('support', 'stop', 'low')) p = quote.price * between(rng, 0.9, 0.97);
      else if (has('resistance', 'target', 'high', 'exit')) p = quote.price * between(rng, 1.03, 1.12);
      return finite(roundSig(p, 6));
    }
    case 'symbol':
      return asset.symbol;
    case 'name':
      return asset.name;
    case 'sentiment':
      return sentimentOf(quote);
    case 'sentence': {
      const desk = pick(rng, ctx.specialists);
      const lead = `${asset.name} (${asset.symbol}) trades at ${formatUsd(quote.price)}, ${formatPct(quote.change24h)} over 24h`;
      return `${lead}; the ${desk} desk reads it as ${sentimentOf(quote)}.`;
    }
    case 'text':
      return `${clipChars(singleLine(field), 40)} for ${asset.symbol}`;
  }
}

/**
 * One JSON object with exactly `fields` as keys, in order. Built by hand because JavaScript
 * objects put integer-like keys ("1", "2024") first, which would break the requested order.
 */
function jsonObject(fields: readonly string[], ctx: ItemContext): string {
  const members = fields.map((f) => `${JSON.stringify(f)}:${JSON.stringify(fieldValue(f, ctx))}`);
  return `{${members.join(',')}}`;
}

function jsonReply(request: JsonRequest, question: string, seed: string, specialists: string[]): string {
  const rng = seededRng('assistant-json', seed);
  const snapshot = marketSnapshot(seed);
  const mentioned = findSymbols(question);
  const others = ASSETS.map((a) => a.symbol).filter((s) => !mentioned.includes(s));
  // Seeded shuffle of the rest, so an array answer lists varied tokens.
  for (let i = others.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [others[i], others[j]] = [others[j] as string, others[i] as string];
  }
  const order = [...mentioned, ...others];
  const count = request.array ? Math.min(order.length, Math.max(3, Math.min(5, mentioned.length || intBetween(rng, 3, 5)))) : 1;
  const items: string[] = [];
  for (let i = 0; i < count; i++) {
    const symbol = order[i] as string;
    const asset = assetInfo(symbol) as AssetInfo;
    const quote = quoteOf(snapshot, symbol) as Quote;
    items.push(jsonObject(request.fields, { asset, quote, rng: seededRng(seed, 'item', String(i)), specialists }));
  }
  return request.array ? `[${items.join(',')}]` : (items[0] as string);
}

// =============================================================================================
// The plain-text brief

function specialistLine(name: string, rng: () => number, focus: Quote[], snapshot: Quote[]): string {
  const lead = focus[0] as Quote;
  const info = assetInfo(lead.symbol) as AssetInfo;
  switch (name) {
    case 'macro': {
      const dxy = between(rng, 99, 108).toFixed(1);
      const y10 = between(rng, 3.7, 4.8).toFixed(2);
      const cut = intBetween(rng, 15, 85);
      return `Macro: DXY ${dxy}, the US 10-year yield at ${y10}%, and futures put the odds of a Fed cut at the next meeting at ${cut}%.`;
    }
    case 'microstructure': {
      const funding = between(rng, -0.02, 0.03);
      const oi = between(rng, -6, 8);
      const liq = between(rng, 40e6, 600e6);
      return (
        `Microstructure: ${lead.symbol} perp funding ${funding >= 0 ? '+' : ''}${funding.toFixed(4)}% per 8h, ` +
        `open interest ${formatPct(oi)} on the day, ${formatCompactUsd(liq)} liquidated across the market.`
      );
    }
    case 'fundamentals': {
      const cap = lead.price * info.supply;
      const tvl = cap * between(rng, 0.004, 0.04);
      const fees = tvl * between(rng, 0.002, 0.02);
      const unlock = intBetween(rng, 3, 90);
      return `Fundamentals: ${info.name} carries ${formatCompactUsd(tvl)} TVL and ${formatCompactUsd(fees)} in 30-day fees; the next token unlock is ${unlock} days out.`;
    }
    case 'price movement': {
      const support = roundSig(lead.price * between(rng, 0.92, 0.97), 5);
      const resistance = roundSig(lead.price * between(rng, 1.03, 1.08), 5);
      return `Price movement: ${focus.map(formatQuote).join(', ')}; ${lead.symbol} support near ${formatUsd(support)}, resistance near ${formatUsd(resistance)}.`;
    }
    case 'trenches': {
      const memes = snapshot.filter((q) => assetInfo(q.symbol)?.meme).slice(0, 2);
      const launches = intBetween(rng, 8_000, 40_000);
      const flow = memes.reduce((s, q) => s + q.change24h, 0) > 0 ? 'running hot' : 'cooling';
      return `Trenches: memecoin flow is ${flow}; ${memes.map((q) => `${q.symbol} ${formatPct(q.change24h)}`).join(' and ')}, with ${formatNumber(launches)} new tokens launched in a day, mostly noise.`;
    }
    case 'prediction markets': {
      const odds = intBetween(rng, 12, 88);
      const vol = between(rng, 2e6, 90e6);
      const shift = intBetween(rng, 1, 12);
      return `Prediction markets: Polymarket and Kalshi put the headline question near ${odds}% on ${formatCompactUsd(vol)} volume, a ${shift}-point move this week.`;
    }
    default:
      return `${name}: no read.`;
  }
}

const BRIEF_FILLERS: readonly string[] = [
  'Positioning looks balanced, so a sharp move either way would catch a crowd off guard.',
  'Watch the next daily close for confirmation before sizing up.',
  'Liquidity thins out over the weekend, which tends to exaggerate moves.',
  'Ask for a deeper dive on any desk, or add `Respond as JSON with:` for structured output.',
];

function listJoin(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function briefReply(history: Turn[], question: string, seed: string, specialists: string[]): string {
  const rng = seededRng('assistant-brief', seed);
  const snapshot = marketSnapshot(seed);
  const mentioned = findSymbols(question);
  const focus = (mentioned.length ? mentioned.slice(0, 3) : ['BTC', 'ETH', 'SOL'])
    .map((s) => quoteOf(snapshot, s))
    .filter((q): q is Quote => q !== undefined);

  const head: string[] = [];
  const previous = lastUserTurn(history);
  if (history.length > 0) {
    head.push(
      previous
        ? `Building on your earlier question ("${clipWords(previous.content, 8, 80).replace(/[.;:!]+$/, '')}"):`
        : 'Continuing from the last answer:',
    );
  }
  head.push(`Consulted the ${listJoin(specialists)} ${specialists.length === 1 ? 'specialist' : 'specialists'}.`);

  const body = specialists.map((s) => specialistLine(s, rng, focus, snapshot));
  const bottom = `Bottom line: ${toneOf(focus)} tape for now; simulated data, not financial advice.`;

  const build = (lines: string[], fillers: string[]) => [head.join(' '), ...lines, ...fillers, bottom].join('\n');
  let lines = [...body];
  let text = build(lines, []);
  // Six desks can run long: drop the last desk lines (they are named above) until it fits.
  while (wordCount(text) > 150 && lines.length > 1) {
    lines = lines.slice(0, -1);
    text = build(lines, []);
  }
  const fillers: string[] = [];
  const pool = [...BRIEF_FILLERS];
  while (wordCount(text) < 60 && pool.length) {
    const [f] = pool.splice(Math.floor(rng() * pool.length), 1);
    fillers.push(f as string);
    text = build(lines, fillers);
  }
  return text;
}

// =============================================================================================

/**
 * The assistant's answer: a market brief, or a JSON string when the message asks for one.
 * Deterministic for the same history and message.
 */
export function composeAssistantReply(history: Turn[], message: string): { content: string; specialists: string[] } {
  const msg = typeof message === 'string' ? message : '';
  const turns = Array.isArray(history) ? history : [];
  const at = jsonRequestAt(msg);
  const request = parseJsonRequest(msg);
  const question = at && request ? msg.slice(0, at.index) : msg;
  const specialists = routeSpecialists(question);
  const seed = digest('assistant', JSON.stringify(turns.map((t) => [t.role, t.content])), msg);
  const content = request ? jsonReply(request, question, seed, specialists) : briefReply(turns, question, seed, specialists);
  return { content, specialists };
}
