// A SuperAgent's simulated reply (docs/api.md): deterministic for the same agent, session
// history and message; built from the soul (identity and rules), the enabled skills and a
// simulated market snapshot. Pure: no clock, no Math.random(), no I/O.
import type { AgentForReply } from './agent.js';
import { digest, findSymbols, formatQuote, marketSnapshot, pick, quoteOf, seededRng, type Quote } from './market.js';
import { detectIntents, enableHint, INTENTS, relevantRule, skillEnabled, type IntentKey } from './intents.js';
import { PLANS, type PlanContext } from './plans.js';
import { parseSoul, type SoulProfile } from './soul.js';
import {
  clipChars,
  clipWords,
  dropFinalStop,
  lastUserTurn,
  singleLine,
  withoutControls,
  wordCount,
  type Turn,
} from './text.js';
import { MAX_TOOL_CALLS, simulateTool, type ToolCall } from './tools.js';

// kept for the modules and tests that import them from here
export { parseSoul } from './soul.js';
export { splitIntoPieces, type Turn } from './text.js';
export type { AgentForReply };

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
// "remember …"

/** Up to the end of the first sentence: "remember that I prefer SOL. How is it doing?" keeps the first. */
function firstSentence(text: string): string {
  const end = /[.!?](?=\s+\S)/.exec(text);
  return end ? text.slice(0, end.index + 1) : text;
}

/**
 * "remember", then a look back at what precedes it. The look-behind runs only where "remember"
 * matched, over the white space right before it, so a long run of newlines is read once, not
 * once per newline as `[.!?;\n]\s*remember` did.
 */
const REMEMBER = new RegExp(
  String.raw`\bremember\b(?<=(?:^|[.!?;\n]\s*|` +
    String.raw`\b(?:please|pls|plz|also|and|kindly|to|can you|could you|would you|will you|always|do)\s+)remember)`,
  'gi',
);
/** [ours] characters after "remember" a note is read from (a note keeps at most 500) */
const REMEMBER_SCAN_CHARS = 4 * REMEMBER_MAX_CHARS;

/**
 * The note a message asks to remember: "remember that I prefer SOL" → "I prefer SOL",
 * "Please remember: no memecoins" → "no memecoins". Only an imperative "remember" counts (at the
 * start of a sentence, or after please / also / and / can you …), so "I can't remember the
 * price" is not a note. One line, at most 500 characters; null when there is none.
 */
export function extractRemember(message: string): string | null {
  for (const m of message.matchAll(REMEMBER)) {
    // a note is read from a bounded window: each "remember" costs the same, however many there are
    const after = (m.index ?? 0) + m[0].length;
    let rest = withoutControls(message.slice(after, after + REMEMBER_SCAN_CHARS));
    rest = rest.replace(/^[\s:,\-–—]+/, '');
    rest = rest.replace(/^(?:that|this|the following)\b[\s:,\-–—]*/i, '');
    // the sentence ends where it would on one line (a mark, white space, more text): cut, then collapse
    rest = singleLine(firstSentence(rest));
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

const LABELS: Record<IntentKey, string> = {
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
  const leadLine = withoutControls(lead.join(' ')).trimEnd();
  if (leadLine !== '') lines.push(leadLine);
  let inList = false;
  for (const s of sections) {
    const text = withoutControls(s.kind === 'item' ? `- ${s.text}` : s.text).trimEnd();
    if (s.kind === 'lead' || text === '' || text === '-') continue;
    // a blank line ends a list, as a model writes Markdown: the lines after it are not part of its last item
    if (inList && s.kind !== 'item') lines.push('');
    lines.push(text);
    inList = s.kind === 'item';
  }
  // sections quote names, the soul, the description and messages: no control character may reach a terminal
  return lines.join('\n').trim();
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
  const focus = symbols.length ? symbols.slice(0, 3) : ['BTC', 'ETH', 'SOL'];
  const focusQuotes = focus.map((s) => quoteOf(snapshot, s)).filter((q): q is Quote => q !== undefined);
  const foundBySkill = new Map<string, Record<string, unknown>>();
  const toolCalls: ToolCall[] = [];
  const ctx: PlanContext = { agent, message: msg, snapshot, symbols, rule, rng, focusQuotes, found: foundBySkill };

  const sections: Section[] = [];
  sections.push({ text: opening(agent, soul, rng), keep: 100, kind: 'lead' });

  if (turns.length > 0) {
    const previous = lastUserTurn(turns);
    sections.push({
      text: previous
        ? `Following up on "${dropFinalStop(clipWords(previous.content, 8, 80))}":`
        : 'Picking up where we left off:',
      keep: 90,
      kind: 'lead',
    });
  }

  if (remember !== null) {
    sections.push({
      text: `Noted, I will remember: "${dropFinalStop(clipWords(remember, 12, 100))}".`,
      keep: 100,
      kind: 'lead',
    });
  }

  // Skills the message needs: a plan when enabled, a hint when not. Three at most.
  const handled = new Set<string>();
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
    if (intent.key === 'market') marketLineDone = true;
    sections.push({ text: PLANS[intent.key](ctx), keep: 80 - used, kind: 'item' });
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
