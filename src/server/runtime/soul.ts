// The soul of a SuperAgent (docs/api.md): the identity and the rules its soul.md states,
// read from any markdown without failing. Pure.
import { clipWords, plainInline } from './text.js';

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

/**
 * "You are Satoshi Scalper, a …" → "Satoshi Scalper";
 * "You are a cautious agent that …" → "a cautious agent".
 */
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
