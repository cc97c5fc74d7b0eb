// Word wrapping of styled text: lines of at most `width` columns, broken at white space (a run of
// it is one space, none at the start or end of a line); a word wider than a line is cut where the
// line ends, but a URL goes whole on a line of its own; '\n' (a hard break) always breaks. One pass
// over the text, whatever its length; a word is kept as slices of its spans' texts (no object per
// word: a long reply has tens of thousands).
import { textWidth } from '../width.js';
import type { Line, Span } from './spans.js';
import { codePointWidth } from '../width.js';

const SPACE = 0x20;
const TAB = 0x09;
const NEWLINE = 0x0a;
/** a word that is an address: `https://…`, or `(https://…)` as a link's `text (url)` shows it */
const URL_START = /^\(?[a-z][a-z0-9+.-]*:\/\/|^\(?mailto:/i;

/** Appends text in the style of `style`, into the line's last span when that one looks the same. */
function put(line: Line, style: Span, text: string): void {
  if (text === '') return;
  const last = line[line.length - 1];
  if (last && last.sgr === style.sgr && last.href === style.href) last.text += text;
  else
    line.push(
      style.sgr === undefined && style.href === undefined ? { text } : { text, sgr: style.sgr, href: style.href },
    );
}

export function wrap(spans: readonly Span[], width: number): Line[] {
  const lines: Line[] = [];
  let line: Line = [];
  let col = 0;
  /** the style of a space waiting between the last word placed and the next (none at a line start) */
  let space: Span | undefined;
  // the word being read: its parts (text, and the span whose style it has), the first `count` of these
  const parts: string[] = [];
  const styles: Span[] = [];
  let count = 0;
  let wordWidth = 0;

  const breakLine = () => {
    lines.push(line);
    line = [];
    col = 0;
  };
  const cut = (style: Span, text: string) => {
    let from = 0;
    let i = 0;
    for (const ch of text) {
      const w = codePointWidth(ch);
      if (col + w > width && col > 0) {
        put(line, style, text.slice(from, i));
        breakLine();
        from = i;
      }
      col += w;
      i += ch.length;
    }
    put(line, style, text.slice(from));
  };
  const placeWord = () => {
    if (count === 0) return;
    const gap = space && col > 0 ? 1 : 0;
    if (col > 0 && col + gap + wordWidth > width) breakLine();
    else if (gap) {
      put(line, space!, ' ');
      col += 1;
    }
    // a URL wider than a line is left whole on a line of its own, for the terminal to wrap: cut with
    // our line breaks, a click or a copy would take only its first part
    if (col + wordWidth <= width || URL_START.test(parts.slice(0, count).join(''))) {
      for (let k = 0; k < count; k++) put(line, styles[k]!, parts[k]!);
      col += wordWidth;
    } else for (let k = 0; k < count; k++) cut(styles[k]!, parts[k]!);
    count = 0;
    wordWidth = 0;
    space = undefined;
  };

  for (const span of spans) {
    const text = span.text;
    let i = 0;
    while (i < text.length) {
      const c = text.charCodeAt(i);
      if (c === NEWLINE) {
        placeWord();
        breakLine();
        space = undefined;
        i++;
      } else if (c === SPACE || c === TAB) {
        placeWord();
        if (col > 0) space = span;
        while (i < text.length && (text.charCodeAt(i) === SPACE || text.charCodeAt(i) === TAB)) i++;
      } else {
        let j = i + 1;
        for (; j < text.length; j++) {
          const d = text.charCodeAt(j);
          if (d === SPACE || d === TAB || d === NEWLINE) break;
        }
        const part = text.slice(i, j);
        parts[count] = part;
        styles[count++] = span;
        wordWidth += textWidth(part);
        i = j;
      }
    }
  }
  placeWord();
  if (line.length > 0 || lines.length === 0) lines.push(line);
  return lines;
}
