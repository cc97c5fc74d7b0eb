// The columns one code point takes on a terminal, by string-width's rules for a lone code point (zero
// for marks and joiners, two for wide and emoji ones) with its East Asian Width table, without its
// grapheme segmentation (slow to load and one character at a time). Light enough for the CLI bundle:
// the plain text of a streaming reply is laid out with it before the renderer has loaded.
import { eastAsianWidth } from 'get-east-asian-width';

const ZERO_WIDTH = /^[\p{Default_Ignorable_Code_Point}\p{Control}\p{Format}\p{Mn}\p{Me}\p{Cs}]$/u;
const EMOJI = /^\p{Emoji_Presentation}$/u;

export function codePointWidth(ch: string): number {
  const c = ch.charCodeAt(0);
  if (c >= 0x20 && c < 0x7f) return 1;
  if (ZERO_WIDTH.test(ch)) return 0;
  return EMOJI.test(ch) ? 2 : eastAsianWidth(ch.codePointAt(0)!);
}
