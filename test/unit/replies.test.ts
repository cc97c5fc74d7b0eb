import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  composeAgentReply,
  extractRemember,
  parseSoul,
  splitIntoPieces,
  type AgentForReply,
  type Turn,
} from '../../src/server/runtime/replies.js';
import { ASSETS } from '../../src/server/runtime/market.js';
import { SKILLS, SKILL_NAMES, defaultSkillState } from '../../src/server/runtime/skills.js';

const SOUL = [
  '# Satoshi Scalper',
  '',
  'You are a disciplined BTC scalper who trades small.',
  '',
  '## Trading rules',
  '- Never use leverage above 2x.',
  '- Always set a stop loss before entry.',
  '- No memecoins, ever.',
  '',
].join('\n');

function agent(overrides: Partial<AgentForReply> = {}): AgentForReply {
  return {
    agent_id: '6f1c2d3e-4a5b-4c6d-8e7f-001122334455',
    name: 'scalper-1',
    description: 'Scalps BTC on short timeframes',
    model: 'claude-sonnet-4-20250514',
    model_provider: 'anthropic',
    soul_md: SOUL,
    skills: defaultSkillState(),
    ...overrides,
  };
}

function allSkills(enabled: boolean): Record<string, boolean> {
  return Object.fromEntries(SKILL_NAMES.map((s) => [s, enabled]));
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

describe('skills catalogue', () => {
  it('has exactly the nine skills with the documented defaults', () => {
    expect([...SKILL_NAMES]).toEqual([
      'hyperliquid',
      'polymarket',
      'polymarket-deep-research',
      'evm-wallet',
      'solana-wallet',
      'solana-swap',
      'portfolio-tracker',
      'chain-registry',
      'market-intel',
    ]);
    const on = Object.entries(defaultSkillState())
      .filter(([, v]) => v)
      .map(([k]) => k)
      .sort();
    expect(on).toEqual(['evm-wallet', 'market-intel', 'portfolio-tracker', 'solana-wallet']);
    for (const s of SKILLS) expect(s.description.length).toBeGreaterThan(20);
  });

  it('defaultSkillState returns a fresh object each time', () => {
    const a = defaultSkillState();
    a['hyperliquid'] = true;
    expect(defaultSkillState()['hyperliquid']).toBe(false);
  });
});

describe('composeAgentReply: determinism and sensitivity', () => {
  const history: Turn[] = [
    { role: 'user', content: 'How is BTC doing?' },
    { role: 'agent', content: 'BTC is flat.' },
  ];

  it('gives the same reply for the same agent, history and message', () => {
    const a = composeAgentReply(agent(), history, 'What is the price of SOL?');
    const b = composeAgentReply(agent(), structuredClone(history), 'What is the price of SOL?');
    expect(a).toEqual(b);
  });

  it('gives the same tool calls for the same agent, history and message', () => {
    const on = agent({ skills: { ...defaultSkillState(), hyperliquid: true } });
    const a = composeAgentReply(on, history, 'Long ETH? What is the funding and the price?');
    expect(a.toolCalls.map((c) => c.tool_name)).toEqual(['get_funding_rate', 'get_price']);
    expect(
      composeAgentReply(on, structuredClone(history), 'Long ETH? What is the funding and the price?').toolCalls,
    ).toEqual(a.toolCalls);
  });

  it('changes with the message', () => {
    const a = composeAgentReply(agent(), history, 'What is the price of SOL?');
    const b = composeAgentReply(agent(), history, 'What is the price of ETH?');
    expect(a.content).not.toBe(b.content);
  });

  it('changes with the history, even at the same length', () => {
    const other: Turn[] = [
      { role: 'user', content: 'How is BTC doing?' },
      { role: 'agent', content: 'BTC is up.' },
    ];
    const a = composeAgentReply(agent(), history, 'Any news?');
    const b = composeAgentReply(agent(), other, 'Any news?');
    const c = composeAgentReply(agent(), [], 'Any news?');
    expect(a.content).not.toBe(b.content);
    expect(a.content).not.toBe(c.content);
  });

  it('changes with the soul and with the skills', () => {
    const base = composeAgentReply(agent(), [], 'Open a long on ETH');
    const soul = composeAgentReply(agent({ soul_md: '# Luna Trader\n' }), [], 'Open a long on ETH');
    const skills = composeAgentReply(
      agent({ skills: { ...defaultSkillState(), hyperliquid: true } }),
      [],
      'Open a long on ETH',
    );
    expect(soul.content).not.toBe(base.content);
    expect(skills.content).not.toBe(base.content);
  });
});

describe('composeAgentReply: soul', () => {
  it('speaks as the identity in the first heading', () => {
    const r = composeAgentReply(agent({ name: 'bot-7' }), [], 'hello');
    expect(r.content.split('\n')[0]).toContain('Satoshi Scalper');
  });

  it('takes the identity from "You are X" when there is no heading', () => {
    const r = composeAgentReply(
      agent({ name: 'bot-7', soul_md: 'You are Nova, a patient swing trader.\nNever chase pumps.' }),
      [],
      'hello',
    );
    expect(r.content.split('\n')[0]).toContain('Nova');
    expect(r.content).not.toContain('Satoshi');
  });

  it('falls back to the agent name for an empty soul', () => {
    const r = composeAgentReply(agent({ name: 'bot-7', soul_md: '' }), [], 'hello');
    expect(r.content.split('\n')[0]).toContain('bot-7');
  });

  it('quotes the rule a trade request touches and keeps it', () => {
    const r = composeAgentReply(agent({ skills: allSkills(true) }), [], 'Open a 10x long on BTC');
    expect(r.content).toContain('Never use leverage above 2x');
    expect(r.content).toMatch(/\b2x on \$/);
    expect(r.content).not.toMatch(/\b10x on \$/);
  });

  it('cites a leverage ban as 1x', () => {
    const soul = '# Careful Carl\n\n## Rules\n- Never use leverage.\n- Only trade majors.';
    const r = composeAgentReply(agent({ soul_md: soul, skills: allSkills(true) }), [], 'go 5x short on ETH');
    expect(r.content).toContain('Never use leverage');
    expect(r.content).toMatch(/short ETH-PERP .* 1x on \$/);
  });

  it('cites the memecoin rule for a memecoin swap', () => {
    const r = composeAgentReply(agent({ skills: allSkills(true) }), [], 'swap 2 SOL for BONK');
    expect(r.content).toContain('No memecoins, ever');
  });

  it('does not cite a rule unrelated to the message', () => {
    const r = composeAgentReply(
      agent({ soul_md: '# Carl\n- Never use leverage above 2x.' }),
      [],
      'show me my wallet address',
    );
    expect(r.content).not.toContain('leverage');
  });

  it('lists its rules when asked', () => {
    const r = composeAgentReply(agent(), [], 'What are your rules?');
    expect(r.content).toContain('Never use leverage above 2x');
    expect(r.content).toContain('Always set a stop loss before entry');
  });

  it('parses identity and rules from odd markdown', () => {
    const soul = [
      '```',
      '# Not A Heading',
      '```',
      'Rules',
      '=====',
      '* [x] **Always** take profit at +5%',
      '1) do not trade after midnight',
      'Ziggy the Degen   ',
      '---',
      'I must keep 20% in stables.',
    ].join('\r\n');
    const p = parseSoul(soul);
    expect(p.identity).toBe('Ziggy the Degen');
    expect(p.rules).toContain('Always take profit at +5%');
    expect(p.rules).toContain('do not trade after midnight');
    expect(p.rules).toContain('I must keep 20% in stables.');
  });

  it('skips generic section headings for the identity', () => {
    expect(parseSoul('# Identity\nYou are Vega, a quant.\n# Rules\n- never overtrade').identity).toBe('Vega');
  });

  it('copes with a 256 KiB soul quickly', () => {
    const big = '# Big Soul\n' + '- Never risk more than 1% per trade on anything.\n'.repeat(5600);
    expect(Buffer.byteLength(big)).toBeGreaterThan(256 * 1024 - 4096);
    const oneLine = '# ' + 'x'.repeat(256 * 1024);
    const brackets = '['.repeat(128 * 1024) + '#'.repeat(128 * 1024);
    const spaces = '#' + ' '.repeat(256 * 1024) + 'a';
    const start = performance.now();
    for (const soul of [big, oneLine, brackets, spaces]) {
      const r = composeAgentReply(agent({ soul_md: soul }), [], 'Open a long on BTC, how much risk per trade?');
      expect(words(r.content)).toBeGreaterThanOrEqual(40);
      expect(words(r.content)).toBeLessThanOrEqual(120);
    }
    expect(performance.now() - start).toBeLessThan(3000);
    expect(composeAgentReply(agent({ soul_md: big }), [], 'risk per trade?').content).toContain(
      'Never risk more than 1% per trade',
    );
  });
});

describe('composeAgentReply: skills', () => {
  it('says a disabled skill is off and how to enable it, with the agent name', () => {
    const r = composeAgentReply(agent(), [], 'Open a long on ETH');
    expect(r.content).toContain('enable it with `superagent skills enable scalper-1 hyperliquid`');
    expect(r.content).not.toContain('Hyperliquid plan');
  });

  it('quotes a name with spaces for the shell', () => {
    const r = composeAgentReply(agent({ name: "Bob's Bot" }), [], 'Open a long on ETH');
    expect(r.content).toContain(`superagent skills enable 'Bob'\\''s Bot' hyperliquid`);
  });

  it('describes a simulated plan with market numbers when the skill is on', () => {
    const r = composeAgentReply(
      agent({ skills: { ...defaultSkillState(), hyperliquid: true } }),
      [],
      'Open a long on ETH',
    );
    expect(r.content).toContain('Hyperliquid plan (simulated): long ETH-PERP');
    expect(r.content).not.toContain('skills enable');
    const price = Number(/ETH-PERP at \$([\d,.]+)/.exec(r.content)![1]!.replace(/,/g, ''));
    const base = ASSETS.find((a) => a.symbol === 'ETH')!.base;
    expect(Math.abs(price / base - 1)).toBeLessThan(0.05);
  });

  const routing: [string, string[]][] = [
    ['open a long on SOL', ['hyperliquid']],
    ['go short BTC with 3x leverage', ['hyperliquid']],
    ['what is the ETH funding rate', ['hyperliquid']],
    ['place a bet on the election odds', ['polymarket']],
    ['do some research on the Fed decision', ['polymarket-deep-research']],
    ['swap 1 SOL to JUP', ['solana-swap']],
    ['what is my pnl', ['portfolio-tracker']],
    ['what is your wallet address', ['evm-wallet', 'solana-wallet']],
    ['which chain should I bridge to', ['chain-registry']],
    ['any market news?', ['market-intel']],
  ];
  it.each(routing)('%j needs %j', (message, skills) => {
    const r = composeAgentReply(agent({ skills: allSkills(false) }), [], message);
    for (const s of skills) expect(r.content).toContain(`superagent skills enable scalper-1 ${s}\``);
    const mentioned = SKILL_NAMES.filter((s) => r.content.includes(`scalper-1 ${s}\``));
    expect(mentioned.sort()).toEqual([...skills].sort());
  });

  it('gives prices of the mentioned symbols, or BTC/ETH/SOL by default', () => {
    const r1 = composeAgentReply(agent(), [], 'hello there');
    for (const s of ['BTC $', 'ETH $', 'SOL $']) expect(r1.content).toContain(s);
    const r2 = composeAgentReply(agent(), [], 'thoughts on WIF?');
    expect(r2.content).toContain('WIF $');
    expect(r2.content).not.toContain('BTC $');
  });
});

describe('composeAgentReply: history and memory', () => {
  it('refers back to the previous user message', () => {
    const history: Turn[] = [
      { role: 'user', content: 'What about ETH funding?' },
      { role: 'agent', content: 'Funding is flat.' },
    ];
    const r = composeAgentReply(agent(), history, 'and SOL?');
    expect(r.content).toContain('Following up on "What about ETH funding?"');
    expect(composeAgentReply(agent(), [], 'and SOL?').content).not.toContain('Following up');
  });

  it('truncates a long previous message', () => {
    const long = 'one two three four five six seven eight nine ten eleven twelve';
    const r = composeAgentReply(agent(), [{ role: 'user', content: long }], 'ok');
    expect(r.content).toContain('Following up on "one two three four five six seven eight…"');
    expect(r.content).not.toContain('eleven');
  });

  it('sets remember and acknowledges it', () => {
    const r = composeAgentReply(agent(), [], 'remember that I prefer SOL');
    expect(r.remember).toBe('I prefer SOL');
    expect(r.content).toContain('I will remember: "I prefer SOL"');
    expect(composeAgentReply(agent(), [], 'what is the price of SOL').remember).toBeNull();
  });

  const cases: [string, string | null][] = [
    ['remember that I prefer SOL', 'I prefer SOL'],
    ['Please remember: no memecoins', 'no memecoins'],
    ['REMEMBER   this:\n  keep\tsizes   small  ', 'keep sizes small'],
    ['Hi! Also remember that stops go at 2%.', 'stops go at 2%.'],
    ['Can you remember my risk limit is 1%?', 'my risk limit is 1%?'],
    ['remember that I prefer SOL. How is SOL doing?', 'I prefer SOL.'],
    ['Remember: stops at 2%! And what about ETH?', 'stops at 2%!'],
    ["I can't remember the BTC price", null],
    ['remember', null],
    ['remember that', null],
    ['Please remember: ...', null],
    ['what is the price', null],
    ['', null],
  ];
  it.each(cases)('extractRemember(%j) → %j', (message, expected) => {
    expect(extractRemember(message)).toBe(expected);
  });

  it('keeps a remembered note to one line of at most 500 characters', () => {
    const note = extractRemember('remember that ' + 'abc '.repeat(400) + '\nsecond line')!;
    expect(note.length).toBeLessThanOrEqual(500);
    expect(note).not.toMatch(/\n/);
    expect(note.startsWith('abc abc')).toBe(true);
    const emoji = extractRemember('remember ' + '🚀'.repeat(600))!;
    expect(Array.from(emoji).length).toBeLessThanOrEqual(500);
    expect(emoji).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});

describe('composeAgentReply: shape', () => {
  const messages = [
    'hi',
    '',
    'Open a 10x long on BTC with $5,000 and remember that I like tight stops',
    'bet on the election, research it, swap SOL to JUP, check my wallet, portfolio pnl, bridge chain, market news',
    'x'.repeat(32 * 1024),
    '🚀🚀🚀 买 比特币 ？',
    'What are your rules?',
  ];
  const souls = ['', SOUL, '#\n##\n- \n*', 'You are ' + 'very '.repeat(200) + 'long.'];
  it('stays within 40–120 words, never empty, without trailing whitespace', () => {
    for (const soul_md of souls) {
      for (const skills of [allSkills(false), allSkills(true), defaultSkillState()]) {
        for (const m of messages) {
          const { content } = composeAgentReply(agent({ soul_md, skills }), [{ role: 'user', content: m }], m);
          expect(content.trim()).not.toBe('');
          expect(words(content)).toBeGreaterThanOrEqual(40);
          expect(words(content)).toBeLessThanOrEqual(120);
          expect(content).toBe(content.trim());
          for (const line of content.split('\n')) expect(line).toBe(line.trimEnd());
        }
      }
    }
  });
});

describe('splitIntoPieces', () => {
  const tricky = [
    'Hello world, this is a reply.',
    'word',
    'a',
    ' leading and trailing spaces ',
    'line one\nline two\r\n\r\nline three\n',
    '\n\n\n',
    '🚀 to the moon 🌕🌕🌕 👨‍👩‍👧‍👦 family 🇺🇸 flag',
    '比特币今天上涨了百分之三，以太坊下跌。',
    'x'.repeat(500),
    '🚀'.repeat(100),
    'tab\tseparated\twords\tand  double  spaces',
    'e\u0301 combining accents e\u0301e\u0301e\u0301',
  ];

  it.each(tricky)('joins back exactly: %j', (text) => {
    const pieces = splitIntoPieces(text);
    expect(pieces.join('')).toBe(text);
    for (const p of pieces) {
      expect(p.length).toBeGreaterThan(0);
      expect(p).not.toMatch(/^[\uDC00-\uDFFF]/);
      expect(p).not.toMatch(/[\uD800-\uDBFF]$/);
      expect(p.split(/\s+/).filter(Boolean).length).toBeLessThanOrEqual(3);
    }
  });

  it('returns [] for an empty string', () => {
    expect(splitIntoPieces('')).toEqual([]);
  });

  it('makes small pieces: several for a sentence, for text without spaces, for CJK', () => {
    expect(splitIntoPieces('one two three four five six seven eight nine ten').length).toBeGreaterThanOrEqual(4);
    expect(splitIntoPieces('x'.repeat(500)).length).toBeGreaterThan(10);
    expect(splitIntoPieces('比特币今天上涨了').length).toBeGreaterThan(2);
    expect(splitIntoPieces('one').length).toBe(1);
  });

  it('never splits an emoji sequence', () => {
    const family = '👨‍👩‍👧‍👦';
    const pieces = splitIntoPieces(family.repeat(40));
    expect(pieces.length).toBeGreaterThan(1);
    for (const p of pieces) expect(p.length % family.length).toBe(0);
  });

  it('joins back exactly for any string (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const pieces = splitIntoPieces(text);
        expect(pieces.join('')).toBe(text);
        expect(pieces.every((p) => p.length > 0)).toBe(true);
        for (const p of pieces) {
          expect(p).not.toMatch(/^[\uDC00-\uDFFF]/);
          expect(p).not.toMatch(/[\uD800-\uDBFF]$/);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('splits a real reply into many pieces that rebuild it', () => {
    const { content } = composeAgentReply(agent(), [], 'Open a long on ETH');
    const pieces = splitIntoPieces(content);
    expect(pieces.join('')).toBe(content);
    expect(pieces.length).toBeGreaterThan(words(content) / 3 - 1);
  });
});

describe('replies as Markdown', () => {
  it('a list is ended by a blank line before the lines after it (else they read as part of its last item)', () => {
    const messages = [
      'Open a 10x perp long on ETH',
      'remember: I prefer low leverage',
      'Plan a BTC trade and check SOL',
      'What is your view on BTC today?',
    ];
    let lists = 0;
    for (const message of messages) {
      for (let i = 0; i < 20; i++) {
        const lines = composeAgentReply(agent({ name: `agent-${i}` }), [], message).content.split('\n');
        lines.forEach((line, at) => {
          const next = lines[at + 1];
          if (!line.startsWith('- ') || next === undefined) return;
          lists++;
          expect(next === '' || next.startsWith('- '), JSON.stringify(lines)).toBe(true);
        });
      }
    }
    expect(lists).toBeGreaterThan(0);
  });
});
