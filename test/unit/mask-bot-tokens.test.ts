// Bot tokens in free text (a soul quoting one, shown in a plan's diff; an error echoing one) show
// their bot id only: every token the contract's pattern accepts, and nothing else.
import { describe, expect, it } from 'vitest';
import { redactText } from '../../src/api/redact.js';
import { BOT_TOKEN_PATTERN } from '../../src/contract.js';
import { maskSecrets } from '../../src/ui/mask.js';

const TOKENS = ['7012345678:AAHk3_x-ZyQw9vLmN0pRsTuVwXyZaBcDeFg', `1:${'a'.repeat(30)}`, `42:-${'Z9_'.repeat(20)}`];

describe('bot tokens within a text', () => {
  it.each(TOKENS)('%s (the contract accepts it) shows its bot id only, in maskSecrets and redactText', (token) => {
    expect(BOT_TOKEN_PATTERN.test(token)).toBe(true);
    const [id, secret] = token.split(':') as [string, string];
    for (const mask of [maskSecrets, (s: string) => redactText(s)]) {
      const out = mask(`Bot: ${token}, and again (${token}).`);
      expect(out).toBe(`Bot: ${id}:…, and again (${id}:…).`);
      expect(out).not.toContain(secret);
    }
  });

  it(
    'a token glued after other characters (a Bot API URL path: ' +
      '/bot<id>:<secret>/sendMessage) shows its bot id only',
    () => {
      const [id, secret] = TOKENS[0]!.split(':') as [string, string];
      for (const mask of [maskSecrets, (s: string) => redactText(s)]) {
        const out = mask(`POST https://api.telegram.org/bot${TOKENS[0]}/sendMessage failed; x_${TOKENS[0]}`);
        expect(out).toBe(`POST https://api.telegram.org/bot${id}:…/sendMessage failed; x_${id}:…`);
        expect(out).not.toContain(secret);
      }
    },
  );

  it('leaves times, ratios and short pairs alone', () => {
    const text = 'at 12:30, 3:1 odds, id 7:abc, 10:00:00';
    expect(maskSecrets(text)).toBe(text);
  });
});
