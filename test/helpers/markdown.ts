// Rendering Markdown in tests: one parser, layouts by width, a whole document or a reply streamed in
// given pieces (with tool lines between them, optionally), and escapes made readable for goldens.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createParser } from '../../src/ui/markdown/inline.js';
import { highlighter } from '../../src/ui/markdown/code.js';
import { BlockRenderer, renderMarkdown, type Layout } from '../../src/ui/markdown/render.js';
import { MarkdownStream } from '../../src/ui/markdown/stream.js';
import { ours, unmark } from '../../src/ui/terminal-safe.js';

export const md = createParser();

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/markdown');
export const fixture = (name: string): string => fs.readFileSync(path.join(FIXTURES, `${name}.md`), 'utf8');

export interface LayoutOptions {
  colour?: boolean;
  hyperlinks?: boolean;
  rows?: number;
}

/** Our escapes as markers (`ours`), as in the CLI: unmark() turns them into control characters. */
export const layout = (width: number, o: LayoutOptions = {}): Layout & { rows: number } => ({
  width,
  rows: o.rows ?? 24,
  colour: o.colour ?? false,
  hyperlinks: o.hyperlinks ?? false,
  mark: ours,
});

/** A whole document, as the terminal gets it (markers undone), each line ended. */
export function renderWhole(text: string, width: number, o: LayoutOptions = {}): string {
  return unmark(
    renderMarkdown(text, layout(width, o), md, highlighter)
      .map((l) => `${l}\n`)
      .join(''),
  );
}

export interface StreamOptions {
  /** indexes of pieces after which a tool line takes the screen */
  toolAfter?: ReadonlySet<number>;
  /**
   * the painter of blocks arrives after this piece (as when its bundle is still loading); from the start unless given
   */
  readyAfter?: number;
  /** the highlighter arrives after this piece (after the painter), or when a fence waits for it at the end */
  highlighterAfter?: number;
}

/**
 * A reply streamed in `pieces`: what is written for each, markers kept (so a test can tell ours from anything else).
 */
export function streamOutputs(
  pieces: string[],
  width: number,
  o: LayoutOptions = {},
  so: StreamOptions = {},
): string[] {
  const l = layout(width, o);
  const lateCode = so.highlighterAfter !== undefined;
  const painter = new BlockRenderer(l, md, lateCode ? undefined : highlighter);
  const late = so.readyAfter !== undefined && so.readyAfter < pieces.length;
  const s = new MarkdownStream(l, late ? undefined : painter);
  const out: string[] = [];
  let painted = !late;
  let coloured = !lateCode;
  const colour = () => {
    painter.useHighlighter(highlighter);
    coloured = true;
    out.push(s.ready(painter));
  };
  pieces.forEach((piece, i) => {
    out.push(s.push(piece));
    if (so.toolAfter?.has(i)) out.push(s.hide(), '⚙ get_price(symbol=ETH) ✓ 0.1 s\n');
    if (late && i === so.readyAfter) {
      out.push(s.ready(painter));
      painted = true;
    }
    if (painted && !coloured && i >= so.highlighterAfter!) colour();
  });
  if (!painted) out.push(s.ready(painter));
  s.finish();
  if (!coloured && s.stalled) colour();
  out.push(s.end());
  return out;
}

/** Escapes written out readably: SGR as ⟨1;35⟩, hyperlinks as ⟨link URL⟩ … ⟨/link⟩. */
export function visible(text: string): string {
  return text
    .replace(/\x1b\]8;;([^\x1b]+)\x1b\\/g, '⟨link $1⟩')
    .replace(/\x1b\]8;;\x1b\\/g, '⟨/link⟩')
    .replace(/\x1b\[([0-9;]*)m/g, '⟨$1⟩');
}
