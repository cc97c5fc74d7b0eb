// A Markdown reply split into blocks line by line, as it streams: each block is handed over as soon
// as it is known to be complete (a heading or a line of code at its own line end, a paragraph, list
// item, quote or table at the first line that is not part of it). The split depends on the lines
// alone, never on how the text was cut into pieces, so a streamed reply ends up exactly as the whole
// one renders. CommonMark decides block structure at the start of each line, which is what makes a
// line-by-line reading possible; the text inside each block is parsed by markdown-it (inline.ts).
// Nesting costs nothing: list levels are a stack searched by bisection, quote and list markers are
// counted in one pass, nothing recurses.
import {
  atxHeading,
  closesFence,
  delimiterRow,
  fenceStart,
  hasPipe,
  isBlank,
  isRule,
  itemStart,
  leadColumns,
  quoteStart,
  setextLevel,
  stripColumns,
  tableCells,
  type FenceStart,
} from './lines.js';

/** `indent`: columns of list nesting the block sits in, as drawn (not capped to the width yet) */
export type Block =
  | { kind: 'blank' }
  | { kind: 'paragraph'; lines: string[]; indent: number }
  | { kind: 'heading'; level: number; text: string; indent: number }
  | { kind: 'rule'; indent: number }
  | { kind: 'item'; marker: string; ordered: boolean; depth: number; lines: string[]; indent: number }
  | { kind: 'quote'; depth: number; lines: string[]; indent: number }
  | { kind: 'table'; lines: string[]; indent: number }
  | { kind: 'fence'; edge: 'open' | 'close'; marker: string; lang: string; indent: number }
  | { kind: 'code'; text: string; indent: number };

type Growing =
  | { kind: 'paragraph'; lines: string[]; indent: number }
  | { kind: 'item'; marker: string; ordered: boolean; depth: number; lines: string[]; indent: number }
  | { kind: 'quote'; depth: number; lines: string[]; indent: number }
  | { kind: 'table'; lines: string[]; indent: number };

interface Level {
  /** source column where the item's text starts: lines indented this far belong to it */
  contentCol: number;
  /** column where its text is drawn */
  drawnCol: number;
}

interface OpenFence extends FenceStart {
  /** source columns stripped from each line of code */
  strip: number;
  /** a closing fence may sit this far in (forgiving: a misindented close still closes) */
  maxLead: number;
  marker: string;
  indent: number;
}

/** Columns a marker and its space take when drawn (• is one column, `10.` three). */
export const drawnMarkerWidth = (marker: string, ordered: boolean): number => (ordered ? marker.length : 1) + 1;

export class BlockSplitter {
  private growing: Growing | undefined;
  /** the source lines of the growing block */
  private raw: string[] = [];
  private fence: OpenFence | undefined;
  private levels: Level[] = [];
  private blanks: string[] = [];
  private handedOver = false;
  private out: Block[] = [];

  /** `nested`: the text inside a quote, whose `>` markers are gone already (so `>` is text here) */
  constructor(private readonly nested = false) {}

  /** One complete line (without its \n): the blocks it completes, in order. */
  line(line: string): Block[] {
    this.out = [];
    this.read(line);
    return this.out;
  }

  /** The end of the text: whatever is still growing is complete, an open fence closes. */
  end(): Block[] {
    this.out = [];
    this.close();
    if (this.fence)
      this.emit({ kind: 'fence', edge: 'close', marker: this.fence.marker, lang: '', indent: this.fence.indent });
    this.fence = undefined;
    return this.out;
  }

  /** The source lines not handed over in a block yet (shown as they are until they are). */
  pending(): string[] {
    return [...this.blanks, ...this.raw];
  }

  private emit(block: Block): void {
    if (this.blanks.length > 0 && this.handedOver) this.out.push({ kind: 'blank' });
    this.blanks = [];
    this.out.push(block);
    this.handedOver = true;
  }

  private close(): void {
    if (this.growing) this.emit(this.growing);
    this.growing = undefined;
    this.raw = [];
  }

  private open(block: Growing, raw: string[]): void {
    this.close();
    this.growing = block;
    this.raw = raw;
  }

  /** How many list levels hold a line indented `lead` columns (their text columns increase). */
  private levelsHolding(lead: number): number {
    let lo = 0;
    let hi = this.levels.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.levels[mid]!.contentCol <= lead) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private read(line: string): void {
    if (this.fence) return this.inFence(line);
    if (isBlank(line)) {
      this.close();
      this.blanks.push(line);
      return;
    }
    const lead = leadColumns(line);
    const held = this.levelsHolding(lead);
    const level = held > 0 ? this.levels[held - 1] : undefined;
    const body = stripColumns(line, level?.contentCol ?? 0);
    const indent = level?.drawnCol ?? 0;
    const g = this.growing;

    if (g?.kind === 'paragraph' && held === this.levels.length) {
      const aligns = delimiterRow(body);
      const header = g.lines[g.lines.length - 1]!;
      if (aligns && hasPipe(header) && tableCells(header).length === aligns.length) return this.startTable(g, line);
      const underline = setextLevel(body);
      if (underline) {
        this.growing = undefined;
        this.raw = [];
        return this.emit({ kind: 'heading', level: underline, text: g.lines.join(' '), indent: g.indent });
      }
    }
    const rule = isRule(body);
    const item = rule ? undefined : itemStart(body);
    // the first item of a list interrupts a paragraph only when it has text and, if numbered, starts at 1
    const interrupts =
      !!item &&
      !(
        g?.kind === 'paragraph' &&
        this.levels.length === 0 &&
        (item.text === '' || (item.ordered && parseInt(item.marker, 10) !== 1))
      );
    const quote = this.nested ? undefined : quoteStart(body);
    const starts = interrupts || rule || !!quote || !!atxHeading(body) || !!fenceStart(body);
    // a line that starts nothing of its own continues the paragraph, item or quote above it (lazily)
    if (!starts && g && (g.kind !== 'table' || hasPipe(line))) {
      g.lines.push(line.trimStart());
      this.raw.push(line);
      return;
    }
    this.levels.length = held;
    if (interrupts) return this.startItem(line, body, indent);
    if (quote) return this.quoteLine(quote, line, indent);
    this.close();
    if (rule) return this.emit({ kind: 'rule', indent });
    const heading = atxHeading(body);
    if (heading) return this.emit({ kind: 'heading', ...heading, indent });
    const fence = fenceStart(body);
    if (fence) return this.startFence(fence, body, level?.contentCol ?? 0, indent);
    if (leadColumns(body) >= 4) return this.emit({ kind: 'code', text: stripColumns(body, 4), indent: indent + 4 });
    // trailing spaces stay: two of them are a hard line break
    this.open({ kind: 'paragraph', lines: [body.trimStart()], indent }, [line]);
  }

  private inFence(line: string): void {
    const f = this.fence!;
    if (leadColumns(line) <= f.maxLead && closesFence(line, f)) {
      this.fence = undefined;
      return this.emit({ kind: 'fence', edge: 'close', marker: f.marker, lang: '', indent: f.indent });
    }
    this.emit({ kind: 'code', text: stripColumns(line, f.strip), indent: f.indent });
  }

  private startFence(fence: FenceStart, body: string, context: number, indent: number): void {
    const own = leadColumns(body);
    const marker = fence.char.repeat(fence.length);
    this.fence = { ...fence, strip: context + own, maxLead: context + own + 3, marker, indent };
    this.emit({ kind: 'fence', edge: 'open', marker, lang: fence.lang, indent });
  }

  private startTable(g: Extract<Growing, { kind: 'paragraph' }>, delimiter: string): void {
    const header = g.lines.pop()!;
    const headerRaw = this.raw.pop()!;
    // the lines above the header are a paragraph of their own
    if (g.lines.length === 0) this.growing = undefined;
    this.open({ kind: 'table', lines: [header, delimiter.trim()], indent: g.indent }, [headerRaw, delimiter]);
  }

  /** `- a`, `1. a`, and `- - a` (one level per marker, counted in one pass). */
  private startItem(line: string, body: string, indent: number): void {
    let base = this.levels.length > 0 ? this.levels[this.levels.length - 1]!.contentCol : 0;
    let drawn = indent;
    let item = itemStart(body)!;
    // a rest that is a rule ends the markers; only a rest past the last other character can be one
    // (so "- - - … x" is not scanned to its end once per marker)
    let lastOther = body.length - 1;
    while (lastOther >= 0 && '-*_ \t'.includes(body[lastOther]!)) lastOther--;
    for (;;) {
      const contentCol = base + item.contentOffset;
      this.levels.push({ contentCol, drawnCol: drawn + drawnMarkerWidth(item.marker, item.ordered) });
      const ruleRest = body.length - item.text.length > lastOther && isRule(item.text);
      const inner = item.text === '' || ruleRest ? undefined : itemStart(item.text);
      if (!inner) break;
      base = contentCol;
      drawn += drawnMarkerWidth(item.marker, item.ordered);
      item = inner;
    }
    const depth = this.levels.length - 1;
    this.open({ kind: 'item', marker: item.marker, ordered: item.ordered, depth, lines: [item.text], indent: drawn }, [
      line,
    ]);
  }

  private quoteLine(quote: { depth: number; text: string }, line: string, indent: number): void {
    if (isBlank(quote.text)) {
      this.close();
      return this.emit({ kind: 'quote', depth: quote.depth, lines: [], indent });
    }
    const g = this.growing;
    if (g?.kind === 'quote' && g.depth === quote.depth) {
      g.lines.push(quote.text);
      this.raw.push(line);
      return;
    }
    this.open({ kind: 'quote', depth: quote.depth, lines: [quote.text], indent }, [line]);
  }
}
