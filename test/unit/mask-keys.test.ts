// Keys of the two services in free text (an error echoing one, a name or a soul quoting one). What
// counts as key-shaped, demanding rather than lenient: `sa_sk_` or `gb_sk_` in any letter case,
// wherever it starts (glued after letters, digits or `_` too), and every key character after it.
import { describe, expect, it } from 'vitest';
import { redactText } from '../../src/api/redact.js';
import { maskSecrets } from '../../src/ui/mask.js';

const BODY = 'Q1w2E3r4T5y6U7i8O9p0AsDfGhJkL9f2c';

describe('key-shaped text is masked wherever it is', () => {
  it.each([
    ['upper case, after =', `KEY=SA_SK_${BODY}`, 'KEY=SA_SK_…9f2c'],
    ['mixed case', `key Gb_Sk_${BODY}.`, 'key Gb_Sk_…9f2c.'],
    ['glued after letters', `xsa_sk_${BODY}`, 'xsa_sk_…9f2c'],
    ['glued after digits and _', `id_42gb_sk_${BODY}`, 'id_42gb_sk_…9f2c'],
    ['in a URL path', `https://h/keys/sa_sk_${BODY}/rotate`, 'https://h/keys/sa_sk_…9f2c/rotate'],
    ['short: the prefix alone shows', 'sa_sk_abc and GB_SK_x1', 'sa_sk_… and GB_SK_…'],
    ['two in a line', `sa_sk_${BODY} gb_sk_${BODY}`, 'sa_sk_…9f2c gb_sk_…9f2c'],
  ])('%s', (_what, text, masked) => {
    for (const mask of [maskSecrets, (s: string) => redactText(s)]) {
      expect(mask(text)).toBe(masked);
      expect(mask(text)).not.toContain(BODY.slice(0, 8));
    }
  });

  it.each([
    ['a prefix named in prose', 'a hosted key (gb_sk_…) or an sa_sk_ key'],
    ['a masked key (masking twice changes nothing)', 'sa_sk_…9f2c'],
    ['other words with _sk_', 'task_sk_list and ask_sk_it'],
  ])('leaves %s as it is', (_what, text) => {
    expect(maskSecrets(text)).toBe(text);
  });
});
