// The one measure of text on a terminal: the columns it draws, code point by code point, by
// string-width's rules for a lone code point (zero for marks and joiners, two for wide and emoji
// ones) with its East Asian Width table. string-width itself is not used: its grapheme segmentation
// (Intl.Segmenter) costs ~40 ms at load (bench/markdown-load.js) and most terminals and tmux count
// code points anyway. Light enough for the CLI bundle: tables, fields and the plain text of a
// streaming reply are laid out with it before the renderer has loaded.
import { eastAsianWidth } from 'get-east-asian-width';

const ZERO_WIDTH = /^[\p{Default_Ignorable_Code_Point}\p{Control}\p{Format}\p{Mn}\p{Me}\p{Cs}]$/u;
const EMOJI = /^\p{Emoji_Presentation}$/u;

/**
 * Format and filler characters terminals draw anyway (measured in tmux): the soft hyphen, Arabic
 * number signs, the Hangul fillers; a lone surrogate is drawn as U+FFFD.
 */
const DRAWN: Record<number, number> = {
  0xad: 1,
  0x600: 1,
  0x601: 1,
  0x602: 1,
  0x603: 1,
  0x604: 1,
  0x605: 1,
  0x115f: 2,
  0x3164: 2,
  0xffa0: 1,
};

export function codePointWidth(ch: string): number {
  const c = ch.charCodeAt(0);
  if (c >= 0x20 && c < 0x7f) return 1;
  const drawn = DRAWN[ch.codePointAt(0)!];
  if (drawn !== undefined) return drawn;
  if (c >= 0xd800 && c <= 0xdfff && ch.length === 1) return 1;
  if (ZERO_WIDTH.test(ch)) return 0;
  return EMOJI.test(ch) ? 2 : eastAsianWidth(ch.codePointAt(0)!);
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Columns `text` takes on a terminal, counted no further than `cap` (text from the service may be of any size). */
export function textWidth(text: string, cap = Infinity): number {
  if (PRINTABLE_ASCII.test(text)) return Math.min(text.length, cap);
  let w = 0;
  for (const ch of text) {
    w += codePointWidth(ch);
    if (w >= cap) return cap;
  }
  return w;
}
