// The market-intelligence assistant (docs/api.md): routes a query to specialists by
// keywords, answers with a plain-text brief, or — when the message says `Respond as JSON with:` /
// `Respond as JSON array with:` — with a JSON string holding exactly the requested keys.
// Pure: no clock, no Math.random(), no I/O.

import {
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
  quoteOf,
  roundSig,
  seededRng,
  toneOf,
  type AssetInfo,
  type Quote,
} from './market.js';
import { clipWords, dropFinalStop, lastUserTurn, withoutControls, wordCount, type Turn } from './text.js';
import { jsonReply } from './assistant-json.js';
import { jsonRequestAt, parseJsonRequest, routeSpecialists } from './assistant-routing.js';

export type { Turn } from './text.js';
export { fieldKind } from './assistant-json.js';
export {
  DEFAULT_SPECIALISTS,
  SPECIALISTS,
  SPECIALIST_KEYWORDS,
  parseJsonRequest,
  routeSpecialists,
  type JsonRequest,
} from './assistant-routing.js';

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
      return (
        `Macro: DXY ${dxy}, the US 10-year yield at ${y10}%, and futures ` +
        `put the odds of a Fed cut at the next meeting at ${cut}%.`
      );
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
      return (
        `Fundamentals: ${info.name} carries ${formatCompactUsd(tvl)} TVL and ` +
        `${formatCompactUsd(fees)} in 30-day fees; the next token unlock is ${unlock} days out.`
      );
    }
    case 'price movement': {
      const support = roundSig(lead.price * between(rng, 0.92, 0.97), 5);
      const resistance = roundSig(lead.price * between(rng, 1.03, 1.08), 5);
      return (
        `Price movement: ${focus.map(formatQuote).join(', ')}; ${lead.symbol} support ` +
        `near ${formatUsd(support)}, resistance near ${formatUsd(resistance)}.`
      );
    }
    case 'trenches': {
      const memes = snapshot.filter((q) => assetInfo(q.symbol)?.meme).slice(0, 2);
      const launches = intBetween(rng, 8_000, 40_000);
      const flow = memes.reduce((s, q) => s + q.change24h, 0) > 0 ? 'running hot' : 'cooling';
      return (
        `Trenches: memecoin flow is ${flow}; ` +
        `${memes.map((q) => `${q.symbol} ${formatPct(q.change24h)}`).join(' and ')}, ` +
        `with ${formatNumber(launches)} new tokens launched in a day, mostly noise.`
      );
    }
    case 'prediction markets': {
      const odds = intBetween(rng, 12, 88);
      const vol = between(rng, 2e6, 90e6);
      const shift = intBetween(rng, 1, 12);
      return (
        `Prediction markets: Polymarket and Kalshi put the headline question near ` +
        `${odds}% on ${formatCompactUsd(vol)} volume, a ${shift}-point move this week.`
      );
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
        ? `Building on your earlier question ("${dropFinalStop(withoutControls(clipWords(previous.content, 8, 80)))}"):`
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
  const content = request
    ? jsonReply(request, question, seed, specialists)
    : briefReply(turns, question, seed, specialists);
  return { content, specialists };
}
