// Every text-analysis function of the reply runtime finishes on hostile text up to
// the 32 KiB message limit and gives a sane answer. Nothing here measures time: each test runs
// under a tight vitest timeout instead, so a pattern that backtracks (the old `requestedUsd` held
// the event loop ~7 s on "1,1,1,…") fails it. The timings themselves: bench/runtime-text.js.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/contract.js';
import { leverageCap, requestedAmount, requestedLeverage, requestedUsd } from '../../src/server/runtime/amounts.js';
import {
  composeAssistantReply,
  fieldKind,
  parseJsonRequest,
  routeSpecialists,
  SPECIALISTS,
} from '../../src/server/runtime/assistant.js';
import { jsonRequestAt } from '../../src/server/runtime/assistant-routing.js';
import { detectIntents, INTENTS, relevantRule, shellAgentRef } from '../../src/server/runtime/intents.js';
import { ASSETS, findSymbols, marketSnapshot } from '../../src/server/runtime/market.js';
import {
  composeAgentReply,
  extractRemember,
  REMEMBER_MAX_CHARS,
  REPLY_MAX_WORDS,
  type AgentForReply,
} from '../../src/server/runtime/replies.js';
import { SKILL_NAMES } from '../../src/server/runtime/skills.js';
import { parseSoul } from '../../src/server/runtime/soul.js';
import {
  clipChars,
  clipWords,
  dropFinalStop,
  plainInline,
  singleLine,
  splitIntoPieces,
  withoutControls,
  wordCount,
} from '../../src/server/runtime/text.js';
import { MAX_TOOL_CALLS, simulateTool } from '../../src/server/runtime/tools.js';
import { HOSTILE_UNITS, OSC52, WORST_INPUTS } from '../helpers/hostile-text.js';

const MAX = LIMITS.messageChars;
const points = (s: string) => Array.from(s).length;
/** C0 controls but \t and \n, DEL, C1 controls: what no reply may carry */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** Words that steer the runtime into each of its paths before the hostile run. */
const PREFIXES = [
  '',
  'long bet swap ',
  'please remember ',
  'Respond as JSON with: ',
  'Respond as JSON array with: ',
  'You are ',
  '# ',
  '- never ',
  'research portfolio wallet chain price news leverage ',
  'rate cut funding order book ',
];
const SUFFIXES = ['', 'x', ' usd', 'k usdc', ' remember', '!', '\n', ' SOL'];

/** A prefix, then one to three hostile units repeated up to a length (often the limit), then a suffix. */
const hostileText = fc
  .record({
    prefix: fc.constantFrom(...PREFIXES),
    units: fc.array(fc.constantFrom(...HOSTILE_UNITS), { minLength: 1, maxLength: 3 }),
    length: fc.oneof(fc.constant(MAX), fc.integer({ min: 1, max: MAX })),
    suffix: fc.constantFrom(...SUFFIXES),
  })
  .map(({ prefix, units, length, suffix }) => {
    const unit = units.join('');
    const body = (prefix + unit.repeat(Math.ceil(length / unit.length))).slice(0, Math.max(0, length - suffix.length));
    return body + suffix;
  });

/** The worst inputs found by hand (bench/runtime-text.js times them), tried before the random ones. */
const examples = WORST_INPUTS.map((w) => [w.text] as [string]);

function check(property: (text: string) => void, numRuns: number): void {
  fc.assert(fc.property(hostileText, property), { numRuns, examples });
}

const everySkill = Object.fromEntries(SKILL_NAMES.map((s) => [s, true]));
function hostileAgent(text: string): AgentForReply {
  return {
    agent_id: '6f1c2d3e-4a5b-4c6d-8e7f-001122334455',
    name: text.slice(0, LIMITS.nameChars),
    description: text.slice(0, LIMITS.descriptionChars),
    model: 'gpt-4o',
    model_provider: 'openai',
    soul_md: text,
    skills: everySkill,
  };
}

// Timeouts: each test takes well under a tenth of its limit with the fixed runtime (limits twice
// those of a first version, one of which a two-core machine running two whole suites at once
// reached); one quadratic pattern on one worst input takes over 2 s, and every test tries each
// worst input (the old requestedUsd pattern put back failed 'reads amounts' at 3 s). Now 8 s: a machine
// running several suites at once reached 3 s with the fixed runtime once.
describe('the runtime on hostile text up to the message limit', () => {
  it('reads amounts: requestedUsd, requestedLeverage, leverageCap, requestedAmount', { timeout: 8_000 }, () => {
    check((text) => {
      const usd = requestedUsd(text);
      if (usd !== null) expect(Number.isFinite(usd) && usd > 0).toBe(true);
      const lev = requestedLeverage(text);
      if (lev !== null) expect(lev >= 1 && lev <= 50).toBe(true);
      const cap = leverageCap(text);
      if (cap !== null) expect(Number.isFinite(cap) && cap >= 1).toBe(true);
      const amount = requestedAmount(text);
      if (amount !== null) expect(amount.word).toMatch(/^[A-Za-z]{1,20}$/);
    }, 60);
  });

  it('finds intents, symbols, specialists and the JSON request', { timeout: 8_000 }, () => {
    const keys = INTENTS.map((i) => i.key);
    const symbols = ASSETS.map((a) => a.symbol);
    check((text) => {
      const intents = detectIntents(text);
      expect(intents.every((k) => keys.includes(k)) && new Set(intents).size === intents.length).toBe(true);
      const found = findSymbols(text);
      expect(found.every((s) => symbols.includes(s)) && new Set(found).size === found.length).toBe(true);
      const routed = routeSpecialists(text);
      expect(routed.length > 0 && routed.every((s) => SPECIALISTS.includes(s))).toBe(true);
      const request = parseJsonRequest(text);
      if (request !== null) {
        expect(jsonRequestAt(text)).not.toBeNull();
        expect(new Set(request.fields).size).toBe(request.fields.length);
        for (const f of request.fields) expect(f !== '' && f === f.trim() && !/[,\n\r]/.test(f)).toBe(true);
      }
      expect(typeof fieldKind(text)).toBe('string');
    }, 60);
  });

  it('parses a soul and picks the rule a message touches', { timeout: 4_000 }, () => {
    check((text) => {
      const soul = parseSoul(text);
      if (soul.identity !== null) expect(soul.identity).not.toMatch(/[\r\n]/);
      expect(soul.rules.length).toBeLessThanOrEqual(180);
      for (const r of soul.rules) expect(points(r)).toBeLessThanOrEqual(281);
      const rule = relevantRule(soul.rules, text);
      if (rule !== null) expect(soul.rules).toContain(rule);
    }, 40);
  });

  it('extracts a "remember" note: one line, at most 500 characters, no control character', { timeout: 8_000 }, () => {
    check((text) => {
      const note = extractRemember(text);
      if (note === null) return;
      expect(note.trim()).not.toBe('');
      expect(note).not.toMatch(/[\r\n]/);
      expect(note).not.toMatch(CONTROL);
      expect(points(note)).toBeLessThanOrEqual(REMEMBER_MAX_CHARS);
    }, 60);
  });

  it('cuts, clips and cleans text', { timeout: 4_000 }, () => {
    check((text) => {
      const pieces = splitIntoPieces(text);
      expect(pieces.join('')).toBe(text);
      expect(pieces.every((p) => p.length > 0)).toBe(true);
      expect(points(clipWords(text, 8, 80))).toBeLessThanOrEqual(81);
      expect(points(clipChars(text, 40))).toBeLessThanOrEqual(40);
      expect(singleLine(text)).not.toMatch(/\s\s|\n/);
      expect(wordCount(text)).toBeGreaterThanOrEqual(0);
      expect(plainInline(text.slice(0, 600))).not.toMatch(/\n/);
      expect(dropFinalStop(text)).not.toMatch(/[.;:!]$/);
      expect(withoutControls(text)).not.toMatch(CONTROL);
      const ref = shellAgentRef({ ...hostileAgent(text), name: text.slice(0, LIMITS.nameChars) });
      expect(ref).not.toMatch(CONTROL);
    }, 30);
  });

  it('simulates every tool on the message', { timeout: 8_000 }, () => {
    check((text) => {
      for (const skill of SKILL_NAMES) {
        const tool = simulateTool(skill, {
          seed: 'seed',
          message: text,
          symbols: findSymbols(text),
          snapshot: marketSnapshot('seed'),
        });
        if (!tool) continue;
        expect(() => JSON.parse(tool.call.result)).not.toThrow();
        for (const v of Object.values(tool.call.tool_args)) expect(v).not.toMatch(CONTROL);
      }
    }, 30);
  });

  it(
    "composes an agent's reply from a hostile soul, name, description, history and message",
    { timeout: 8_000 },
    () => {
      check((text) => {
        const reply = composeAgentReply(
          hostileAgent(text),
          [
            { role: 'user', content: text },
            { role: 'agent', content: text },
          ],
          text,
        );
        expect(wordCount(reply.content)).toBeGreaterThan(0);
        expect(wordCount(reply.content)).toBeLessThanOrEqual(REPLY_MAX_WORDS);
        expect(reply.content).not.toMatch(CONTROL);
        expect(reply.toolCalls.length).toBeLessThanOrEqual(MAX_TOOL_CALLS);
      }, 30);
    },
  );

  it("composes the assistant's brief or JSON answer", { timeout: 8_000 }, () => {
    check((text) => {
      const reply = composeAssistantReply(
        [
          { role: 'user', content: text },
          { role: 'agent', content: text },
        ],
        text,
      );
      expect(reply.content.trim()).not.toBe('');
      expect(reply.content).not.toMatch(CONTROL);
      expect(reply.specialists.length).toBeGreaterThan(0);
      const request = parseJsonRequest(text);
      if (request) {
        const parsed = JSON.parse(reply.content);
        const first = Array.isArray(parsed) ? parsed[0] : parsed;
        expect(Object.keys(first).length).toBe(new Set(request.fields).size);
      }
    }, 30);
  });
});

describe('splitIntoPieces past the segmenter window', () => {
  const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
  const mixed = fc
    .array(
      fc.constantFrom(
        'a',
        ' ',
        '\r\n',
        '\r',
        '\n',
        'e\u0301',
        '\u0301',
        '漢',
        '漢\uFE00',
        '한',
        '\u1100',
        '\u1161',
        '\u11A8',
        '👨‍👩‍👧',
        '🇺🇸',
        '\uD83D',
        '\u001b',
        '\u0E33',
        '\u200D',
      ),
      { maxLength: 1500 },
    )
    .map((parts) => parts.join(''));

  it('cuts only where Intl.Segmenter, given the whole text, puts a grapheme boundary', { timeout: 10_000 }, () => {
    fc.assert(
      fc.property(mixed, (text) => {
        const boundaries = new Set(Array.from(segmenter.segment(text), (s) => s.index));
        let at = 0;
        for (const piece of splitIntoPieces(text)) {
          expect(boundaries.has(at)).toBe(true);
          at += piece.length;
        }
        expect(at).toBe(text.length);
      }),
      { numRuns: 150, examples: [['👨‍👩‍👧'.repeat(200)], ['e' + '\u0301'.repeat(700)], ['\r\n'.repeat(400)]] },
    );
  });
});

// What a reply quotes (name, description, soul, history, message) reaches a terminal.
describe('the runtime quotes no control character', () => {
  const hostile = `${OSC52}evil\u001b[2J\u009b2J\r\u007fname`;
  const agent: AgentForReply = {
    ...hostileAgent(`# ${hostile}\n\n- never ${hostile}\n`),
    name: hostile,
    description: `${hostile} description`,
  };
  const message = `remember that ${hostile} is mine. What is the price? ${hostile}`;

  it("keeps them out of an agent's reply, its note and its tool calls", () => {
    for (const history of [[], [{ role: 'user' as const, content: hostile }]]) {
      const reply = composeAgentReply(agent, history, message);
      expect(reply.content).not.toMatch(CONTROL);
      expect(reply.content).toContain(']52;c;'); // shown as text, not acted on
      expect(reply.remember).not.toBeNull();
      expect(reply.remember).not.toMatch(CONTROL);
      for (const call of reply.toolCalls) expect(JSON.stringify(call.tool_args) + call.result).not.toMatch(CONTROL);
    }
    const bet = composeAgentReply({ ...agent, name: 'n' }, [], `bet on it, research ${hostile}`);
    expect(bet.toolCalls.map((c) => c.tool_name)).toContain('search_markets');
    for (const call of bet.toolCalls) expect(Object.values(call.tool_args).join('')).not.toMatch(CONTROL);
  });

  it("keeps them out of the assistant's brief, and escapes them in a JSON answer whose keys stay exact", () => {
    const brief = composeAssistantReply([{ role: 'user', content: hostile }], 'and now?');
    expect(brief.content).toContain('Building on your earlier question');
    expect(brief.content).not.toMatch(CONTROL);
    const field = 'a\u009bb\u007fc\u001bd';
    const json = composeAssistantReply([], `btc? Respond as JSON with: ${field}, price`);
    expect(json.content).not.toMatch(CONTROL);
    expect(Object.keys(JSON.parse(json.content))).toEqual([field, 'price']);
  });
});
