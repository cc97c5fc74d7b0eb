// Word wrapping of styled text: lines of at most `width` columns, broken at white space (a run of
// it is one space, none at the start or end of a line); a word wider than a line is cut where the
// line ends; '\n' (a hard break) always breaks. One pass over the text, whatever its length.
import { append, textWidth, type Line, type Span } from './spans.js';
import { codePointWidth } from './width.js';

const WORDS = /(\n)|([ \t]+)|([^ \t\n]+)/g;

export function wrap(spans: readonly Span[], width: number): Line[] {
  const lines: Line[] = [];
  let line: Line = [];
  let col = 0;
  let space: Span | undefined;
  let word: Span[] = [];
  let wordWidth = 0;

  const breakLine = () => {
    lines.push(line);
    line = [];
    col = 0;
  };
  const cut = (piece: Span) => {
    let from = 0;
    let i = 0;
    for (const ch of piece.text) {
      const w = codePointWidth(ch);
      if (col + w > width && col > 0) {
        append(line, { ...piece, text: piece.text.slice(from, i) });
        breakLine();
        from = i;
      }
      col += w;
      i += ch.length;
    }
    append(line, { ...piece, text: piece.text.slice(from) });
  };
  const placeWord = () => {
    if (word.length === 0) return;
    const gap = space && col > 0 ? 1 : 0;
    if (col > 0 && col + gap + wordWidth > width) breakLine();
    else if (gap) {
      append(line, space!);
      col += 1;
    }
    if (col + wordWidth <= width) {
      for (const piece of word) append(line, piece);
      col += wordWidth;
    } else for (const piece of word) cut(piece);
    word = [];
    wordWidth = 0;
    space = undefined;
  };

  for (const span of spans) {
    WORDS.lastIndex = 0;
    for (let m = WORDS.exec(span.text); m; m = WORDS.exec(span.text)) {
      if (m[1]) {
        placeWord();
        breakLine();
        space = undefined;
      } else if (m[2]) {
        placeWord();
        if (col > 0) space = { ...span, text: ' ' };
      } else {
        word.push({ ...span, text: m[3]! });
        wordWidth += textWidth(m[3]!);
      }
    }
  }
  placeWord();
  if (line.length > 0 || lines.length === 0) lines.push(line);
  return lines;
}
