// Text helpers of the reply runtime (docs/api.md), shared by agent replies and the assistant:
// word counts and clipping, and the small pieces a reply is streamed in. Pure.

export interface Turn {
  role: 'user' | 'agent';
  content: string;
}

export function wordCount(text: string): number {
  let n = 0;
  for (const _ of text.matchAll(/\S+/g)) n++;
  return n;
}

/** Collapse every run of whitespace (newlines included) to one space, trim. */
export function singleLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** At most `max` code points (never half a surrogate pair); adds "…" when cut. */
export function clipChars(text: string, max: number): string {
  const points = Array.from(text);
  if (points.length <= max) return text;
  return (
    points
      .slice(0, Math.max(0, max - 1))
      .join('')
      .trimEnd() + '…'
  );
}

/** The first `max` words of `text` on one line; adds "…" when cut. Long "words" are clipped too. */
export function clipWords(text: string, max: number, maxChars = 160): string {
  const words = singleLine(text).split(' ').filter(Boolean);
  let out = words.slice(0, max).join(' ');
  let cut = words.length > max;
  if (Array.from(out).length > maxChars) {
    out = Array.from(out)
      .slice(0, maxChars - 1)
      .join('')
      .trimEnd();
    cut = true;
  }
  return cut ? `${out}…` : out;
}

/** Strip inline markdown decoration: links become their text, emphasis and code marks go. */
export function plainInline(text: string): string {
  return text
    .replace(/!?\[([^\]\n]{0,300})\]\([^)\n]{0,500}\)/g, '$1')
    .replace(/<[^<>\n]{0,200}>/g, '')
    .replace(/\*+|`+|~~|__/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Remove the trailing sentence marks so a quote can end our own sentence. */
export function dropFinalStop(text: string): string {
  // a loop, not /[.;:!]+$/: that pattern retries from every mark of a long run of them
  let end = text.length;
  while (end > 0 && '.;:!'.includes(text[end - 1] as string)) end--;
  return text.slice(0, end);
}

/** C0 controls other than \t and \n, DEL and C1 controls: a terminal acts on them instead of showing them. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** The text without control characters (tabs and line breaks stay), for what a reply quotes or stores. */
export function withoutControls(text: string): string {
  return text.replace(CONTROLS, '');
}

/** The latest non-empty message of the user in a history, if any. */
export function lastUserTurn(history: readonly Turn[]): Turn | undefined {
  return [...history].reverse().find((t) => t.role === 'user' && typeof t.content === 'string' && t.content.trim());
}

// =============================================================================================
// Streaming pieces

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
/** [ours] code units the segmenter is given at once: walking one long string costs it O(length²) */
const SEGMENT_WINDOW = 256;

/** ASCII, CJK ideographs, Hangul syllables: no grapheme rule joins two of these (but CR LF). */
function standsAlone(code: number): boolean {
  return code < 0x80 || (code >= 0x4e00 && code <= 0x9fff) || (code >= 0xac00 && code <= 0xd7a3);
}

/**
 * The graphemes of `text`, in linear time. A character that stands alone followed by another or
 * by the end is a grapheme of its own (CR LF one together), and so is a control character
 * anywhere; elsewhere the segmenter cuts a window that starts on a grapheme boundary, and all its
 * graphemes but the last (which the window's end may have cut) are kept.
 */
function* graphemes(text: string): Generator<string> {
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1); // NaN past the end
    if ((standsAlone(code) && (Number.isNaN(next) || standsAlone(next))) || code < 0x20 || code === 0x7f) {
      const n = code === 0x0d && next === 0x0a ? 2 : 1;
      yield text.slice(i, i + n);
      i += n;
      continue;
    }
    let width = SEGMENT_WINDOW;
    for (;;) {
      const end = Math.min(text.length, i + width);
      const parts = Array.from(segmenter.segment(text.slice(i, end)), (s) => s.segment);
      if (end === text.length || parts.length > 1) {
        if (end < text.length) parts.pop();
        for (const part of parts) {
          yield part;
          i += part.length;
        }
        break;
      }
      width *= 2; // one grapheme fills the window: widen it
    }
  }
}
const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff01-\uff60]/u;
const SPACE = /^\s+$/u;
/** [ours] a run without spaces is cut into units of at most this many characters (graphemes) */
const MAX_UNIT_GRAPHEMES = 12;
/** [ours] units per piece, cycled: pieces of 1–3 words */
const PIECE_PATTERN = [2, 1, 3, 2, 2, 1, 3] as const;

/**
 * Cut text into small pieces for streaming: 1–3 words each, with their whitespace, so that
 * `pieces.join('') === text`. Never cuts inside a grapheme (so never inside a surrogate pair or
 * an emoji sequence); CJK characters count as words; a long run without spaces is cut every
 * few characters.
 */
export function splitIntoPieces(text: string): string[] {
  if (typeof text !== 'string' || text === '') return [];
  const units: string[] = [];
  let cur = '';
  let curGraphemes = 0; // non-space graphemes in cur
  let curHasTrailingSpace = false;
  let curWide = false;
  const flush = () => {
    if (cur !== '') units.push(cur);
    cur = '';
    curGraphemes = 0;
    curHasTrailingSpace = false;
    curWide = false;
  };
  for (const segment of graphemes(text)) {
    if (SPACE.test(segment)) {
      cur += segment;
      curHasTrailingSpace = true;
      continue;
    }
    const wide = WIDE.test(segment);
    const startsNew =
      curGraphemes > 0 && (curHasTrailingSpace || wide || curWide || curGraphemes >= MAX_UNIT_GRAPHEMES);
    if (startsNew) flush();
    // Leading whitespace (cur holds only spaces) stays with the first word.
    cur += segment;
    curGraphemes++;
    curHasTrailingSpace = false;
    curWide = wide;
  }
  flush();

  const pieces: string[] = [];
  let i = 0;
  let k = 0;
  while (i < units.length) {
    const n = PIECE_PATTERN[k % PIECE_PATTERN.length] as number;
    pieces.push(units.slice(i, i + n).join(''));
    i += n;
    k++;
  }
  return pieces;
}
