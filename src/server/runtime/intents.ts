// What a message asks of an agent (docs/api.md): the intents that route it to skills, and
// the soul rule most related to it. Pure.
import { assetInfo, findSymbols } from './market.js';
import type { AgentForReply } from './agent.js';
import { SKILLS } from './skills.js';

export interface Intent {
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
    pattern: new RegExp(
      String.raw`\b(?:long|longs|longing|short|shorts|shorting|perps?|perpetuals?|funding|leverage|leveraged|` +
        String.raw`hyperliquid|\d+(?:\.\d+)?x)\b`,
      'i',
    ),
    topic: [
      'leverage',
      'leveraged',
      'long',
      'short',
      'perp',
      'perpetual',
      'position',
      'trade',
      'trading',
      'stop',
      'loss',
      'risk',
      'size',
      'margin',
      'liquidation',
      'hyperliquid',
      'futures',
    ],
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

export function skillEnabled(agent: AgentForReply, name: string): boolean {
  const v = agent.skills?.[name];
  if (typeof v === 'boolean') return v;
  return SKILLS.find((s) => s.name === name)?.defaultEnabled ?? false;
}

/** How a shell user writes the agent reference: bare when safe, single-quoted otherwise. */
export function shellAgentRef(agent: AgentForReply): string {
  const name = agent.name ?? '';
  if (!name.trim() || /[\u0000-\u001f\u007f-\u009f]/.test(name)) return agent.agent_id;
  if (/^[A-Za-z0-9._@%+=:,/-]+$/.test(name)) return name;
  return `'${name.replace(/'/g, `'\\''`)}'`;
}

export function enableHint(agent: AgentForReply, skill: string): string {
  return `enable it with \`superagent skills enable ${shellAgentRef(agent)} ${skill}\``;
}

export type IntentKey = Intent['key'];

// =============================================================================================
// Rules relevant to a message

const STOP_WORDS = new Set(
  (
    'a an the and or but if then than to of in on at for with by from ' +
    'as is are be been being it its this that these those ' +
    'i me my you your we our they them their he she his her never always must do dont don t not no any more less ' +
    'use using used only ever every all each some can will would should could may might just very so too also per ' +
    'over under above below into out up down about what when where which who how why'
  ).split(' '),
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
