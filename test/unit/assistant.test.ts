import { describe, it, expect } from 'vitest';
import {
  SPECIALISTS,
  composeAssistantReply,
  parseJsonRequest,
  routeSpecialists,
} from '../../src/server/runtime/assistant.js';
import type { Turn } from '../../src/server/runtime/replies.js';
import { ASSETS } from '../../src/server/runtime/market.js';

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?Z$/;
const TICKERS = new Set(ASSETS.map((a) => a.symbol));

/** Keys of a JSON object text in the order they are written (JSON.parse reorders integer-like keys). */
function rawKeys(objectText: string): string[] {
  const keys: string[] = [];
  const value = JSON.parse(objectText) as Record<string, unknown>;
  // Walk the text: each key is a JSON string followed by a colon at depth 1.
  let depth = 0;
  for (let i = 0; i < objectText.length; i++) {
    const c = objectText[i];
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === '"') {
      let j = i + 1;
      while (objectText[j] !== '"') j += objectText[j] === '\\' ? 2 : 1;
      const str = JSON.parse(objectText.slice(i, j + 1)) as string;
      if (depth === 1 && objectText[j + 1] === ':') keys.push(str);
      i = j;
    }
  }
  expect(new Set(keys)).toEqual(new Set(Object.keys(value)));
  return keys;
}

describe('SPECIALISTS', () => {
  it('names the six desks', () => {
    expect([...SPECIALISTS]).toEqual([
      'macro',
      'microstructure',
      'fundamentals',
      'price movement',
      'trenches',
      'prediction markets',
    ]);
  });
});

describe('parseJsonRequest', () => {
  const cases: [string, { fields: string[]; array: boolean } | null][] = [
    [
      'What is SOL doing? Respond as JSON with: price, change_24h, summary',
      { fields: ['price', 'change_24h', 'summary'], array: false },
    ],
    [
      'top tokens. respond as json array with: symbol , price ,sentiment.',
      { fields: ['symbol', 'price', 'sentiment'], array: true },
    ],
    ['RESPOND AS JSON WITH: a,, b ,  ,c.', { fields: ['a', 'b', 'c'], array: false }],
    ['Respond as JSON with: price, reason\nand please be brief, thanks', { fields: ['price', 'reason'], array: false }],
    [
      'Respond as JSON with: market cap, 24h % change, why?',
      { fields: ['market cap', '24h % change', 'why?'], array: false },
    ],
    ['Respond as JSON with:', null],
    ['Respond as JSON with: , . ,', null],
    ['Respond as JSON with:\nprice', null],
    ['Respond in JSON please', null],
    ['how is BTC?', null],
    ['', null],
  ];
  it.each(cases)('%j → %j', (message, expected) => {
    expect(parseJsonRequest(message)).toEqual(expected);
  });
});

describe('routing', () => {
  const cases: [string, string[]][] = [
    ['What will the Fed do with rates after CPI?', ['macro']],
    ['Is DXY strength hurting crypto? Yields are up.', ['macro']],
    ['BTC funding and open interest look stretched', ['microstructure']],
    ['how deep is the order book, and where are liquidations?', ['microstructure']],
    ['JUP tokenomics: the next unlock and fee revenue', ['fundamentals']],
    ['Compare TVL across L2s', ['fundamentals']],
    ['Why did SOL pump today?', ['price movement']],
    ['Where is support and resistance on the ETH chart?', ['price movement']],
    ['best memecoin in the trenches right now', ['trenches']],
    ['any new tokens worth a degen play?', ['trenches']],
    ['Polymarket odds on the election', ['prediction markets']],
    ['what does Kalshi say?', ['prediction markets']],
    ['hello', ['price movement', 'macro']],
    ['', ['price movement', 'macro']],
    ['Fed rates, perp funding, TVL, chart support, memecoins and polymarket odds', [...SPECIALISTS]],
    ['betting that the fed pauses', ['macro', 'prediction markets']],
    ['Better alphabet beta', ['price movement', 'macro']],
  ];
  it.each(cases)('%j → %j', (message, expected) => {
    expect(routeSpecialists(message)).toEqual(expected);
    expect(composeAssistantReply([], message).specialists).toEqual(routeSpecialists(message));
  });

  it('routes on the question, not on the requested field names', () => {
    const r = composeAssistantReply([], 'What is the Fed doing? Respond as JSON with: price, odds, tvl');
    expect(r.specialists).toEqual(['macro']);
  });
});

describe('plain-text brief', () => {
  it('is deterministic', () => {
    expect(composeAssistantReply([], 'Why did SOL pump?')).toEqual(composeAssistantReply([], 'Why did SOL pump?'));
  });

  it('changes with the message and the history', () => {
    const a = composeAssistantReply([], 'Why did SOL pump?').content;
    expect(composeAssistantReply([], 'Why did SOL dump?').content).not.toBe(a);
    const h: Turn[] = [
      { role: 'user', content: 'What about ETH?' },
      { role: 'agent', content: 'ETH is flat.' },
    ];
    expect(composeAssistantReply(h, 'Why did SOL pump?').content).not.toBe(a);
  });

  it('names the specialists, uses snapshot numbers and stays within 60–150 words', () => {
    const messages = [
      'hello',
      'Why did SOL pump?',
      'Fed rates, perp funding, TVL, chart support, memecoins and polymarket odds for BTC, ETH and SOL',
      'x'.repeat(5000),
      '',
    ];
    for (const m of messages) {
      for (const history of [[], [{ role: 'user', content: 'earlier question about ETH' } as Turn]]) {
        const { content, specialists } = composeAssistantReply(history, m);
        expect(words(content)).toBeGreaterThanOrEqual(60);
        expect(words(content)).toBeLessThanOrEqual(150);
        for (const s of specialists) expect(content).toContain(s);
        expect(content).toMatch(/\$\d/);
        expect(() => JSON.parse(content)).toThrow();
        expect(content).toBe(content.trim());
      }
    }
  });

  it('quotes prices of the mentioned token near its base price', () => {
    const { content } = composeAssistantReply([], 'Why did SOL pump?');
    const price = Number(/SOL \$([\d,.]+)/.exec(content)![1]!.replace(/,/g, ''));
    expect(Math.abs(price / 192.4 - 1)).toBeLessThan(0.05);
  });

  it('refers to the previous turn when there is history', () => {
    const h: Turn[] = [
      { role: 'user', content: 'What about ETH funding?' },
      { role: 'agent', content: 'It is flat.' },
    ];
    expect(composeAssistantReply(h, 'and SOL?').content).toContain('What about ETH funding?');
    expect(composeAssistantReply([], 'and SOL?').content).not.toContain('earlier question');
  });
});

describe('JSON answers', () => {
  it('gives one object with exactly the requested keys, in order, with typed values', () => {
    const fields = [
      'symbol',
      'name',
      'price_usd',
      'change_24h_pct',
      'sentiment',
      'summary',
      'created_at',
      'url',
      'volume_usd',
      'market_cap',
      'is_bullish',
      'confidence',
      'rating',
      'risk_level',
    ];
    const { content } = composeAssistantReply([], `How is SOL? Respond as JSON with: ${fields.join(', ')}`);
    expect(rawKeys(content)).toEqual(fields);
    const o = JSON.parse(content) as Record<string, unknown>;
    expect(o['symbol']).toBe('SOL');
    expect(o['name']).toBe('Solana');
    expect(typeof o['price_usd']).toBe('number');
    expect(Math.abs((o['price_usd'] as number) / 192.4 - 1)).toBeLessThan(0.05);
    expect(typeof o['change_24h_pct']).toBe('number');
    expect(Math.round((o['change_24h_pct'] as number) * 100) / 100).toBe(o['change_24h_pct']);
    expect(['bullish', 'bearish', 'neutral']).toContain(o['sentiment']);
    expect(o['summary']).toMatch(/^[A-Z].{20,}\.$/);
    expect(o['created_at']).toMatch(ISO);
    expect(o['url']).toMatch(/^https:\/\/example\.com\/\S+$/);
    expect(Number.isInteger(o['volume_usd'])).toBe(true);
    expect(Number.isInteger(o['market_cap'])).toBe(true);
    expect(o['market_cap'] as number).toBeGreaterThan(1e9);
    expect(typeof o['is_bullish']).toBe('boolean');
    expect(o['confidence'] as number).toBeGreaterThanOrEqual(0);
    expect(o['confidence'] as number).toBeLessThanOrEqual(1);
    expect([1, 2, 3, 4, 5]).toContain(o['rating']);
    // nothing in its name says what it is: not known, never made up
    expect(o['risk_level']).toBeNull();
  });

  it('keeps integer-like and unusual keys verbatim and in order', () => {
    const fields = ['b', '2', 'a key with spaces', 'qu"ote\\back', 'ünïcødé 🚀', '__proto__', 'constructor', '1'];
    const { content } = composeAssistantReply([], `x Respond as JSON with: ${fields.join(', ')}`);
    expect(rawKeys(content)).toEqual(fields);
    const o = JSON.parse(content) as Record<string, unknown>;
    expect(Object.prototype.hasOwnProperty.call(o, '__proto__')).toBe(true);
  });

  it('gives an array of 3–5 objects for different tokens', () => {
    const fields = ['ticker', 'price', 'change_pct', 'thesis'];
    const { content } = composeAssistantReply(
      [],
      'Best majors this week? Respond as JSON array with: ticker, price, change_pct, thesis.',
    );
    const arr = JSON.parse(content) as Record<string, unknown>[];
    expect(Array.isArray(arr)).toBe(true);
    expect(arr.length).toBeGreaterThanOrEqual(3);
    expect(arr.length).toBeLessThanOrEqual(5);
    for (const o of arr) {
      expect(Object.keys(o)).toEqual(fields);
      expect(TICKERS.has(o['ticker'] as string)).toBe(true);
      expect(typeof o['price']).toBe('number');
      expect(typeof o['change_pct']).toBe('number');
      expect(typeof o['thesis']).toBe('string');
    }
    expect(new Set(arr.map((o) => o['ticker'])).size).toBe(arr.length);
  });

  it('lists the mentioned tokens first in an array', () => {
    const { content } = composeAssistantReply([], 'Compare WIF and BONK. Respond as JSON array with: symbol, price');
    const arr = JSON.parse(content) as { symbol: string }[];
    expect(arr.slice(0, 2).map((o) => o.symbol)).toEqual(['WIF', 'BONK']);
  });

  const kinds: [string, (v: unknown) => boolean][] = [
    ['usd', (v) => typeof v === 'number' && v > 0],
    ['value', (v) => typeof v === 'number'],
    ['return', (v) => typeof v === 'number' && Math.round(v * 100) / 100 === v],
    ['percent', (v) => typeof v === 'number'],
    ['token', (v) => typeof v === 'string' && TICKERS.has(v)],
    ['coin', (v) => typeof v === 'string' && TICKERS.has(v)],
    ['asset', (v) => typeof v === 'string' && TICKERS.has(v)],
    ['token_name', (v) => typeof v === 'string' && !TICKERS.has(v)],
    ['reason', (v) => typeof v === 'string' && words(v as string) > 5],
    ['outlook', (v) => typeof v === 'string' && words(v as string) > 5],
    ['timestamp', (v) => typeof v === 'string' && ISO.test(v) && (v as string).startsWith('2026-')],
    ['updatedAt', (v) => typeof v === 'string' && ISO.test(v)],
    ['date', (v) => typeof v === 'string' && ISO.test(v)],
    ['link', (v) => typeof v === 'string' && (v as string).startsWith('https://example.com/')],
    ['tvl', (v) => Number.isInteger(v)],
    ['liquidity', (v) => Number.isInteger(v)],
    ['holder count', (v) => Number.isInteger(v)],
    ['has_catalyst', (v) => typeof v === 'boolean'],
    ['should_buy', (v) => typeof v === 'boolean'],
    ['isMeme', (v) => typeof v === 'boolean'],
    ['probability', (v) => typeof v === 'number' && v >= 0 && v <= 1],
    ['score', (v) => typeof v === 'number' && v >= 0 && v <= 1],
    ['rank', (v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 5],
    ['sentiment', (v) => v === 'bullish' || v === 'bearish' || v === 'neutral'],
    ['whatever', (v) => v === null],
  ];
  it.each(kinds)('field %j gets a plausible value (null: not known)', (field, ok) => {
    for (const q of ['How is ETH?', 'memecoins?', 'Fed?']) {
      const { content } = composeAssistantReply([], `${q} Respond as JSON with: ${field}`);
      const o = JSON.parse(content) as Record<string, unknown>;
      expect(Object.keys(o)).toEqual([field]);
      expect(ok(o[field])).toBe(true);
    }
  });

  it('is deterministic and varies with the message', () => {
    const m = 'Respond as JSON with: symbol, price, created_at';
    expect(composeAssistantReply([], m).content).toBe(composeAssistantReply([], m).content);
    expect(composeAssistantReply([], `SOL? ${m}`).content).not.toBe(composeAssistantReply([], `ETH? ${m}`).content);
  });

  it('always produces parseable JSON for odd field lists', () => {
    const lists = [
      '"a", b}',
      '\\, \u0000, \u2028, \uD83D',
      'x'.repeat(2000),
      Array.from({ length: 200 }, (_, i) => `f${i}`).join(', '),
      '💥, ✨.',
    ];
    for (const list of lists) {
      for (const kind of ['JSON', 'JSON array']) {
        const { content } = composeAssistantReply([], `q Respond as ${kind} with: ${list}`);
        expect(() => JSON.parse(content)).not.toThrow();
      }
    }
  });

  it('uses the last JSON request when the phrase appears twice', () => {
    const r = composeAssistantReply([], 'Respond as JSON with: a\nreally: Respond as JSON with: b, c');
    expect(Object.keys(JSON.parse(r.content))).toEqual(['b', 'c']);
  });
});
