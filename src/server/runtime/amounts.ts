// The figures a message names (docs/api.md): dollars, leverage, a token amount. Pure.
//
// Every pattern here runs on user text of up to 32 KiB, so each is linear: its quantifiers are
// bounded, so the work from any one position is bounded too. An unbounded `[\d,]*` once let
// "1,1,1,…" (32 KB) hold the event loop for seconds.

/** [ours] a figure: at most 31 digits and commas, then at most 10 decimals */
const FIGURE = String.raw`\d[\d,]{0,30}(?:\.\d{1,10})?`;
/**
 * The same figure, its digits and commas taken whole: `(?=(x))\k` matches like an atomic group, so
 * a failed match is not retried on each shorter run of "1,1,1,…". Only where nothing that may
 * follow the figure can follow a digit or comma: "$1,000," needs the retry to end before the comma.
 */
const WHOLE_FIGURE = String.raw`(?=(?<run>\d[\d,]{0,30}))\k<run>(?:\.\d{1,10})?`;
/** [ours] white space allowed around a figure's unit: a few characters, not any run */
const GAP = String.raw`\s{0,4}`;

const USD_SIGN = new RegExp(String.raw`\$\s?(?<figure>${FIGURE})${GAP}(?<unit>k|m)?\b`, 'i');
const USD_WORD = new RegExp(
  String.raw`\b(?<figure>${WHOLE_FIGURE})${GAP}(?<unit>k|m)?${GAP}(?:usd|usdc|usdt|dollars|bucks)\b`,
  'i',
);
const LEVERAGE_X = /\b(\d{1,9}(?:\.\d{1,4})?)\s?x\b/i;
const LEVERAGE_WORD = /\bleverage\s{1,4}(?:of\s{1,4})?(\d{1,9}(?:\.\d{1,4})?)\b/i;
/** in a soul's rule the figure may follow a word: "max2x" */
const RULE_LEVERAGE = /(\d{1,9}(?:\.\d{1,4})?)\s?x\b/i;
const TOKEN_AMOUNT = /\b(\d{1,15}(?:\.\d{1,10})?)\s{0,4}\$?([A-Za-z]{1,20})\b/;

/** Dollars a message names: "$500", "$1.5k", "250 usdc", "2m dollars"; null when none. */
export function requestedUsd(message: string): number | null {
  const m = (USD_SIGN.exec(message) ?? USD_WORD.exec(message))?.groups;
  if (!m || !m.figure) return null;
  let n = Number(m.figure.replace(/,/g, ''));
  const unit = m.unit?.toLowerCase();
  if (unit === 'k') n *= 1_000;
  if (unit === 'm') n *= 1_000_000;
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** Leverage a message asks for ("3x", "leverage of 5"), at most 50; null when none. */
export function requestedLeverage(message: string): number | null {
  const m = LEVERAGE_X.exec(message) ?? LEVERAGE_WORD.exec(message);
  if (!m || !m[1]) return null;
  const n = Number(m[1]);
  return Number.isFinite(n) && n >= 1 ? Math.min(n, 50) : null;
}

/** The leverage a rule allows, when the rule is about leverage at all. */
export function leverageCap(rule: string | null): number | null {
  if (!rule || !/leverag/i.test(rule)) return null;
  const m = RULE_LEVERAGE.exec(rule);
  if (m && m[1]) return Math.max(1, Number(m[1]));
  if (/\b(never|no|don't|do not|avoid|without)\b/i.test(rule)) return 1;
  return null;
}

/** The first "<number> <word>" of a message ("2.5 SOL", "10 $bonk"): the amount and the word. */
export function requestedAmount(message: string): { amount: number; word: string } | null {
  const m = TOKEN_AMOUNT.exec(message);
  if (!m || !m[1] || !m[2]) return null;
  return { amount: Number(m[1]), word: m[2] };
}
