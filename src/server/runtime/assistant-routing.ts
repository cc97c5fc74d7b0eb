// How the assistant reads a question (docs/api.md): which specialists it goes to (by keywords)
// and whether it asks for JSON (`Respond as JSON with:` / `Respond as JSON array with:`).
// Pure: no clock, no Math.random(), no I/O.

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
  macro: [
    'fed',
    'fomc',
    'rates',
    'rate cut',
    'rate hike',
    'interest rate',
    'inflation',
    'cpi',
    'dxy',
    'macro',
    'yields',
    'treasury',
  ],
  microstructure: [
    'funding',
    'open interest',
    'order book',
    'orderbook',
    'liquidations',
    'liquidation',
    'basis',
    'perp',
    'perps',
    'spread',
    'depth',
  ],
  fundamentals: [
    'tvl',
    'revenue',
    'tokenomics',
    'unlock',
    'unlocks',
    'fees',
    'fundamentals',
    'fundamental',
    'emissions',
    'supply',
  ],
  'price movement': [
    'price',
    'pump',
    'dump',
    'rally',
    'rallies',
    'move',
    'moves',
    'moving',
    'why',
    'chart',
    'support',
    'resistance',
    'breakout',
    'crash',
  ],
  trenches: [
    'memecoin',
    'meme',
    'pump.fun',
    'degen',
    'trenches',
    'new tokens',
    'launch',
    'launches',
    'launched',
    'rug',
  ],
  'prediction markets': [
    'polymarket',
    'kalshi',
    'odds',
    'election',
    'prediction',
    'predictions',
    'bet',
    'bets',
    'betting',
  ],
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

const ROUTES: readonly [string, RegExp[]][] = SPECIALISTS.map((s) => [
  s,
  (SPECIALIST_KEYWORDS[s] ?? []).map(keywordPattern),
]);

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
export function jsonRequestAt(message: string): { index: number; end: number; array: boolean } | null {
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
  const fields = new Set<string>(); // a Set: thousands of fields must not cost thousands² comparisons
  for (const part of list.split(',')) {
    const field = part.trim().replace(/\.$/, '').trim();
    if (field !== '') fields.add(field);
  }
  return fields.size ? { fields: [...fields], array: at.array } : null;
}
