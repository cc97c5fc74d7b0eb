// Keys from a terminal in raw mode, decoded from its bytes: a pure function over what came so far, so
// an escape sequence or a UTF-8 character split between two reads is held and completed by the next.
// A lone ESC cannot be told from the start of a sequence until a moment passes with nothing more:
// the caller decides that moment (a timer) and calls `flush`, which takes what is held as it is.

/** Keys that are no character. */
export type SpecialKey =
  | 'up'
  | 'down'
  | 'left'
  | 'right'
  | 'pageup'
  | 'pagedown'
  | 'home'
  | 'end'
  | 'insert'
  | 'delete'
  | 'enter'
  | 'escape'
  | 'tab'
  | 'backtab'
  | 'backspace';

export type Key =
  /** `alt`: the key came after an ESC in the same read (Alt+arrow sends that on many terminals) */
  | { name: SpecialKey; alt?: true }
  /** one printable character (one code point, perhaps several bytes, perhaps two columns wide) */
  | { name: 'char'; char: string; alt?: true }
  /** Ctrl with a letter: `char` is the lower-case letter ('c' for Ctrl-C, 'd', 'l'), or @ \ ] ^ _ */
  | { name: 'ctrl'; char: string }
  /** bytes that are no key we know (a sequence of an unknown key, garbage): never print `sequence` as it is */
  | { name: 'unknown'; sequence: string };

const ESC = 0x1b;
/** a CSI sequence longer than this is garbage, not one still arriving */
const MAX_CSI = 32;

const CSI_FINAL: Record<string, SpecialKey> = {
  A: 'up',
  B: 'down',
  C: 'right',
  D: 'left',
  H: 'home',
  F: 'end',
  Z: 'backtab',
};
const SS3_FINAL: Record<string, SpecialKey> = { A: 'up', B: 'down', C: 'right', D: 'left', H: 'home', F: 'end' };
/** ESC [ n ~ (VT220 keys, as xterm, tmux and the Linux console send them) */
const TILDE: Record<string, SpecialKey> = {
  '1': 'home',
  '2': 'insert',
  '3': 'delete',
  '4': 'end',
  '5': 'pageup',
  '6': 'pagedown',
  '7': 'home',
  '8': 'end',
};

const latin1 = (bytes: Uint8Array) => String.fromCharCode(...bytes);
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** What one step of decoding found: a key and the bytes it took, or `hold` (the rest may complete it). */
type Step = { key: Key; size: number } | 'hold';

function control(byte: number): Key {
  if (byte === 0x0d || byte === 0x0a) return { name: 'enter' };
  if (byte === 0x09) return { name: 'tab' };
  if (byte === 0x08 || byte === 0x7f) return { name: 'backspace' };
  if (byte === ESC) return { name: 'escape' };
  if (byte >= 0x01 && byte <= 0x1a) return { name: 'ctrl', char: String.fromCharCode(byte + 0x60) };
  return { name: 'ctrl', char: String.fromCharCode(byte + 0x40) }; // NUL as @, 0x1c–0x1f as \ ] ^ _
}

/** Bytes a UTF-8 character starting with `lead` takes; 0 when `lead` starts none. */
function utf8Length(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

const unknown = (bytes: Uint8Array): Key => ({ name: 'unknown', sequence: latin1(bytes) });

/** A character (ASCII or UTF-8) at `at`. */
function character(buf: Uint8Array, at: number, final: boolean): Step {
  const lead = buf[at]!;
  if (lead >= 0x20 && lead < 0x7f) return { key: { name: 'char', char: String.fromCharCode(lead) }, size: 1 };
  if (lead < 0x20 || lead === 0x7f) return { key: control(lead), size: 1 };
  const size = utf8Length(lead);
  if (size === 0) return { key: unknown(buf.subarray(at, at + 1)), size: 1 };
  for (let k = 1; k < size; k++) {
    const b = buf[at + k];
    if (b === undefined) return final ? { key: unknown(buf.subarray(at)), size: buf.length - at } : 'hold';
    // a broken character: its lead byte is garbage, what follows is read afresh
    if (b < 0x80 || b > 0xbf) return { key: unknown(buf.subarray(at, at + 1)), size: 1 };
  }
  const bytes = buf.subarray(at, at + size);
  let char: string;
  try {
    char = utf8.decode(bytes); // overlong forms and surrogates are refused
  } catch {
    return { key: unknown(bytes), size };
  }
  const code = char.codePointAt(0)!;
  if (code >= 0x80 && code <= 0x9f) return { key: unknown(bytes), size }; // C1 controls are no characters
  return { key: { name: 'char', char }, size };
}

/** ESC [ … final: parameters 0x30–0x3f, intermediates 0x20–0x2f, a final byte 0x40–0x7e. */
function csi(buf: Uint8Array, at: number, final: boolean): Step {
  let k = at + 2;
  while (k < buf.length && k - at < MAX_CSI) {
    const b = buf[k]!;
    if (b >= 0x40 && b <= 0x7e) {
      const size = k + 1 - at;
      const params = latin1(buf.subarray(at + 2, k));
      const last = String.fromCharCode(b);
      // modifiers (ESC [ 1 ; 5 A, Ctrl+up) are dropped: the key is what a view needs
      const name =
        last === '~' ? TILDE[params.split(';')[0]!] : /^(1(;\d+)?)?$/.test(params) ? CSI_FINAL[last] : undefined;
      return { key: name ? { name } : unknown(buf.subarray(at, at + size)), size };
    }
    if (b < 0x20 || b > 0x3f) return { key: unknown(buf.subarray(at, k)), size: k - at }; // cut short
    k++;
  }
  if (k - at >= MAX_CSI) return { key: unknown(buf.subarray(at, k)), size: k - at };
  return final ? { key: unknown(buf.subarray(at)), size: buf.length - at } : 'hold';
}

/** What starts with ESC at `at`. */
function escape(buf: Uint8Array, at: number, final: boolean): Step {
  const next = buf[at + 1];
  if (next === undefined) return final ? { key: { name: 'escape' }, size: 1 } : 'hold';
  if (next === 0x5b /* [ */) {
    if (at + 2 < buf.length || !final) return csi(buf, at, final);
  } else if (next === 0x4f /* O */) {
    const last = buf[at + 2];
    if (last === undefined && !final) return 'hold';
    if (last !== undefined) {
      const name = SS3_FINAL[String.fromCharCode(last)];
      return { key: name ? { name } : unknown(buf.subarray(at, at + 3)), size: 3 };
    }
  }
  if (next === ESC) return { key: { name: 'escape' }, size: 1 };
  // ESC then a key in the same read: that key with Alt (an ESC typed alone is read alone)
  const after = character(buf, at + 1, final);
  if (after === 'hold') return 'hold';
  const key = after.key;
  if (key.name === 'char' || (key.name !== 'ctrl' && key.name !== 'unknown' && key.name !== 'escape')) {
    return { key: { ...key, alt: true }, size: 1 + after.size };
  }
  return { key: { name: 'escape' }, size: 1 };
}

/**
 * The keys in `bytes`, and the bytes at its end that may be the start of a key still arriving (to be
 * put before the next read). With `final`, nothing is held: a lone ESC is the Escape key, a sequence
 * or character cut short is unknown.
 */
export function decodeKeys(bytes: Uint8Array, final = false): { keys: Key[]; rest: Uint8Array } {
  const keys: Key[] = [];
  let at = 0;
  while (at < bytes.length) {
    const byte = bytes[at]!;
    const step = byte === ESC ? escape(bytes, at, final) : character(bytes, at, final);
    if (step === 'hold') break;
    // CR LF (a paste from another system) is one Enter
    const lf = byte === 0x0d && bytes[at + 1] === 0x0a ? 1 : 0;
    keys.push(step.key);
    at += step.size + lf;
  }
  return { keys, rest: bytes.slice(at) };
}

/** The decoder of one input: holds what `decodeKeys` left until the next read or `flush`. */
export class KeyDecoder {
  private held: Uint8Array = new Uint8Array(0);

  /** Keys complete in what was held and `chunk` (a string is taken as UTF-8, as a stream with an encoding gives). */
  push(chunk: Uint8Array | string): Key[] {
    const data = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
    const all = new Uint8Array(this.held.length + data.length);
    all.set(this.held);
    all.set(data, this.held.length);
    const { keys, rest } = decodeKeys(all);
    this.held = rest;
    return keys;
  }

  /** true while bytes are held: the caller calls `flush` after a short pause with nothing more */
  get pending(): boolean {
    return this.held.length > 0;
  }

  /** What is held, taken as it is: a lone ESC becomes the Escape key. */
  flush(): Key[] {
    const { keys } = decodeKeys(this.held, true);
    this.held = new Uint8Array(0);
    return keys;
  }
}
