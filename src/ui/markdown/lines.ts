// Line-level facts of Markdown (CommonMark and GFM), read by hand in one pass each: where a line's
// text starts, whether it opens a fence, a heading, a rule, a list item or a quote, and a table row's
// cells. No regular expression here can backtrack over a long line (a 1 MB table row, 10,000 list
// markers on one line), so every reader is linear in the line.

/** Columns of white space at the start of a line (a tab reaches the next multiple of 4). */
export function leadColumns(line: string): number {
  let col = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === ' ') col++;
    else if (c === '\t') col += 4 - (col % 4);
    else break;
  }
  return col;
}

/** The line without up to `cols` columns of leading white space. */
export function stripColumns(line: string, cols: number): string {
  let col = 0;
  let i = 0;
  while (i < line.length && col < cols) {
    const c = line[i];
    if (c === ' ') col++;
    else if (c === '\t') {
      const next = col + 4 - (col % 4);
      // a tab that reaches past the cut leaves the rest of its width as spaces
      if (next > cols) return ' '.repeat(next - cols) + line.slice(i + 1);
      col = next;
    } else break;
    i++;
  }
  return line.slice(i);
}

export const isBlank = (line: string): boolean => line.trim() === '';

export interface FenceStart {
  char: '`' | '~';
  length: number;
  /** the first word of the info string: the language */
  lang: string;
}

/** ``` or ~~~ (three or more) after at most 3 spaces; a backtick fence's info has no backtick. */
export function fenceStart(body: string): FenceStart | undefined {
  const lead = leadColumns(body);
  if (lead > 3) return undefined;
  const rest = body.trimStart();
  const char = rest[0];
  if (char !== '`' && char !== '~') return undefined;
  let n = 0;
  while (rest[n] === char) n++;
  if (n < 3) return undefined;
  const info = rest.slice(n).trim();
  if (char === '`' && info.includes('`')) return undefined;
  return { char, length: n, lang: info.split(/\s/, 1)[0] ?? '' };
}

/** Whether the line closes a fence: the same character, at least as many, nothing after. */
export function closesFence(line: string, fence: FenceStart): boolean {
  const rest = line.trim();
  if (rest.length < fence.length) return false;
  for (let i = 0; i < rest.length; i++) if (rest[i] !== fence.char) return false;
  return true;
}

/** `# Title` (1 to 6 #, then a space or nothing): its level and text, a closing run of # removed. */
export function atxHeading(body: string): { level: number; text: string } | undefined {
  if (leadColumns(body) > 3) return undefined;
  const rest = body.trim();
  let level = 0;
  while (rest[level] === '#') level++;
  if (level === 0 || level > 6) return undefined;
  const after = rest[level];
  if (after !== undefined && after !== ' ' && after !== '\t') return undefined;
  let text = rest.slice(level).trim();
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  if (end === 0) text = '';
  else if (end < text.length && (text[end - 1] === ' ' || text[end - 1] === '\t')) text = text.slice(0, end).trimEnd();
  return { level, text };
}

/** `---`, `***`, `___`: three or more of one of them, spaces between allowed, nothing else. */
export function isRule(body: string): boolean {
  if (leadColumns(body) > 3) return false;
  const rest = body.trim();
  const char = rest[0];
  if (char !== '-' && char !== '*' && char !== '_') return false;
  let count = 0;
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i];
    if (c === char) count++;
    else if (c !== ' ' && c !== '\t') return false;
  }
  return count >= 3;
}

/** A setext underline: a run of = (level 1) or - (level 2), nothing else. */
export function setextLevel(body: string): 1 | 2 | undefined {
  if (leadColumns(body) > 3) return undefined;
  const rest = body.trim();
  const char = rest[0];
  if (char !== '=' && char !== '-') return undefined;
  for (let i = 0; i < rest.length; i++) if (rest[i] !== char) return undefined;
  return char === '=' ? 1 : 2;
}

export interface ItemStart {
  /** as written: `-`, `*`, `+`, `3.`, `3)` */
  marker: string;
  ordered: boolean;
  /** columns from the start of `body` to the item's text */
  contentOffset: number;
  /** the text after the marker */
  text: string;
}

/** A list item's marker after at most 3 spaces, followed by white space or the end of the line. */
export function itemStart(body: string): ItemStart | undefined {
  const lead = leadColumns(body);
  if (lead > 3) return undefined;
  const rest = body.trimStart();
  let n = 0;
  let ordered = false;
  if (rest[0] === '-' || rest[0] === '*' || rest[0] === '+') n = 1;
  else {
    while (n < 9 && rest[n]! >= '0' && rest[n]! <= '9') n++;
    if (n === 0 || (rest[n] !== '.' && rest[n] !== ')')) return undefined;
    n++;
    ordered = true;
  }
  const after = rest.slice(n);
  if (after !== '' && after[0] !== ' ' && after[0] !== '\t') return undefined;
  const spaces = leadColumns(after);
  // five or more spaces: the text starts one space after the marker (the rest is indented code)
  const gap = after.trim() === '' ? 1 : spaces > 4 ? 1 : spaces;
  return {
    marker: rest.slice(0, n),
    ordered,
    contentOffset: lead + n + gap,
    text: after.trim() === '' ? '' : stripColumns(after, gap),
  };
}

/** A quote line's markers: how many `>` open it (`> > x` is 2), and the text after them. */
export function quoteStart(body: string): { depth: number; text: string } | undefined {
  let i = 0;
  let depth = 0;
  for (;;) {
    let j = i;
    let spaces = 0;
    while (body[j] === ' ' && spaces < 3) {
      j++;
      spaces++;
    }
    if (body[j] !== '>') break;
    depth++;
    i = j + 1;
    if (body[i] === ' ' || body[i] === '\t') i++;
  }
  return depth === 0 ? undefined : { depth, text: body.slice(i) };
}

/** A table row's cells: outer pipes optional, `\|` a pipe inside a cell (GFM), each cell trimmed. */
export function tableCells(line: string): string[] {
  let text = line.trim();
  if (text.startsWith('|')) text = text.slice(1);
  if (text.endsWith('|') && !text.endsWith('\\|')) text = text.slice(0, -1);
  const cells: string[] = [];
  let start = 0;
  let cell = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\' && text[i + 1] === '|') {
      cell += text.slice(start, i) + '|';
      start = i + 2;
      i++;
    } else if (text[i] === '|') {
      cells.push((cell + text.slice(start, i)).trim());
      cell = '';
      start = i + 1;
    }
  }
  cells.push((cell + text.slice(start)).trim());
  return cells;
}

export const hasPipe = (line: string): boolean => line.includes('|');

export type Align = 'left' | 'center' | 'right' | undefined;

/** The delimiter row under a table's header (`|---|:--:|`): each column's alignment; undefined when it is not one. */
export function delimiterRow(line: string): Align[] | undefined {
  if (!hasPipe(line) && !line.includes('-')) return undefined;
  const cells = tableCells(line);
  const aligns: Align[] = [];
  for (const cell of cells) {
    const left = cell.startsWith(':');
    const right = cell.endsWith(':') && cell.length > 1;
    const dashes = cell.slice(left ? 1 : 0, right ? -1 : undefined);
    if (dashes.length === 0) return undefined;
    for (let i = 0; i < dashes.length; i++) if (dashes[i] !== '-') return undefined;
    aligns.push(left && right ? 'center' : right ? 'right' : left ? 'left' : undefined);
  }
  return aligns;
}

const TAB = 4;

/** Tabs as spaces, to the next multiple of 4 (in code: a terminal's own tab stops ignore our indentation). */
export function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const ch of line) out += ch === '\t' ? ' '.repeat(TAB - (out.length % TAB)) : ch;
  return out;
}
