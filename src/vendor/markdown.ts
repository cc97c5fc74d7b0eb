// Loaded when a reply (or an agent's file) is rendered on a terminal, from its own bundle
// (scripts/build.mjs): markdown-it and our painter of blocks over it (src/ui/markdown/render.ts); the
// highlighter for code is a bundle of its own (highlight.ts). Never loaded for --version, get, a
// pipe or --raw.
// The streaming part (src/ui/markdown/stream.ts) is in the CLI bundle: a reply's first bytes do not
// wait for this file.
import type { MarkdownIt } from 'markdown-it';
import { createParser } from '../ui/markdown/inline.js';
import { BlockRenderer, renderMarkdown, type Highlighter, type Layout } from '../ui/markdown/render.js';

let parser: MarkdownIt | undefined;
const md = () => (parser ??= createParser());

/** Draws the blocks of a reply (src/ui/markdown/stream.ts takes it once loaded). */
export const blockPainter = (layout: Layout): BlockRenderer => new BlockRenderer(layout, md());

/**
 * A whole document, rendered: its lines, each to be ended with
 * \n (the highlighter needed when it has a fence: hasFence).
 */
export const markdownDocument = (text: string, layout: Layout, highlighter?: Highlighter): string[] =>
  renderMarkdown(text, layout, md(), highlighter);

export type { Highlighter, Layout };
