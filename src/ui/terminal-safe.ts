// Text from the service is untrusted: on its way to a terminal, every control character but the
// newline and the tab becomes visible, the way `cat -v` shows it: C0 as caret notation (ESC → ^[, so
// `\e[2J` shows as `^[[2J`, BEL → ^G, a bare CR → ^M), DEL → ^?, C1 as M-^ (U+009B → M-^[). A CRLF
// line end becomes a plain newline. No escape sequence from the service reaches the terminal, however
// it is split across chunks: each control character is replaced on its own. The bidirectional
// embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069) are shown as <U+202E>: on a
// terminal that applies them they reorder what follows ("Trojan Source": an address or an amount
// shown other than it is). The marks U+200E/U+200F, which right-to-left text needs, stay. So do the
// joiners U+200C/U+200D (emoji sequences, Persian and Indic text); the invisible characters that shape
// nothing (U+200B, U+2060–U+2064, U+FEFF) are shown as <U+200B>: a name cannot hide one. The line
// and paragraph separators U+2028/U+2029 are shown the same way: a terminal or a log reader may break
// the line there, and a coin name or a title would forge a line of its own.
//
// Our own colours and cursor moves still work because they are not written as control characters:
// the printer's stylers (and `ours`) emit markers made of private-use characters and a per-process
// random word, which text from the service cannot contain, and which `toTerminal` turns back into
// the control characters after sanitising.

/** the bidirectional embeddings, overrides and isolates (a character class's contents) */
export const BIDI = '\u202a-\u202e\u2066-\u2069';
/** the line and paragraph separators */
const SEPARATORS = '\u2028\u2029';
/** invisible format characters that shape no text: zero-width space, word joiner, invisible operators, BOM */
export const INVISIBLE = '\u200b\u2060-\u2064\ufeff';
const CONTROLS = new RegExp(`[\u0000-\u0008\u000b-\u001f\u007f-\u009f${SEPARATORS}${BIDI}${INVISIBLE}]`, 'g');

/** `cat -v` notation for one control character; a bidirectional control or a separator as <U+202E>. */
export function caret(code: number): string {
  if (code >= 0x2000) return `<U+${code.toString(16).toUpperCase()}>`;
  if (code === 0x7f) return '^?';
  if (code >= 0x80) return `M-^${String.fromCharCode(code - 0x80 + 0x40)}`;
  return `^${String.fromCharCode(code + 0x40)}`;
}

/** The text with every control character but \n and \t made visible, and CRLF as \n. */
export function terminalSafe(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROLS, (c) => caret(c.charCodeAt(0)));
}

const NONCE = `${Math.random().toString(36).slice(2, 10)}${Math.random().toString(36).slice(2, 10)}`;
const MARK = new RegExp(`\uE000${NONCE}([0-9a-f]{2})\uE001`, 'g');

/** Control characters of our own (colours, `\r\x1b[2K`): kept as markers until written. */
export function ours(sequence: string): string {
  return sequence.replace(
    /[\u0000-\u001f\u007f]/g,
    (c) => `\uE000${NONCE}${c.charCodeAt(0).toString(16).padStart(2, '0')}\uE001`,
  );
}

/** Our markers as the control characters they stand for (a stream that is not a terminal gets just this). */
export function unmark(text: string): string {
  return text.includes('\uE000')
    ? text.replace(MARK, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : text;
}

/** What a terminal may be given: the text made safe, then our own styling put back. */
export function toTerminal(text: string): string {
  return unmark(terminalSafe(text));
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** String.prototype.toWellFormed (ES2024): a lone half of a character becomes U+FFFD. */
function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd');
}

/**
 * Pieces of one stream of text (a reply) made safe as they come: a CR at the end of a piece waits
 * for the next one, so a CRLF split between two pieces is still a plain newline.
 */
export class TerminalSafeStream {
  private heldCR = false;
  /** a high surrogate at a piece's end: the other half of its character may come with the next piece */
  private heldHigh = '';

  push(piece: string): string {
    let text = (this.heldCR ? '\r' : '') + this.heldHigh + piece;
    this.heldHigh = '';
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.heldHigh = text.slice(-1);
      text = text.slice(0, -1);
    }
    this.heldCR = text.endsWith('\r');
    if (this.heldCR) text = text.slice(0, -1);
    // a half of a character the service never completed is shown as the terminal would: U+FFFD
    return toTerminal(wellFormed(text));
  }

  /** The end of the stream: a CR still held is a bare CR; a lone half of a character, U+FFFD. */
  end(): string {
    const rest = (this.heldCR ? caret(0x0d) : '') + (this.heldHigh ? '\ufffd' : '');
    this.heldCR = false;
    this.heldHigh = '';
    return rest;
  }
}

/** what JSON.stringify leaves unescaped that a terminal may obey or hide: DEL, C1, separators, bidi, invisibles */
const JSON_UNESCAPED = new RegExp(`[\u007f-\u009f${SEPARATORS}${BIDI}${INVISIBLE}]`, 'g');

/**
 * JSON text for a terminal: JSON.stringify escapes C0 controls but leaves DEL and C1 (U+0080–U+009F,
 * which some terminals obey), the separators and the bidirectional controls as they are; here they
 * are `\u` escapes too. The same JSON to a parser.
 */
export function jsonForTerminal(json: string): string {
  return json.replace(JSON_UNESCAPED, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
