// The key decoder over raw terminal bytes: keys whole however the bytes are split between reads, a
// lone ESC held until the caller's pause says it is one, garbage read as unknown and never lost.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KeyDecoder, decodeKeys, type Key } from '../../src/ui/screen/keys.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const keys = (s: string | number[]) => decodeKeys(typeof s === 'string' ? bytes(s) : Uint8Array.from(s), true).keys;

describe('decodeKeys', () => {
  it.each([
    ['\x1b[A', 'up'],
    ['\x1b[B', 'down'],
    ['\x1b[C', 'right'],
    ['\x1b[D', 'left'],
    ['\x1bOA', 'up'],
    ['\x1bOB', 'down'],
    ['\x1bOC', 'right'],
    ['\x1bOD', 'left'],
    ['\x1b[5~', 'pageup'],
    ['\x1b[6~', 'pagedown'],
    ['\x1b[H', 'home'],
    ['\x1b[F', 'end'],
    ['\x1bOH', 'home'],
    ['\x1bOF', 'end'],
    ['\x1b[1~', 'home'],
    ['\x1b[4~', 'end'],
    ['\x1b[7~', 'home'],
    ['\x1b[8~', 'end'],
    ['\x1b[2~', 'insert'],
    ['\x1b[3~', 'delete'],
    ['\x1b[Z', 'backtab'],
    ['\x1b[1;5A', 'up'],
    ['\r', 'enter'],
    ['\n', 'enter'],
    ['\t', 'tab'],
    ['\x7f', 'backspace'],
    ['\x08', 'backspace'],
  ])('%j is %s', (input, name) => {
    expect(keys(input)).toEqual([{ name }]);
  });

  it('reads Ctrl with a letter as that letter: Ctrl-C, Ctrl-D, Ctrl-L', () => {
    expect(keys('\x03\x04\x0c')).toEqual([
      { name: 'ctrl', char: 'c' },
      { name: 'ctrl', char: 'd' },
      { name: 'ctrl', char: 'l' },
    ]);
  });

  it('reads printable characters one code point each, multi-byte UTF-8 and emoji included', () => {
    expect(keys('jké中😀')).toEqual(['j', 'k', 'é', '中', '😀'].map((char) => ({ name: 'char', char })));
  });

  it('reads several keys in one read (a paste, keys typed fast)', () => {
    expect(keys('q\x1b[Aj\r')).toEqual([
      { name: 'char', char: 'q' },
      { name: 'up' },
      { name: 'char', char: 'j' },
      { name: 'enter' },
    ]);
  });

  it('reads CR LF as one Enter', () => {
    expect(keys('\r\n')).toEqual([{ name: 'enter' }]);
  });

  it('reads ESC followed by a key in the same read as that key with Alt, ESC ESC as two Escapes', () => {
    expect(keys('\x1bq')).toEqual([{ name: 'char', char: 'q', alt: true }]);
    expect(keys('\x1b\x1b')).toEqual([{ name: 'escape' }, { name: 'escape' }]);
    expect(keys('\x1b\x03')).toEqual([{ name: 'escape' }, { name: 'ctrl', char: 'c' }]);
  });

  it('holds a lone ESC and any sequence or character cut short, until told the input is final', () => {
    for (const partial of ['\x1b', '\x1b[', '\x1b[1;', '\x1bO']) {
      const cut = bytes(partial);
      expect(decodeKeys(cut).keys, JSON.stringify(partial)).toEqual([]);
      expect(decodeKeys(cut).rest).toEqual(cut);
    }
    const half = bytes('中').subarray(0, 2);
    expect(decodeKeys(half)).toEqual({ keys: [], rest: half });
    expect(decodeKeys(half, true).keys).toEqual([{ name: 'unknown', sequence: '\xe4\xb8' }]);
  });

  it('reads garbage bytes as unknown keys, one each, and what follows them as it is', () => {
    expect(keys([0xff, 0x61])).toEqual([
      { name: 'unknown', sequence: '\xff' },
      { name: 'char', char: 'a' },
    ]);
    // a lone continuation byte, an overlong form, a lead byte whose character is cut by an ASCII byte
    expect(keys([0x80])).toEqual([{ name: 'unknown', sequence: '\x80' }]);
    expect(keys([0xc0, 0xaf])).toEqual([
      { name: 'unknown', sequence: '\xc0' },
      { name: 'unknown', sequence: '\xaf' },
    ]);
    expect(keys([0xe4, 0x41])).toEqual([
      { name: 'unknown', sequence: '\xe4' },
      { name: 'char', char: 'A' },
    ]);
    // an encoded surrogate and a C1 control are no characters
    expect(keys([0xed, 0xa0, 0x80])).toEqual([{ name: 'unknown', sequence: '\xed\xa0\x80' }]);
    expect(keys([0xc2, 0x9b])).toEqual([{ name: 'unknown', sequence: '\xc2\x9b' }]);
  });

  it('reads unknown and broken escape sequences as unknown, without eating the key after them', () => {
    expect(keys('\x1b[99zq')).toEqual([
      { name: 'unknown', sequence: '\x1b[99z' },
      { name: 'char', char: 'q' },
    ]);
    expect(keys('\x1bOxq')).toEqual([
      { name: 'unknown', sequence: '\x1bOx' },
      { name: 'char', char: 'q' },
    ]);
    // a sequence cut by a control byte: the control byte is still a key
    expect(keys('\x1b[1\x03')).toEqual([
      { name: 'unknown', sequence: '\x1b[1' },
      { name: 'ctrl', char: 'c' },
    ]);
  });

  it('does not hold an endless sequence: past a bound it is garbage', () => {
    const long = '\x1b[' + '1'.repeat(100);
    const { keys: found, rest } = decodeKeys(bytes(long));
    expect(found[0]?.name).toBe('unknown');
    expect(rest.length).toBeLessThan(32);
  });
});

describe('KeyDecoder', () => {
  it('completes an escape sequence split across reads, in both CSI and SS3 forms', () => {
    const d = new KeyDecoder();
    expect(d.push('\x1b')).toEqual([]);
    expect(d.pending).toBe(true);
    expect(d.push('[')).toEqual([]);
    expect(d.push('B')).toEqual([{ name: 'down' }]);
    expect(d.pending).toBe(false);
    expect(d.push('\x1bO')).toEqual([]);
    expect(d.push('A')).toEqual([{ name: 'up' }]);
  });

  it('completes a UTF-8 character split across reads', () => {
    const d = new KeyDecoder();
    const emoji = bytes('😀');
    expect(d.push(emoji.subarray(0, 1))).toEqual([]);
    expect(d.push(emoji.subarray(1, 3))).toEqual([]);
    expect(d.push(emoji.subarray(3))).toEqual([{ name: 'char', char: '😀' }]);
  });

  it('gives a lone ESC as Escape only when flushed (the caller decides the pause)', () => {
    const d = new KeyDecoder();
    expect(d.push('\x1b')).toEqual([]);
    expect(d.flush()).toEqual([{ name: 'escape' }]);
    expect(d.pending).toBe(false);
    expect(d.push('q')).toEqual([{ name: 'char', char: 'q' }]);
  });

  it('flushes a CSI cut short after ESC [ as Alt-[ (what the bytes are without their end)', () => {
    const d = new KeyDecoder();
    d.push('\x1b[');
    expect(d.flush()).toEqual([{ name: 'char', char: '[', alt: true }]);
  });

  it('decodes any bytes split at any points as it decodes them whole, losing none', () => {
    // CR then LF in two reads is two Enters (the Enter is acted on at once): LF is left out here
    const input = fc.uint8Array({ maxLength: 40 }).map((a) => a.map((b) => (b === 0x0a ? 0x41 : b)));
    const alphabet = fc.constantFrom(...[0x1b, 0x5b, 0x4f, 0x41, 0x7e, 0x35, 0x3b, 0xe4, 0xb8, 0xad, 0xf0, 0x9f]);
    const biased = fc.array(alphabet, { maxLength: 40 }).map((a) => Uint8Array.from(a));
    fc.assert(
      fc.property(fc.oneof(input, biased), fc.array(fc.nat(40), { maxLength: 5 }), (data, cuts) => {
        const d = new KeyDecoder();
        const got: Key[] = [];
        let from = 0;
        for (const cut of [...cuts.map((c) => Math.min(c, data.length)).sort((a, b) => a - b), data.length]) {
          got.push(...d.push(data.subarray(from, Math.max(from, cut))));
          from = Math.max(from, cut);
        }
        got.push(...d.flush());
        expect(got).toEqual(decodeKeys(data, true).keys);
        const sequenceBytes = got.reduce((n, k) => n + (k.name === 'unknown' ? k.sequence.length : 0), 0);
        expect(sequenceBytes).toBeLessThanOrEqual(data.length);
      }),
    );
  });
});
