// The one function text from the service passes on its way to a terminal (src/ui/terminal-safe.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  TerminalSafeStream,
  caret,
  jsonForTerminal,
  ours,
  terminalSafe,
  toTerminal,
  unmark,
} from '../../src/ui/terminal-safe.js';

const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('terminalSafe', () => {
  it.each([
    ['\u001b[2J', '^[[2J'],
    ['\u001b]52;c;eA==\u0007', '^[]52;c;eA==^G'],
    ['a\rb', 'a^Mb'],
    ['a\r\nb', 'a\nb'],
    ['tab\tand\nnewline', 'tab\tand\nnewline'],
    ['\u007f', '^?'],
    ['\u009b31m', 'M-^[31m'],
    ['\u0000\u0001\u001f', '^@^A^_'],
    ['plain text ✓ 🚀', 'plain text ✓ 🚀'],
  ])('%j → %j', (input, shown) => {
    expect(terminalSafe(input)).toBe(shown);
  });

  it('leaves no control character but \\n and \\t, for any text', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => !RAW_CONTROL.test(terminalSafe(s))));
  });

  it('caret notation is cat -v’s', () => {
    expect([caret(0x1b), caret(0x07), caret(0x7f), caret(0x85)]).toEqual(['^[', '^G', '^?', 'M-^E']);
  });
});

describe('our own control sequences', () => {
  it('survive toTerminal; the same bytes from the service do not', () => {
    const styled = `${ours('\u001b[32m')}ok${ours('\u001b[39m')}`;
    expect(toTerminal(`${styled} \u001b[31mevil`)).toBe('\u001b[32mok\u001b[39m ^[[31mevil');
    expect(unmark(styled)).toBe('\u001b[32mok\u001b[39m');
  });

  it('a service cannot forge a marker: private-use characters stay text', () => {
    const forged = '\uE000aaaaaaaaaaaaaaaa1b\uE001[2J';
    expect(toTerminal(forged)).toBe(forged);
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => !RAW_CONTROL.test(toTerminal(s))));
  });
});

describe('bidirectional controls', () => {
  it('embeddings, overrides and isolates are shown, not obeyed; the marks right-to-left text needs stay', () => {
    // "send to 0x…" with its address reversed on screen by an override
    expect(terminalSafe('send to \u202e0x1234abcd\u202c now')).toBe('send to <U+202E>0x1234abcd<U+202C> now');
    expect(terminalSafe('\u2066a\u2067b\u2068c\u2069 \u202a\u202b\u202d')).toBe(
      '<U+2066>a<U+2067>b<U+2068>c<U+2069> <U+202A><U+202B><U+202D>',
    );
    expect(terminalSafe('שלום\u200f world\u200e')).toBe('שלום\u200f world\u200e');
  });

  it('the line and paragraph separators U+2028/U+2029 are shown too: no forged line in a coin name or a title', () => {
    expect(terminalSafe('ETH\u2028hyperliquid  account value  1000000\u2029x')).toBe(
      'ETH<U+2028>hyperliquid  account value  1000000<U+2029>x',
    );
    expect(jsonForTerminal(JSON.stringify('a\u2028b'))).toBe('"a\\u2028b"');
  });

  it('invisible format characters are shown: a zero-width space cannot hide in a name; the joiners stay', () => {
    expect(terminalSafe('zw\u200bsp')).toBe('zw<U+200B>sp');
    expect(terminalSafe('a\u2060b\u2061c\u2062d\u2063e\u2064f\ufeffg')).toBe(
      'a<U+2060>b<U+2061>c<U+2062>d<U+2063>e<U+2064>f<U+FEFF>g',
    );
    // ZWJ and ZWNJ make an emoji sequence and shape Persian and Indic text: not hidden text, kept
    expect(terminalSafe('\u{1f468}\u200d\u{1f4bb} \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645')).toBe(
      '\u{1f468}\u200d\u{1f4bb} \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645',
    );
    expect(jsonForTerminal(JSON.stringify('zw\u200bsp\ufeff'))).toBe('"zw\\u200bsp\\ufeff"');
  });

  it('in --json on a terminal they are \\u escapes (the same JSON to a parser)', () => {
    const json = JSON.stringify({ note: 'to \u202e0x12\u2069' });
    expect(jsonForTerminal(json)).toBe('{"note":"to \\u202e0x12\\u2069"}');
    expect(JSON.parse(jsonForTerminal(json))).toEqual(JSON.parse(json));
  });
});

describe('TerminalSafeStream', () => {
  it('a CRLF split between two pieces is one line end; a CR held at the end shows as ^M', () => {
    const s = new TerminalSafeStream();
    expect(s.push('one\r') + s.push('\ntwo\r') + s.end()).toBe('one\ntwo^M');
  });

  it(
    'a character split between two pieces (its surrogate halves) ' +
      'is held until whole; a half never completed is U+FFFD',
    () => {
      const s = new TerminalSafeStream();
      expect(s.push('smile \ud83d')).toBe('smile ');
      expect(s.push('\ude00 ok')).toBe('\u{1f600} ok');
      expect(s.push('\ud83d') + s.end()).toBe('\ufffd');
      expect(new TerminalSafeStream().push('a\ude00b\ud83dc')).toBe('a\ufffdb\ufffdc');
    },
  );

  it('any split of a text gives what the whole text gives', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.nat(), (text, at) => {
        const cut = at % (text.length + 1);
        const whole = new TerminalSafeStream();
        const split = new TerminalSafeStream();
        const a = whole.push(text) + whole.end();
        const b = split.push(text.slice(0, cut)) + split.push(text.slice(cut)) + split.end();
        return a === b;
      }),
    );
  });
});
