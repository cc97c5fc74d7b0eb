// The assistant's structured answers (docs/api.md): a JSON string with exactly the keys
// asked for, in their order, each with a value plausible for its name. Pure.
import {
  ASSETS,
  assetInfo,
  between,
  findSymbols,
  formatPct,
  formatUsd,
  intBetween,
  marketSnapshot,
  pick,
  quoteOf,
  round2,
  roundSig,
  seededRng,
  type AssetInfo,
  type Quote,
} from './market.js';
import type { JsonRequest } from './assistant-routing.js';

// =============================================================================================
// Field values

export type FieldKind =
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
  date: 'date',
  time: 'date',
  timestamp: 'date',
  datetime: 'date',
  at: 'date',
  when: 'date',
  expiry: 'date',
  expires: 'date',
  deadline: 'date',
  url: 'url',
  link: 'url',
  links: 'url',
  href: 'url',
  uri: 'url',
  website: 'url',
  change: 'percent',
  pct: 'percent',
  percent: 'percent',
  percentage: 'percent',
  return: 'percent',
  returns: 'percent',
  roi: 'percent',
  apy: 'percent',
  apr: 'percent',
  yield: 'percent',
  confidence: 'probability',
  probability: 'probability',
  prob: 'probability',
  score: 'probability',
  likelihood: 'probability',
  rating: 'rating',
  rank: 'rating',
  ranking: 'rating',
  stars: 'rating',
  volume: 'integer',
  tvl: 'integer',
  cap: 'integer',
  marketcap: 'integer',
  mcap: 'integer',
  fdv: 'integer',
  liquidity: 'integer',
  count: 'integer',
  holders: 'integer',
  trades: 'integer',
  transactions: 'integer',
  supply: 'integer',
  interest: 'integer',
  oi: 'integer',
  price: 'price',
  usd: 'price',
  value: 'price',
  cost: 'price',
  entry: 'price',
  exit: 'price',
  stop: 'price',
  target: 'price',
  support: 'price',
  resistance: 'price',
  high: 'price',
  low: 'price',
  symbol: 'symbol',
  ticker: 'symbol',
  token: 'symbol',
  asset: 'symbol',
  coin: 'symbol',
  name: 'name',
  title: 'name',
  sentiment: 'sentiment',
  bias: 'sentiment',
  stance: 'sentiment',
  mood: 'sentiment',
  summary: 'sentence',
  reason: 'sentence',
  reasons: 'sentence',
  analysis: 'sentence',
  thesis: 'sentence',
  description: 'sentence',
  outlook: 'sentence',
  rationale: 'sentence',
  explanation: 'sentence',
  commentary: 'sentence',
  narrative: 'sentence',
  notes: 'sentence',
  note: 'sentence',
  recommendation: 'sentence',
  insight: 'sentence',
  verdict: 'sentence',
};

/** Unit words that qualify the noun before them: "volume_usd" is a volume, "price_usd" a price. */
const UNIT_WORDS = new Set(['usd', 'usdc', 'usdt', 'dollars']);

function fieldWords(field: string): string[] {
  const spaced = field.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return Array.from(spaced.matchAll(/[a-z]+|[0-9]+/g), (m) => m[0]);
}

/** What kind of value suits a field name. The last meaningful word decides ("price_change" → percent). */
export function fieldKind(field: string): FieldKind {
  return kindOfWords(fieldWords(field));
}

function kindOfWords(words: readonly string[]): FieldKind {
  if (words.length >= 2 && ['is', 'has', 'should', 'can', 'will', 'was', 'did'].includes(words[0] as string))
    return 'boolean';
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

/** A requested field, read once for all the items of an answer (thousands of fields are allowed). */
interface FieldSpec {
  field: string;
  words: string[];
  kind: FieldKind;
  /** the key as JSON text */
  key: string;
}

function fieldSpec(field: string): FieldSpec {
  const words = fieldWords(field);
  return { field, words, kind: kindOfWords(words), key: jsonText(field) };
}

function fieldValue({ field, words, kind }: FieldSpec, ctx: ItemContext): string | number | boolean | null {
  const { asset, quote, rng } = ctx;
  const has = (...w: string[]) => w.some((x) => words.includes(x));
  const cap = quote.price * asset.supply;
  switch (kind) {
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
      const lead =
        `${asset.name} (${asset.symbol}) trades at ` +
        `${formatUsd(quote.price)}, ${formatPct(quote.change24h)} over 24h`;
      return `${lead}; the ${desk} desk reads it as ${sentimentOf(quote)}.`;
    }
    case 'text':
      // a field none of its words says anything about: not known, rather than made up from its name
      return null;
  }
}

/**
 * JSON text with DEL and the C1 controls escaped as well (JSON.stringify escapes only C0): a key
 * parses back exactly as asked, and no control character reaches a terminal that prints the text.
 */
function jsonText(value: unknown): string {
  return JSON.stringify(value).replace(
    /[\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * One JSON object with exactly `fields` as keys, in order. Built by hand because JavaScript
 * objects put integer-like keys ("1", "2024") first, which would break the requested order.
 */
function jsonObject(fields: readonly FieldSpec[], ctx: ItemContext): string {
  const members = fields.map((f) => `${f.key}:${jsonText(fieldValue(f, ctx))}`);
  return `{${members.join(',')}}`;
}

export function jsonReply(request: JsonRequest, question: string, seed: string, specialists: string[]): string {
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
  const count = request.array
    ? Math.min(order.length, Math.max(3, Math.min(5, mentioned.length || intBetween(rng, 3, 5))))
    : 1;
  const fields = request.fields.map(fieldSpec);
  const items: string[] = [];
  for (let i = 0; i < count; i++) {
    const symbol = order[i] as string;
    const asset = assetInfo(symbol) as AssetInfo;
    const quote = quoteOf(snapshot, symbol) as Quote;
    items.push(jsonObject(fields, { asset, quote, rng: seededRng(seed, 'item', String(i)), specialists }));
  }
  return request.array ? `[${items.join(',')}]` : (items[0] as string);
}
